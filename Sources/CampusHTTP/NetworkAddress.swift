import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// An IPv4 or IPv6 address, and whether it is public.
public struct NetworkAddress: Sendable, Equatable, CustomStringConvertible {
    /// 4 or 16 bytes.
    var bytes: [UInt8]

    /// Parses an address literal as `inet_pton` reads it (`192.0.2.1`, `2001:db8::1`); nil for
    /// anything else. The other spellings a URL's host may give an address are
    /// ``OutboundHost``'s.
    public init?(text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// An IPv6 address as a URL's host holds it, without its brackets; a zone (`fe80::1%eth0`)
    /// is dropped, as the address alone decides where it leads.
    init?(ipv6 text: String) {
        let address = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, String(address), &v6) == 1 else { return nil }
        bytes = withUnsafeBytes(of: &v6) { Array($0) }
    }

    /// An IPv4 address in every spelling `inet_aton(3)` reads, which is what `getaddrinfo` (and
    /// so curl and most players) and browsers (the WHATWG URL standard's IPv4 parser) connect to:
    /// one to four parts, each decimal, octal (`0177`) or hexadecimal (`0x7f`), the last filling
    /// the bytes that are left (`2130706433`, `0x7f.1`, `127.1`, `192.168.257`), and the one
    /// trailing dot a browser allows (`127.0.0.1.`).
    init?(ipv4Host text: String) {
        var written = Substring(text)
        if written.hasSuffix(".") { written = written.dropLast() }
        // inet_aton stops at the first blank and ignores the rest; a host holds none of it.
        guard !written.isEmpty, written.utf8.allSatisfy({ Self.ipv4Characters.contains($0) }) else { return nil }
        var v4 = in_addr()
        guard inet_aton(String(written), &v4) != 0 else { return nil }
        bytes = withUnsafeBytes(of: &v4) { Array($0) }
    }

    private static let ipv4Characters = Set("0123456789abcdefABCDEFxX.".utf8)

    init(bytes: [UInt8]) { self.bytes = bytes }

    public var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { text }

    /// Not loopback, private (RFC 1918, unique local), link-local, shared (CGNAT), multicast,
    /// documentation, reserved or unspecified. IPv6 is public only in 2000::/3, the global
    /// unicast space, outside the IETF's own blocks; an IPv6 address that leads to IPv4 ones
    /// (``carriedIPv4``) is public only when every one of them is.
    public var isPublic: Bool {
        if bytes.count == 4 { return Self.isPublicV4(bytes) }
        guard bytes.count == 16 else { return false }
        if let carried = carriedIPv4 { return carried.allSatisfy(\.isPublic) }
        let b = bytes
        // Outside 2000::/3: ::/8 (with 64:ff9b:1::/48, local-use NAT64, refused whatever IPv4
        // address it embeds: where it embeds one is the local network's choice, RFC 8215),
        // 100::/64 (discard), 5f00::/16 (SRv6), fc00::/7 (unique local), fe80::/10 (link-local),
        // ff00::/8 (multicast) …
        guard b[0] & 0xE0 == 0x20 else { return false }
        if b[0] == 0x20, b[1] == 0x01, b[2] < 0x02 { return false }  // 2001::/23, IETF protocol assignments
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return false }  // 2001:db8::/32, documentation
        if b[0] == 0x3F, b[1] == 0xFF, b[2] < 0x10 { return false }  // 3fff::/20, documentation
        return true
    }

    /// The IPv4 addresses an IPv6 address leads to, by the forms that carry one: IPv4-mapped
    /// `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d` (SIIT), IPv4-compatible `::a.b.c.d`
    /// (with `::` and `::1`, which carry 0.0.0.0 and 0.0.0.1), NAT64's well-known prefix
    /// `64:ff9b::/96`, 6to4 `2002:AABB:CCDD::/48` (the address in bits 16–47), and Teredo
    /// `2001:0::/32` (its server in bits 32–63, its client in the last 32 bits, inverted).
    /// Nil for an IPv4 address and for other IPv6 ones.
    public var carriedIPv4: [NetworkAddress]? {
        guard bytes.count == 16 else { return nil }
        let b = bytes
        func zeros(_ range: Range<Int>) -> Bool { b[range].allSatisfy { $0 == 0 } }
        func v4(at start: Int, inverted: Bool = false) -> NetworkAddress {
            NetworkAddress(bytes: b[start..<start + 4].map { inverted ? ~$0 : $0 })
        }
        if zeros(0..<10), b[10] == 0xFF, b[11] == 0xFF { return [v4(at: 12)] }
        if zeros(0..<8), b[8] == 0xFF, b[9] == 0xFF, zeros(10..<12) { return [v4(at: 12)] }
        if zeros(0..<12) { return [v4(at: 12)] }
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xFF, b[3] == 0x9B, zeros(4..<12) { return [v4(at: 12)] }
        if b[0] == 0x20, b[1] == 0x02 { return [v4(at: 2)] }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] == 0x00 { return [v4(at: 4), v4(at: 12, inverted: true)] }
        return nil
    }

    private static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): false
        case (100, 64...127): false  // shared address space (CGNAT)
        case (169, 254): false
        case (172, 16...31): false
        case (192, 168): false
        case (192, 0) where b[2] == 0 || b[2] == 2: false
        case (192, 88) where b[2] == 99: false  // 6to4 relay anycast (deprecated)
        case (198, 18...19): false
        case (198, 51) where b[2] == 100: false
        case (203, 0) where b[2] == 113: false
        case (224...255, _): false  // multicast, reserved, broadcast
        default: true
        }
    }

    /// The addresses of a host name (or the literal itself), looked up with the system's
    /// resolver on NIO's thread pool.
    static func resolve(_ host: String) async throws -> [NetworkAddress] {
        if let literal = NetworkAddress(text: host) { return [literal] }
        return try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
                hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
            defer { freeaddrinfo(first) }
            var found: [NetworkAddress] = []
            var node: UnsafeMutablePointer<addrinfo>? = first
            while let current = node {
                if let address = current.pointee.ai_addr {
                    switch Int32(address.pointee.sa_family) {
                    case AF_INET:
                        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                            var value = pointer.pointee.sin_addr
                            found.append(NetworkAddress(bytes: withUnsafeBytes(of: &value) { Array($0) }))
                        }
                    case AF_INET6:
                        address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                            var value = pointer.pointee.sin6_addr
                            found.append(NetworkAddress(bytes: withUnsafeBytes(of: &value) { Array($0) }))
                        }
                    default: break
                    }
                }
                node = current.pointee.ai_next
            }
            return found
        }
    }
}
