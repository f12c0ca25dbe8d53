import Foundation

/// The one rule for a URL Campus fetches (a feed, a cover, every redirect of either) or sends a
/// client to (an imported episode's enclosure, by `/stream` and Subsonic's `stream`): an
/// absolute http or https URL that Foundation, browsers and curl read alike, whose host
/// (``OutboundHost``) is neither this machine nor a private network, unless the admin allows
/// private addresses (`--allow-private-fetch`).
///
/// A host name is judged as written: Campus cannot know what it will resolve to where a listener
/// plays an episode, nor later. A fetch resolves it and judges every address it has as well, and
/// connects to the address it judged (``OutboundFetch``).
public struct OutboundURL: Sendable {
    /// Why a URL is refused.
    public enum Refusal: Error, Sendable, Equatable {
        /// Not an absolute http or https URL with a host that every reader reads the same way.
        case notWebURL
        /// Its host (as Foundation reads it) is this machine or a private network: an address
        /// that is not public (given), or a name of this machine or a local network.
        case privateHost(String, NetworkAddress?)
    }

    public var url: URL
    /// The host as `URL.host` reads it (percent-decoded, an IPv6 literal without brackets):
    /// what AsyncHTTPClient connects to, or looks up.
    public var hostText: String
    public var host: OutboundHost

    public init(_ text: String, allowPrivate: Bool) throws(Refusal) {
        let head = Self.head(text)
        guard head.unicodeScalars.allSatisfy(Self.mayBeInHead), head.filter({ $0 == "@" }).count <= 1,
            let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let hostText = url.host, !hostText.isEmpty, let host = OutboundHost(hostText)
        else { throw Refusal.notWebURL }
        self.url = url
        self.hostText = hostText
        self.host = host
        guard !allowPrivate else { return }
        if host.isPrivate { throw Refusal.privateHost(hostText, host.address) }
        // A browser maps the host before it reads it (full-width digits, other dots, invisible
        // characters; even before it finds where the host ends): judge what that makes too.
        if !text.utf8.allSatisfy({ $0 < 0x80 }), let mapped = URL(string: OutboundHost.mapped(text))?.host,
            let other = OutboundHost(mapped), other.isPrivate
        {
            throw Refusal.privateHost(mapped, other.address)
        }
    }

    /// The URL up to the end of its host and port: everything before the first `//` and what
    /// follows it up to the first `/`, `?` or `#` (the whole text without a `//`). Browsers and
    /// Foundation find the host in it alike when it keeps ``mayBeInHead(_:)`` and holds at most one
    /// `@`; after it, they differ only in how they write the path.
    private static func head(_ text: String) -> Substring {
        guard let start = text.range(of: "//") else { return text[...] }
        let authority = text[start.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return text[..<authority.endIndex]
    }

    /// No control character, blank or backslash: browsers drop tabs and line breaks and read
    /// `\` as `/`, where Foundation encodes them, so the two would find different hosts
    /// (`http://127.0.0.1\@example.org/`); and browsers take the host after the last `@`,
    /// Foundation does not (`http://a@example.org@127.0.0.1/`).
    private static func mayBeInHead(_ scalar: Unicode.Scalar) -> Bool {
        !(scalar.value <= 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\\")
    }
}
