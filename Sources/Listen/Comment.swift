import Foundation
import InputRules

/// A listener's comment on an album, podcast, audiobook or programme.
public struct Comment: Sendable, Equatable {
    public var id: Int64
    public var parentID: Int64
    public var authorID: Int64
    public var authorName: String
    public var body: String
    public var createdAt: Date

    public init(id: Int64, parentID: Int64, authorID: Int64, authorName: String, body: String, createdAt: Date) {
        self.id = id
        self.parentID = parentID
        self.authorID = authorID
        self.authorName = authorName
        self.body = body
        self.createdAt = createdAt
    }

    public static let lengthLimit = 2000

    /// The text of a new comment: trimmed, not empty, at most 2,000 characters.
    public static func body(_ text: String) throws(PlayerError) -> String {
        let body = TextRules.trimmed(text)
        guard TextRules.firstControl(in: body, multiline: true) == nil else {
            throw PlayerError(field: "body", detail: "A comment cannot contain control characters.")
        }
        guard !body.isEmpty else { throw PlayerError(field: "body", detail: "Write something first.") }
        guard body.unicodeScalars.count <= lengthLimit else {
            throw PlayerError(
                field: "body", detail: "A comment has at most {maximum} characters.", ["maximum": String(lengthLimit)])
        }
        return body
    }
}
