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
