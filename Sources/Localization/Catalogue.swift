import Foundation
import Synchronization

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
    private let table: MessageTable

    /// English, the language the source text is written in.
    public static let source = Catalogue(code: "en", name: "English", rule: .english, messages: [:])

    init(code: String, name: String, rule: PluralRule, messages: [Key: [String]]) {
        self.code = code
        self.name = name
        self.rule = rule
        self.table = MessageTable(messages)
    }

    /// A catalogue from a PO file's text. Its `Language` header is its code, `X-Language-Name`
    /// its name and `Plural-Forms` its rule; untranslated and fuzzy entries are left out (the
    /// English text shows instead).
    public init(file: String, text: String) throws(Unusable) {
        let document = try Self.read(file: file, text: text, keepingComments: true)
        let (code, name, rule) = try Self.identity(of: document, file: file)
        self.init(code: code, name: name, rule: rule, messages: try Self.messages(of: document, rule: rule, file: file))
    }

    /// The catalogue of the PO file at `path`, whose messages are read the first time one is
    /// looked up: a server reads only the header of each catalogue at start (reading all of them
    /// was a sixth of the start's CPU), and the languages nobody asks for stay unread. A header
    /// that is not usable throws now; messages that are not (which the tests rule out for the
    /// catalogues Campus ships) leave the language showing the English text.
    public static func reading(path: String) throws(Unusable) -> Catalogue {
        let file = String(path.split(separator: "/").last ?? Substring(path))
        let text: String
        do {
            text = try Self.headerText(path: path)
        } catch {
            throw Unusable(file: file, reason: "not readable: \(error)")
        }
        let (code, name, rule) = try identity(of: try read(file: file, text: text, keepingComments: false), file: file)
        return Catalogue(
            code: code, name: name, rule: rule,
            table: MessageTable(read: {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                    let document = try? read(file: file, text: text, keepingComments: false),
                    let messages = try? messages(of: document, rule: rule, file: file)
                else { return [:] }
                return messages
            }))
    }

    private init(code: String, name: String, rule: PluralRule, table: MessageTable) {
        self.code = code
        self.name = name
        self.rule = rule
        self.table = table
    }

    /// The start of a PO file up to its first blank line, which ends the header entry where PO
    /// files put it (first); the whole file if the first 16 KiB have no blank line.
    static func headerText(path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        defer { try? handle.close() }
        let start = Array(try handle.read(upToCount: 16 << 10) ?? Data())
        for index in start.indices.dropFirst() where start[index] == 10 {
            let previous = start[index - 1] == 13 && index >= 2 ? start[index - 2] : start[index - 1]
            if previous == 10 { return String(decoding: start[..<index], as: UTF8.self) }
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    private static func read(file: String, text: String, keepingComments: Bool) throws(Unusable) -> PortableObject {
        do {
            return try PortableObject(text, keepingComments: keepingComments)
        } catch {
            throw Unusable(file: file, reason: error.description)
        }
    }

    /// The language's code, name and plural rule, from a PO file's header.
    private static func identity(of document: PortableObject, file: String) throws(Unusable) -> (
        String, String, PluralRule
    ) {
        guard let code = document.headers["Language"], !code.isEmpty else {
            throw Unusable(file: file, reason: "the header has no Language")
        }
        guard let name = document.headers["X-Language-Name"], !name.isEmpty else {
            throw Unusable(file: file, reason: "the header has no X-Language-Name (the language's name in itself)")
        }
        do {
            return (code, name, try PluralRule(header: document.headers["Plural-Forms"] ?? ""))
        } catch {
            throw Unusable(file: file, reason: "Plural-Forms: \(error.reason)")
        }
    }

    /// The translated messages of a PO file: untranslated and fuzzy entries left out.
    private static func messages(of document: PortableObject, rule: PluralRule, file: String) throws(Unusable)
        -> [Key: [String]]
    {
        var messages: [Key: [String]] = [:]
        messages.reserveCapacity(document.entries.count)
        for entry in document.entries where !entry.isFuzzy && !entry.translations.contains(where: \.isEmpty) {
            if entry.pluralID != nil, entry.translations.count != rule.count {
                throw Unusable(
                    file: file,
                    reason: "\"\(entry.id.prefix(40))\" has \(entry.translations.count) forms, not \(rule.count)")
            }
            messages[Key(entry.id, context: entry.context)] = entry.translations
        }
        return messages
    }

    /// The translation of a message, or nil when there is none.
    public func translation(_ key: Key) -> String? { table.messages[key]?.first }

    /// The form of a plural message for `count`, or nil when there is no translation.
    public func translation(_ key: Key, count: Int) -> String? {
        guard let forms = table.messages[key] else { return nil }
        let form = rule.form(count)
        return form < forms.count ? forms[form] : forms.last
    }

    /// How many messages are translated.
    public var count: Int { table.messages.count }
}

/// A catalogue's messages by key: given, or read by `read` the first time they are wanted.
private final class MessageTable: Sendable {
    private let read: (@Sendable () -> [Catalogue.Key: [String]])?
    private let table: Mutex<[Catalogue.Key: [String]]?>

    init(_ messages: [Catalogue.Key: [String]]) {
        read = nil
        table = Mutex(messages)
    }

    init(read: @escaping @Sendable () -> [Catalogue.Key: [String]]) {
        self.read = read
        table = Mutex(nil)
    }

    var messages: [Catalogue.Key: [String]] {
        table.withLock { table in
            if let table { return table }
            let made = read?() ?? [:]
            table = made
            return made
        }
    }
}
