import Foundation
import InputRules

/// What a listener tells the admins (seed 001's settings screen: «Пожаловаться на контент»,
/// «Обратная связь»): a report on an item, a parent, an author or a playlist, or feedback on
/// Campus itself. It waits in the admins' queue until one of them marks it resolved.
public struct ContentReport: Sendable, Equatable {
    public enum Reason: String, Sendable, CaseIterable, Codable {
        case inappropriate
        case explicitUnmarked = "explicit_unmarked"
        case copyright
        case wrongInformation = "wrong_information"
        case poorQuality = "poor_quality"
        case other
        /// Feedback on Campus, with no item.
        case feedback
    }

    public var id: Int64
    public var reporterID: Int64
    public var reporterName: String
    /// What it is about (`track:12`, `album:3`, `author:5`, `playlist:7`); nil for feedback.
    public var target: Reference?
    public var reason: Reason
    public var note: String
    public var createdAt: Date
    public var resolvedAt: Date?

    public init(
        id: Int64, reporterID: Int64, reporterName: String, target: Reference?, reason: Reason, note: String,
        createdAt: Date, resolvedAt: Date?
    ) {
        self.id = id
        self.reporterID = reporterID
        self.reporterName = reporterName
        self.target = target
        self.reason = reason
        self.note = note
        self.createdAt = createdAt
        self.resolvedAt = resolvedAt
    }

    public static let noteLimit = 2000
    /// Reports a listener may have waiting at once (a flood is refused, not queued).
    public static let openLimit = 50

    /// A report's note: trimmed, at most 2,000 characters; feedback and "other" need one.
    public static func note(_ text: String?, reason: Reason) throws(PlayerError) -> String {
        let note = TextRules.trimmed(text ?? "")
        guard TextRules.firstControl(in: note, multiline: true) == nil else {
            throw PlayerError(field: "note", detail: "A note cannot contain control characters.")
        }
        guard note.unicodeScalars.count <= noteLimit else {
            throw PlayerError(
                field: "note", detail: "A note has at most {maximum} characters.", ["maximum": String(noteLimit)])
        }
        if note.isEmpty, reason == .feedback || reason == .other {
            throw PlayerError(field: "note", detail: "Say in a few words what it is about.")
        }
        return note
    }
}
