/// `Content-Disposition: attachment` with a file name, as RFC 6266 says to send one: the name
/// in `filename*` (RFC 8187: UTF-8, every byte other than a letter, a digit or one of
/// `!#$&+-.^_`|~` percent-encoded, so spaces, `;`, quotes and non-ASCII letters reach the
/// browser as they are named), after a `filename` in quotes for clients that do not read
/// `filename*`: the name in ASCII, anything else as `_`. What a file system or a header cannot
/// hold (controls, `/` and `\`) becomes `_` in both.
public enum ContentDisposition {
    /// `attachment; filename="02 - Chapter 2.m4a"; filename*=UTF-8''02%20-%20Chapter%202.m4a`.
    public static func attachment(filename: String) -> String {
        let name = String(String.UnicodeScalarView(filename.unicodeScalars.map(safe)))
        return "attachment; filename=\"\(fallback(name))\"; filename*=UTF-8''\(encoded(name))"
    }

    /// Controls (C0, DEL, C1) and folder separators become `_`.
    private static func safe(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2F, 0x5C: "_"
        default: scalar
        }
    }

    /// The name as RFC 8187's `value-chars`: `attr-char`s as they are, every other byte as `%XX`.
    static func encoded(_ name: String) -> String {
        var result = ""
        for byte in name.utf8 {
            if isAttributeCharacter(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// RFC 8187's `attr-char`: ALPHA, DIGIT and `!#$&+-.^_`|~`.
    private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// The name as a quoted string of printable ASCII: other characters, and the quote itself
    /// (which old clients do not unescape), as `_`.
    static func fallback(_ name: String) -> String {
        String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    (0x20...0x7E).contains(scalar.value) && scalar != "\"" ? scalar : "_"
                }))
    }
}
