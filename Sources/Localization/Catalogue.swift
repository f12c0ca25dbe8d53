/// One language's translations, read from its PO file: the language's code and own name, its
/// plural rule, and every translated message by context and source text. The source language,
/// English, is a catalogue without messages: its text is the source text.
public struct Catalogue: Sendable {
    /// A message's key: its context (`msgctxt`) and source text (`msgid`).
    public struct Key: Hashable, Sendable {
        public var context: String?
        public var id: String

        public init(_ id: String, context: String? = nil) {
            self.id = id
            self.context = context
        }
    }

    /// Why a catalogue is not used.
    public struct Unusable: Error, Sendable, CustomStringConvertible {
        public var file: String
        public var reason: String
        public var description: String { "\(file): \(reason)" }
    }

    /// The language's code (`ru`, `be` …), its BCP 47 tag as `lang` attributes and
    /// `Accept-Language` use it.
    public let code: String
    /// The language's name in itself (`Русский`), for the language switcher.
    public let name: String
    public let rule: PluralRule
    let messages: [Key: [String]]

    /// English, the language the source text is written in.
    public static let source = Catalogue(code: "en", name: "English", rule: .english, messages: [:])

    init(code: String, name: String, rule: PluralRule, messages: [Key: [String]]) {
        self.code = code
        self.name = name
        self.rule = rule
        self.messages = messages
    }

    /// A catalogue from a PO file's text. Its `Language` header is its code, `X-Language-Name`
    /// its name and `Plural-Forms` its rule; untranslated and fuzzy entries are left out (the
    /// English text shows instead).
    public init(file: String, text: String) throws(Unusable) {
        let document: PortableObject
        do {
            document = try PortableObject(text)
        } catch {
            throw Unusable(file: file, reason: error.description)
        }
        guard let code = document.headers["Language"], !code.isEmpty else {
            throw Unusable(file: file, reason: "the header has no Language")
        }
        guard let name = document.headers["X-Language-Name"], !name.isEmpty else {
            throw Unusable(file: file, reason: "the header has no X-Language-Name (the language's name in itself)")
        }
        let rule: PluralRule
        do {
            rule = try PluralRule(header: document.headers["Plural-Forms"] ?? "")
        } catch {
            throw Unusable(file: file, reason: "Plural-Forms: \(error.reason)")
        }
        var messages: [Key: [String]] = [:]
        for entry in document.entries where !entry.isFuzzy && !entry.translations.contains(where: \.isEmpty) {
            if entry.pluralID != nil, entry.translations.count != rule.count {
                throw Unusable(
                    file: file,
                    reason: "\"\(entry.id.prefix(40))\" has \(entry.translations.count) forms, not \(rule.count)")
            }
            messages[Key(entry.id, context: entry.context)] = entry.translations
        }
        self.init(code: code, name: name, rule: rule, messages: messages)
    }

    /// The translation of a message, or nil when there is none.
    public func translation(_ key: Key) -> String? { messages[key]?.first }

    /// The form of a plural message for `count`, or nil when there is no translation.
    public func translation(_ key: Key, count: Int) -> String? {
        guard let forms = messages[key] else { return nil }
        let form = rule.form(count)
        return form < forms.count ? forms[form] : forms.last
    }

    /// How many messages are translated.
    public var count: Int { messages.count }
}
