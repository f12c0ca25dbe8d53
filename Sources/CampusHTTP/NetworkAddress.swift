import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// An IPv4 or IPv6 address, and whether it is public.
public struct NetworkAddress: Sendable, Equatable {
    /// 4 or 16 bytes.
    var bytes: [UInt8]

    /// Parses an address literal (`192.0.2.1`, `2001:db8::1`); nil for a host name.
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

    /// Not loopback, private (RFC 1918, unique local), link-local, shared (CGNAT), multicast,
    /// reserved or unspecified; IPv4 inside IPv6 (mapped, NAT64) is judged as IPv4.
    public var isPublic: Bool {
        if bytes.count == 4 { return Self.isPublicV4(bytes) }
        guard bytes.count == 16 else { return false }
        let b = bytes
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF {
            return Self.isPublicV4(Array(b[12...]))
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B { return Self.isPublicV4(Array(b[12...])) }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
        if b[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local
        if b[0] == 0xFF { return false }  // multicast
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return false }  // documentation
        return true
    }

    private static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): false
        case (100, 64...127): false  // shared address space (CGNAT)
        case (169, 254): false
        case (172, 16...31): false
        case (192, 168): false
        case (192, 0) where b[2] == 0 || b[2] == 2: false
        case (198, 18...19): false
        case (198, 51) where b[2] == 100: false
        case (203, 0) where b[2] == 113: false
        case (224...255, _): false  // multicast, reserved, broadcast
        default: true
        }
    }

    /// Whether a host, as written, names this machine or a private network: `localhost` and its
    /// subdomains, or an address literal that is not public. (A name that resolves to such an
    /// address is found when it is fetched.)
    public static func isPrivateName(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let name = bare.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        return NetworkAddress(text: bare).map { !$0.isPublic } ?? false
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
