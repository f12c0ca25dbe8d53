import Foundation

/// A gettext PO file (`.po`, `.pot`) read into its entries: the format Weblate, Poedit, Crowdin
/// and gettext's own tools open. Read here rather than with a library: no maintained Swift PO
/// reader exists, and the part of the format Campus uses is small — `msgctxt`, `msgid`,
/// `msgid_plural`, `msgstr`, `msgstr[N]`, comments and flags, strings continued over lines, and
/// C escapes. Obsolete entries (`#~`) are left out; fuzzy ones are read with their flag.
public struct PortableObject: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var context: String?
        public var id: String
        public var pluralID: String?
        /// One translation, or one per plural form (`msgstr[0]`, `msgstr[1]` …); empty strings
        /// where nothing is translated yet.
        public var translations: [String]
        /// `#.` lines: what the developer says to the translator.
        public var comments: [String]
        /// `#:` lines: where the string is used.
        public var references: [String]
        /// `#,` flags: `fuzzy`, `python-brace-format` …
        public var flags: [String]

        public init(
            context: String? = nil, id: String, pluralID: String? = nil, translations: [String] = [""],
            comments: [String] = [], references: [String] = [], flags: [String] = []
        ) {
            self.context = context
            self.id = id
            self.pluralID = pluralID
            self.translations = translations
            self.comments = comments
            self.references = references
            self.flags = flags
        }

        public var isFuzzy: Bool { flags.contains("fuzzy") }
    }

    /// Why a file is not read: the line and what was wrong.
    public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// The header entry's fields (`Language`, `Plural-Forms` …), from the entry whose `msgid` is "".
    public var headers: [String: String]
    /// Every entry but the header.
    public var entries: [Entry]

    public init(headers: [String: String] = [:], entries: [Entry] = []) {
        self.headers = headers
        self.entries = entries
    }

    /// Reads a PO file's text; without `keepingComments`, entries have no comments and
    /// references (a server has no use for them, and they are half of a catalogue's bytes).
    public init(_ text: String, keepingComments: Bool = true) throws(Unreadable) {
        var entries: [Entry] = []
        var entry = Draft()
        var field: Draft.Field?
        var number = 0
        // Lines are found, and told apart, by their UTF-8 bytes (every byte that matters is
        // ASCII): splitting the String by Characters, and then comparing Characters, took most of
        // the catalogues' reading time at start-up.
        for raw in text.utf8.split(separator: 10, omittingEmptySubsequences: false) {
            number += 1
            let line = raw.last == 13 ? raw.dropLast() : raw
            let trimmed = line.drop(while: { $0 == 32 || $0 == 9 })
            guard let first = trimmed.first else { continue }
            if first == UInt8(ascii: "#") {
                // A comment after a complete entry starts the next one.
                if entry.hasID, entry.hasTranslation {
                    try entries.append(entry.finished(line: number))
                    entry = Draft()
                    field = nil
                }
                let kind = trimmed.dropFirst().first
                if kind == UInt8(ascii: "~") { continue }
                if !keepingComments, kind == UInt8(ascii: ".") || kind == UInt8(ascii: ":") { continue }
                let body = String(Substring(trimmed.dropFirst(2).drop(while: { $0 == 32 })))
                switch kind {
                case UInt8(ascii: "."): entry.comments.append(body)
                case UInt8(ascii: ":"): entry.references.append(body)
                case UInt8(ascii: ","):
                    entry.flags += body.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                default: break
                }
                continue
            }
            if first == UInt8(ascii: "\"") {
                guard let current = field else { throw Unreadable(line: number, reason: "a string outside an entry") }
                try entry.append(Self.string(Substring(trimmed), line: number), to: current, line: number)
                continue
            }
            let keywordBytes = trimmed.prefix(while: { $0 != 32 && $0 != 9 && $0 != UInt8(ascii: "\"") })
            let rest = trimmed.dropFirst(keywordBytes.count).drop(while: { $0 == 32 || $0 == 9 })
            let keyword = Substring(keywordBytes)
            let next: Draft.Field
            switch keyword {
            case "msgctxt": next = .context
            case "msgid": next = .id
            case "msgid_plural": next = .pluralID
            case "msgstr":
                next = .translation(0)
                entry.singleTranslation = true
            default:
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                    let index = Int(keyword.dropFirst(7).dropLast()), (0..<10).contains(index)
                else { throw Unreadable(line: number, reason: "\(keyword.prefix(20)) is not a PO keyword") }
                next = .translation(index)
            }
            // msgctxt or msgid after a complete entry starts the next one.
            if entry.hasID, entry.hasTranslation, next == .context || next == .id {
                try entries.append(entry.finished(line: number))
                entry = Draft()
            }
            try entry.start(next, line: number)
            try entry.append(Self.string(Substring(rest), line: number), to: next, line: number)
            field = next
        }
        if entry.hasID { try entries.append(entry.finished(line: number)) }
        var headers: [String: String] = [:]
        if let index = entries.firstIndex(where: { $0.id.isEmpty && $0.context == nil }) {
            for line in entries[index].translations[0].split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            entries.remove(at: index)
        }
        self.headers = headers
        self.entries = entries
    }

    /// A quoted C string: `"a \"b\"\n"` → `a "b"` and a line feed. Read as UTF-8 bytes (every
    /// byte that matters is ASCII), which keeps reading the catalogues off the start-up time.
    static func string(_ text: Substring, line: Int) throws(Unreadable) -> String {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 32 || last == 9 { bytes.removeLast() }
        var start = 0
        while start < bytes.count, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        guard bytes.count - start >= 2, bytes[start] == 34, bytes[bytes.count - 1] == 34 else {
            throw Unreadable(line: line, reason: "a string must be in double quotes")
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var escaped = false
        for byte in bytes[(start + 1)..<(bytes.count - 1)] {
            if escaped {
                switch byte {
                case UInt8(ascii: "n"): result.append(10)
                case UInt8(ascii: "t"): result.append(9)
                case UInt8(ascii: "r"): result.append(13)
                case 34, 92: result.append(byte)
                default:
                    throw Unreadable(
                        line: line, reason: "\\\(Character(Unicode.Scalar(byte))) is not an escape PO files use")
                }
                escaped = false
            } else if byte == 92 {
                escaped = true
            } else if byte == 34 {
                throw Unreadable(line: line, reason: "a double quote inside a string must be written \\\"")
            } else {
                result.append(byte)
            }
        }
        if escaped { throw Unreadable(line: line, reason: "a string ends in a lone backslash") }
        return String(decoding: result, as: UTF8.self)
    }

    /// An entry being read.
    private struct Draft {
        enum Field: Equatable {
            case context, id, pluralID
            case translation(Int)
        }

        var context: String?
        var id: String?
        var pluralID: String?
        var translations: [Int: String] = [:]
        var comments: [String] = []
        var references: [String] = []
        var flags: [String] = []
        /// `msgstr` rather than `msgstr[N]`.
        var singleTranslation = false

        var hasID: Bool { id != nil }
        var hasTranslation: Bool { !translations.isEmpty }

        mutating func start(_ field: Field, line: Int) throws(Unreadable) {
            switch field {
            case .context:
                guard context == nil, id == nil else { throw Unreadable(line: line, reason: "msgctxt must come first") }
                context = ""
            case .id:
                guard id == nil else { throw Unreadable(line: line, reason: "a second msgid in one entry") }
                id = ""
            case .pluralID:
                guard id != nil, pluralID == nil, translations.isEmpty else {
                    throw Unreadable(line: line, reason: "msgid_plural must follow msgid")
                }
                pluralID = ""
            case .translation(let index):
                guard id != nil, translations[index] == nil else {
                    throw Unreadable(line: line, reason: "msgstr without msgid, or twice")
                }
                translations[index] = ""
            }
        }

        mutating func append(_ text: String, to field: Field, line: Int) throws(Unreadable) {
            switch field {
            case .context: context? += text
            case .id: id? += text
            case .pluralID: pluralID? += text
            case .translation(let index): translations[index]? += text
            }
        }

        func finished(line: Int) throws(Unreadable) -> Entry {
            guard let id else { throw Unreadable(line: line, reason: "an entry without msgid") }
            let count = translations.count
            guard count > 0, (0..<count).allSatisfy({ translations[$0] != nil }) else {
                throw Unreadable(
                    line: line, reason: "the entry \"\(id.prefix(40))\" has no msgstr, or a gap in its forms")
            }
            if (pluralID == nil) != singleTranslation || (singleTranslation && count != 1) {
                throw Unreadable(
                    line: line, reason: "msgstr[N] belongs to an entry with msgid_plural, msgstr to one without")
            }
            return Entry(
                context: context, id: id, pluralID: pluralID, translations: (0..<count).compactMap { translations[$0] },
                comments: comments, references: references, flags: flags)
        }
    }
}
