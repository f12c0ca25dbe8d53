import Foundation

/// The links Campus keeps or follows from input: where to go after logging in or after a form,
/// where a feed block's title, ad or banner leads. A link within Campus is a path of this site
/// written in URL characters: it starts with one `/` and holds only the characters a URL's path
/// and query may hold unescaped (RFC 3986), so that no browser can read it as another site's
/// address. Browsers treat `\` as `/` (`/\evil.example` is `//evil.example`, another host) and
/// drop tabs and line breaks (`/%09/evil.example`, decoded, became `//evil.example`), which is
/// why both are refused with every other character outside that set. A link to another site is
/// an absolute `http` or `https` address with a host, in the same characters.
public enum LinkRules {
    /// The longest link kept, in bytes.
    public static let maximumLength = 2000

    /// Whether `text` is a path of this site (`/listen/albums/2?from=feed`).
    public static func isSitePath(_ text: some StringProtocol) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, first == UInt8(ascii: "/"), bytes.count <= maximumLength,
            !text.hasPrefix("//"), bytes.allSatisfy({ isURLCharacter($0, host: false) })
        else { return false }
        return true
    }

    /// Whether `text` is an http or https address of another site (`https://example.org/a?b=c`).
    public static func isWebAddress(_ text: some StringProtocol) -> Bool {
        let text = String(text)
        guard text.utf8.count <= maximumLength, text.utf8.allSatisfy({ isURLCharacter($0, host: true) }),
            let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            text.lowercased().hasPrefix(scheme + "://")
        else { return false }
        return true
    }

    /// Whether `text` is a path of this site or an address of another (an ad's or banner's link).
    public static func isLink(_ text: some StringProtocol) -> Bool { isSitePath(text) || isWebAddress(text) }

    /// A byte a URL may hold unescaped: RFC 3986's unreserved and reserved characters, and `%`
    /// for what is escaped (`[` and `]` only where a host may be, for IPv6 addresses). Nothing
    /// else: no space, control character, `\`, `"`, `<`, `>`, `^`, backtick, `{`, `|`, `}`, and no
    /// byte of a character beyond ASCII.
    static func isURLCharacter(_ byte: UInt8, host: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "["), UInt8(ascii: "]"): host
        default: pathPunctuation.contains(byte)
        }
    }

    private static let pathPunctuation = Set("-._~!$&'()*+,;=:@/?#%".utf8)
}
