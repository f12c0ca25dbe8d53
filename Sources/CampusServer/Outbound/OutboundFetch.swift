import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// Every request Campus makes to another server (podcast feeds and their covers, the IIS sync)
/// goes through here, with the same three guards:
///
/// - **one total deadline** from the first DNS lookup to the last byte of the body (redirects
///   included), so a server that drips bytes cannot hold a request open;
/// - **a size limit** on the body;
/// - **only http(s), and only public addresses** unless the admin allows private ones: every
///   host (of the URL and of each redirect, followed here one by one) is resolved first, every
///   address it has must be public, and the connection goes to the address that was checked
///   (AsyncHTTPClient's `dnsOverride` keeps the host name for `Host` and TLS), so a name that
///   resolves differently a moment later cannot lead to the loopback or a private network.
struct OutboundFetch: Sendable {
    enum Addresses: Sendable {
        /// Public addresses only (content from the outside: feeds, covers).
        case publicOnly
        /// Any address (a server the admin configured, or when the admin allows private ones).
        case any
    }

    /// Why a fetch failed, in words for the person who asked for it.
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    struct Fetched: Sendable {
        var status: Int
        var body: Data
        /// Where the body came from after redirects.
        var url: String
    }

    var addresses: Addresses
    var deadline: Duration
    var maximumBytes: Int
    var maximumRedirects = 5
    var headers: [(String, String)] = []

    /// GETs `url`, following redirects; any status is returned, a failure to connect, a broken
    /// rule or the deadline throws ``Failed``.
    func get(_ url: String) async throws -> Fetched {
        let deadline = self.deadline
        return try await withThrowingTaskGroup(of: Fetched.self) { group in
            group.addTask { try await follow(url) }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw Failed(description: "\(url) did not arrive within \(deadline.components.seconds) s.")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    private func follow(_ start: String) async throws -> Fetched {
        var current = start
        for _ in 0...maximumRedirects {
            let target = try await checked(current)
            // A checked public address gets a client of its own that connects to it; other
            // fetches share one client (and its open connections).
            var pinned: HTTPClient?
            if let (host, address) = target.pinned {
                var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
                configuration.dnsOverride = [host: address]
                pinned = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            }
            let client = pinned ?? Self.sharedClient
            do {
                let fetched = try await fetchOnce(target.url, client: client)
                try? await pinned?.shutdown()
                if [301, 302, 303, 307, 308].contains(fetched.status), let location = fetched.location {
                    guard let next = URL(string: location, relativeTo: target.url)?.absoluteURL.absoluteString else {
                        throw Failed(
                            description: "\(current) redirects to “\(location.prefix(200))”, which is not a URL.")
                    }
                    current = next
                    continue
                }
                return Fetched(status: fetched.status, body: fetched.body, url: current)
            } catch {
                try? await pinned?.shutdown()
                if let failed = error as? Failed { throw failed }
                if error is CancellationError { throw error }
                if let client = error as? HTTPClientError, client == .cancelled { throw CancellationError() }
                if error is NIOTooManyBytesError {
                    throw Failed(description: "\(current) is larger than \(ByteCount(maximumBytes)).")
                }
                throw Failed(description: "\(current) cannot be read: \(error)")
            }
        }
        throw Failed(description: "\(start) redirects more than \(maximumRedirects) times.")
    }

    /// The client of fetches that need no address of their own; it lives as long as the process.
    private static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    private func fetchOnce(_ url: URL, client: HTTPClient) async throws -> (status: Int, body: Data, location: String?)
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(Int64(deadline.components.seconds) + 1))
        let status = Int(response.status.code)
        if (300..<400).contains(status) {
            return (status, Data(), response.headers.first(name: "location"))
        }
        let body = try await response.body.collect(upTo: maximumBytes)
        return (status, Data(buffer: body), nil)
    }

    /// The URL, if it may be fetched; with the address to connect to when only public ones may.
    private func checked(_ text: String) async throws -> (url: URL, pinned: (String, String)?) {
        guard text.utf8.count <= 2000, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw Failed(description: "“\(text.prefix(200))” is not an http or https URL.")
        }
        guard addresses == .publicOnly else { return (url, nil) }
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let found = try await NetworkAddress.resolve(bareHost)
        guard let first = found.first else { throw Failed(description: "\(host) cannot be found (DNS).") }
        if let blocked = found.first(where: { !$0.isPublic }) {
            throw Failed(
                description:
                    "\(host) is \(blocked.text), a loopback, private or link-local address; Campus fetches only from "
                    + "public addresses unless an admin allows private ones (--allow-private-fetch).")
        }
        return (url, NetworkAddress(text: bareHost) == nil ? (bareHost, first.text) : nil)
    }
}

/// An IPv4 or IPv6 address, and whether it is public.
struct NetworkAddress: Sendable, Equatable {
    /// 4 or 16 bytes.
    var bytes: [UInt8]

    /// Parses an address literal (`192.0.2.1`, `2001:db8::1`); nil for a host name.
    init?(text: String) {
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

    var text: String {
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
    var isPublic: Bool {
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
    static func isPrivateName(_ host: String) -> Bool {
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
