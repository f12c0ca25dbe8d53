import Foundation
import InputRules
import Localization

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

    /// Checks one text; the problem names the field in words of its own ("{field} has 600
    /// characters; at most 500." with the field "The title of item {item}").
    public static func check(
        _ text: String?, _ field: @autoclosure () -> Phrase, limit: Int, multiline: Bool = false
    ) throws(CatalogueLimitProblem) {
        guard let text, var problem = TextRules.problem(in: text, limit: limit, multiline: multiline) else { return }
        problem.parts["field"] = field()
        throw CatalogueLimitProblem(problem)
    }

    /// Checks a date a source gives (a tag, a feed): in ``DateRules/years``.
    public static func check(_ date: Date?, _ field: @autoclosure () -> Phrase) throws(CatalogueLimitProblem) {
        guard let date, !DateRules.isSupported(date) else { return }
        throw CatalogueLimitProblem(
            Phrase("{field} is outside {firstDay} to {lastDay}.", DateRules.rangeValues, parts: ["field": field()]))
    }
}

/// Something brought into the catalogue that breaks ``CatalogueLimits``, in a sentence that names
/// the field.
public struct CatalogueLimitProblem: PhrasedError, Sendable, Equatable {
    public var phrase: Phrase

    public init(_ phrase: Phrase) { self.phrase = phrase }
}
