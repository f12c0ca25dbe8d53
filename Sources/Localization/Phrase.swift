/// Words for a person, kept as what they were made from so that any language can say them: a
/// literal English message with `{placeholders}` (scripts/extract-messages finds
/// `Phrase("…")`, `detail: "…"` and the like, context `problem`), the values that fill the
/// placeholders, and phrases that fill placeholders with words of their own, translated before
/// they are filled in ("{field} has {length} characters; at most {limit}." with the field
/// "The title of item {item}").
///
/// Every refusal Campus gives keeps one (problems, field problems, and the errors of imports,
/// feeds, GPX files and outside programs), so the API, the pages and the command line each say
/// it in their reader's language (``Translator/callAsFunction(_:context:)``).
public struct Phrase: Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var values: [String: String]
    public var parts: [String: Phrase]

    public init(_ message: String, _ values: [String: String] = [:], parts: [String: Phrase] = [:]) {
        self.message = message
        self.values = values
        self.parts = parts
    }

    /// The words in English.
    public var text: String { fill(message) { $0.text } }

    public var description: String { text }

    /// `text` with the placeholders filled: values, and parts as `say` says them.
    func fill(_ text: String, _ say: (Phrase) -> String) -> String {
        guard !parts.isEmpty else { return Placeholders.fill(text, values) }
        var all = values
        for (name, part) in parts { all[name] = say(part) }
        return Placeholders.fill(text, all)
    }
}

extension Translator {
    /// A phrase in this language: its message's translation (the English message where the
    /// catalogue has none) filled with its values and its parts, each said in this language too.
    public func callAsFunction(_ phrase: Phrase, context: String? = "problem") -> String {
        let text = translation(of: phrase.message, context: context) ?? phrase.message
        return phrase.fill(text) { self($0, context: context) }
    }
}

/// An error that says what went wrong in a phrase: the command line, the pages and the API say
/// it in their reader's language.
public protocol PhrasedError: Error, CustomStringConvertible {
    /// The whole sentence.
    var phrase: Phrase { get }
}

extension PhrasedError {
    public var description: String { phrase.text }
}
