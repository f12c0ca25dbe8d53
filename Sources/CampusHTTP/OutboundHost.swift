import Foundation

/// A URL's host as the programs that connect to it read it — browsers (the WHATWG URL
/// standard), curl, and `getaddrinfo`, which takes every spelling of `inet_aton(3)` — so that
/// one rule judges where they would go: an address, in whatever spelling, or a name.
public enum OutboundHost: Sendable, Equatable {
    /// An address literal: `[::1]`, `127.0.0.1`, and the other spellings of an IPv4 address that
    /// browsers and `inet_aton` read (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`, `127.0.0.1.`).
    case address(NetworkAddress)
    /// A DNS name, in lower case, without its trailing dot.
    case name(String)

    /// Reads a host as `URL.host` gives it (percent-decoded, an IPv6 literal without its
    /// brackets) or as a URL writes it. A host that is no IPv6 literal is percent-decoded and
    /// mapped as a browser maps it (``mapped(_:)``) before it is read. Nil when it is nothing a
    /// browser connects to: a broken literal, a character no host holds, an empty label, or a
    /// last label that is a number while the whole is no IPv4 address (browsers refuse such a
    /// URL: `1.2.3.08`, `example.123`).
    public init?(_ written: String) {
        var text = written
        let bracketed = text.hasPrefix("[") || text.hasSuffix("]")
        if bracketed {
            guard text.hasPrefix("["), text.hasSuffix("]"), text.count > 2 else { return nil }
            text = String(text.dropFirst().dropLast())
        }
        // An IPv6 literal (which browsers do not percent-decode; its zone, `%25eth0`, is dropped).
        if bracketed || text.contains(":") {
            guard let address = NetworkAddress(ipv6: text) else { return nil }
            self = .address(address)
            return
        }
        guard let decoded = text.removingPercentEncoding else { return nil }
        let host = Self.mapped(decoded)
        guard !host.isEmpty, host.unicodeScalars.allSatisfy(Self.mayBeInName) else { return nil }
        if let address = NetworkAddress(ipv4Host: host) {
            self = .address(address)
            return
        }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard let last = labels.last, labels.allSatisfy({ !$0.isEmpty }), !Self.isNumber(last) else { return nil }
        self = .name(name)
    }

    /// The address, for a literal.
    public var address: NetworkAddress? {
        switch self {
        case .address(let address): address
        case .name: nil
        }
    }

    /// Whether the host, as written, is this machine or a private network: an address that is
    /// not public, or a name that by its standard names this machine or a local network —
    /// `localhost` and its subdomains (RFC 6761), `.local` (multicast DNS, RFC 6762),
    /// `.home.arpa` (RFC 8375), `.internal` (kept by ICANN for private networks), and a name of
    /// one label, which resolvers complete with the local network's search domains. Any other
    /// name is decided by what it resolves to, where it is resolved.
    public var isPrivate: Bool {
        switch self {
        case .address(let address):
            return !address.isPublic
        case .name(let name):
            guard name.contains(".") else { return true }
            return Self.localDomains.contains { name == $0 || name.hasSuffix("." + $0) }
        }
    }

    static let localDomains = ["localhost", "local", "home.arpa", "internal"]

    /// A host as a browser maps it before reading it (UTS #46, near enough: NFKC with case
    /// folding and default-ignorable characters removed): full-width and other compatibility
    /// forms become plain letters and digits (`１２７` is `127`, `．` and `｡` dots), the
    /// ideographic full stop `。` a dot, invisible characters (soft hyphen, zero-width space)
    /// nothing, and letters lower case.
    static func mapped(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var scalars = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars
        where !scalar.properties.isDefaultIgnorableCodePoint {
            scalars.append(scalar == "\u{3002}" ? "." : scalar)
        }
        return String(scalars).lowercased()
    }

    /// Letters, digits, `-`, `_` and `.`, and characters beyond ASCII (an internationalized
    /// name) that are neither blank nor control.
    private static func mayBeInName(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value)
                || scalar == "-" || scalar == "_" || scalar == "."
        }
        return !scalar.properties.isWhitespace && scalar.properties.generalCategory != .control
    }

    /// A label a browser reads as a number: decimal digits, or `0x` and hexadecimal digits.
    private static func isNumber(_ label: Substring) -> Bool {
        let lower = label.lowercased()
        if lower.hasPrefix("0x") { return lower.dropFirst(2).allSatisfy(\.isHexDigit) }
        return lower.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
