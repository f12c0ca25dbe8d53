import Localization

/// The rules every text that reaches Campus keeps, whoever writes it (the API, a web form, the
/// command line, an import, a feed, a file's tags): a length limit counted in Unicode code points
/// (as JSON Schema counts), and no control characters. Control characters are C0 and C1 controls
/// (a NUL cuts text short in C libraries and databases) and the bidirectional overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069), which make text read differently than it is stored.
/// Text of several lines (descriptions, comments, notes) may hold line breaks and tabs.
public enum TextRules {
    /// Whether a scalar is a control character; tab, line feed and carriage return are not,
    /// when `multiline`.
    public static func isControl(_ scalar: Unicode.Scalar, multiline: Bool = false) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: !multiline
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether a scalar is a noncharacter: U+FDD0–U+FDEF and the last two code points of every
    /// plane (U+FFFE and U+FFFF among them), which Unicode keeps for a program's own use and XML
    /// 1.0 cannot hold.
    public static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }

    /// A text Campus keeps from a sender it cannot ask again, made to keep the rules of one line
    /// rather than refused: a radio source's now-playing title (Icecast's source clients send
    /// whatever their encoder's tags hold, and a refusal would only leave the old title on the
    /// air). Line breaks, tabs and the other separators of lines become one space, every other
    /// control character and every noncharacter is left out, spaces at either end are trimmed,
    /// and the text is cut to `limit` code points. A text that keeps the rules comes back as it
    /// was (trimmed).
    public static func cleaned(_ text: some StringProtocol, limit: Int) -> String {
        let space: Unicode.Scalar = " "
        var kept: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D, 0x85, 0x2028, 0x2029:
                if kept.last != space { kept.append(space) }
            default:
                if !isControl(scalar), !isNoncharacter(scalar) { kept.append(scalar) }
            }
        }
        let start = kept.firstIndex { !$0.properties.isWhitespace } ?? kept.endIndex
        var line = Array(kept[start...].prefix(max(0, limit)))
        while let last = line.last, last.properties.isWhitespace { line.removeLast() }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: line)
        return String(result)
    }

    /// The first control character of a text, if it has one.
    public static func firstControl(in text: some StringProtocol, multiline: Bool = false) -> Unicode.Scalar? {
        text.unicodeScalars.first { isControl($0, multiline: multiline) }
    }

    /// What is wrong with a text, as a sentence about `{field}` (a value or a part the caller
    /// gives: "{field} has 600 characters; at most 500."), or nil when it keeps the rules.
    /// One pass over the scalars, compiled for the caller's text type (`@inlinable`): an import
    /// checks every field of 40,000 lessons, and the unspecialized walk was a twentieth of it.
    @inlinable
    public static func problem(in text: some StringProtocol, limit: Int, multiline: Bool = false) -> Phrase? {
        var length = 0
        var control: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            length += 1
            if control == nil, isControl(scalar, multiline: multiline) { control = scalar }
        }
        if length > limit {
            return Phrase(
                "{field} has {length} characters; at most {limit}.", ["length": String(length), "limit": String(limit)])
        }
        if let scalar = control {
            return Phrase(
                "{field} contains a control character ({codePoint}), which is not allowed.",
                ["codePoint": codePoint(scalar)])
        }
        return nil
    }

    /// Whether a scalar shows nothing by itself: white space and the characters Unicode says to
    /// ignore where they cannot be shown (`Default_Ignorable_Code_Point`: U+200B zero width
    /// space, U+FEFF, U+00AD soft hyphen, U+2060 word joiner, variation selectors, Hangul
    /// fillers …) with the other format characters (`Cf`).
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isWhitespace || properties.isDefaultIgnorableCodePoint
            || properties.generalCategory == .format
    }

    /// Whether a text has nothing a reader sees: empty, or only spaces and invisible characters.
    /// A name, a title or a subject that must be given must not be blank.
    public static func isBlank(_ text: some StringProtocol) -> Bool { text.unicodeScalars.allSatisfy(isInvisible) }

    /// The text without what a reader does not see at its start and end: white space and
    /// invisible characters (``isInvisible(_:)``), taken off whole characters, so that an emoji
    /// keeps its variation selector. A text that ``isBlank(_:)`` trims to "".
    public static func trimmed(_ text: some StringProtocol) -> String {
        func invisible(_ character: Character) -> Bool { character.unicodeScalars.allSatisfy(isInvisible) }
        var characters = Substring(String(text))
        while let first = characters.first, invisible(first) { characters.removeFirst() }
        while let last = characters.last, invisible(last) { characters.removeLast() }
        return String(characters)
    }

    /// `U+0000`.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension StringProtocol {
    /// Whether the text holds a control character, line breaks and tabs included (see ``TextRules``).
    public var containsControlCharacters: Bool { TextRules.firstControl(in: self) != nil }
}
