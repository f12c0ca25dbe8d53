import Foundation
import InputRules

/// The longest texts of the catalogue, whoever brings them in (a library scan reading tags, a
/// podcast feed, an upload), and the check they all pass before anything is stored.
public enum CatalogueLimits {
    /// Titles of items, albums, podcasts, audiobooks and programmes.
    public static let title = 500
    /// Names of authors and genres.
    public static let name = 200
    /// Descriptions and summaries (several lines).
    public static let description = 20_000
    /// Links: a feed's, an episode's enclosure, a cover image.
    public static let link = 2000
    /// A podcast episode's guid.
    public static let guid = 500

    /// Checks one text; the problem names the field (`item[3].title has 600 characters; at most 500.`).
    public static func check(
        _ text: String?, _ field: @autoclosure () -> String, limit: Int, multiline: Bool = false
    ) throws(CatalogueLimitProblem) {
        guard let text, let message = TextRules.problem(in: text, limit: limit, multiline: multiline) else { return }
        throw CatalogueLimitProblem(field: field(), message: message)
    }

    /// Checks a date a source gives (a tag, a feed): in ``DateRules/years``.
    public static func check(_ date: Date?, _ field: @autoclosure () -> String) throws(CatalogueLimitProblem) {
        guard let date, !DateRules.isSupported(date) else { return }
        throw CatalogueLimitProblem(field: field(), message: "is outside \(DateRules.rangeText).")
    }
}

/// A field of something brought into the catalogue that breaks ``CatalogueLimits``.
public struct CatalogueLimitProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field) \(message)" }
}
