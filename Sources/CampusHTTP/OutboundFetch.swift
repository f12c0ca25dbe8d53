import AsyncHTTPClient
import Foundation
import InputRules
import Localization
import NIOCore
import NIOPosix

/// Every request Campus makes to another server (podcast feeds and their covers, the IIS sync)
/// goes through here, with the same three guards:
///
/// - **one total deadline** from the first DNS lookup to the last byte of the body (redirects
///   included), so a server that drips bytes cannot hold a request open;
/// - **a size limit** on the body;
/// - **only http(s), and only public addresses** unless the admin allows private ones: every
///   URL (the first and each redirect, followed here one by one) keeps ``OutboundURL``'s rule,
///   which judges an address literal in any spelling and the names of this machine; every other
///   host name is resolved first, every address it has must be public, and the connection goes
///   to the address that was checked (AsyncHTTPClient's `dnsOverride` keeps the host name for
///   `Host` and TLS), so a name that resolves differently a moment later cannot lead to the
///   loopback or a private network.
public struct OutboundFetch: Sendable {
    public enum Addresses: Sendable {
        /// Public addresses only (content from the outside: feeds, covers).
        case publicOnly
        /// Any address (a server the admin configured, or when the admin allows private ones).
        case any
    }

    /// Why a fetch failed, in words for the person who asked for it.
    public struct Failed: PhrasedError {
        /// The words, and what they were made from (a translation looks them up).
        public var phrase: Phrase

        /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
        /// are `values`, as for a ``FieldProblem``.
        public init(detail message: String, _ values: [String: String] = [:]) {
            self.phrase = Phrase(message, values)
        }

        public init(_ phrase: Phrase) { self.phrase = phrase }
    }

    public struct Fetched: Sendable {
        public var status: Int
        public var body: Data
        /// Where the body came from after redirects.
        public var url: String
    }

    public var addresses: Addresses
    public var deadline: Duration
    public var maximumBytes: Int
    public var maximumRedirects = 5
    public var headers: [(String, String)] = []

    public init(
        addresses: Addresses, deadline: Duration, maximumBytes: Int, maximumRedirects: Int = 5,
        headers: [(String, String)] = []
    ) {
        self.addresses = addresses
        self.deadline = deadline
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        self.headers = headers
    }

    /// GETs `url`, following redirects; any status is returned, a failure to connect, a broken
    /// rule or the deadline throws ``Failed``.
    public func get(_ url: String) async throws -> Fetched {
        try await withDeadline(url) { try await follow(url) }
    }

    /// POSTs `body` to `url` once (a redirect is returned, never followed), under the same rules
    /// and deadline as ``get(_:)``: a Web Push message to a push service.
    public func post(_ url: String, body: Data, headers: [(String, String)]) async throws -> Fetched {
        try await withDeadline(url) {
            let target = try await checked(url)
            var pinned: HTTPClient?
            if let (host, address) = target.pinned {
                var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
                configuration.dnsOverride = [host: address]
                pinned = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            }
            defer { if let pinned { Task { try? await pinned.shutdown() } } }
            var request = HTTPClientRequest(url: target.url.absoluteString)
            request.method = .POST
            for (name, value) in self.headers + headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: body))
            do {
                let response = try await (pinned ?? Self.sharedClient).execute(
                    request, timeout: .seconds(Int64(deadline.components.seconds) + 1))
                let answer = try await response.body.collect(upTo: maximumBytes)
                return Fetched(status: Int(response.status.code), body: Data(buffer: answer), url: url)
            } catch {
                if error is CancellationError { throw error }
                throw Failed(detail: "{url} cannot be read: {reason}", ["url": url, "reason": "\(error)"])
            }
        }
    }

    private func withDeadline(_ url: String, _ body: @escaping @Sendable () async throws -> Fetched) async throws
        -> Fetched
    {
        let deadline = self.deadline
        return try await withThrowingTaskGroup(of: Fetched.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw Failed(
                    detail: "{url} did not arrive within {seconds} s.",
                    ["url": url, "seconds": String(deadline.components.seconds)])
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
                            detail: "{url} redirects to “{location}”, which is not a URL.",
                            ["url": current, "location": String(location.prefix(200))])
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
                    throw Failed(
                        detail: "{url} is larger than {size}.",
                        ["url": current, "size": ByteCount(maximumBytes).description])
                }
                throw Failed(detail: "{url} cannot be read: {reason}", ["url": current, "reason": "\(error)"])
            }
        }
        throw Failed(
            detail: "{url} redirects more than {count} times.", ["url": start, "count": String(maximumRedirects)])
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

    /// The URL, if it may be fetched (``OutboundURL``'s rule); with the address to connect to
    /// when only public ones may: a name's, once every address it has is found public, or the
    /// address an odd spelling of a literal stands for (`0x5db8d822`).
    private func checked(_ text: String) async throws -> (url: URL, pinned: (String, String)?) {
        let target: OutboundURL
        do throws(OutboundURL.Refusal) {
            guard text.utf8.count <= 2000 else { throw OutboundURL.Refusal.notWebURL }
            target = try OutboundURL(text, allowPrivate: addresses == .any)
        } catch {
            switch error {
            case .notWebURL:
                throw Failed(detail: "“{text}” is not an http or https URL.", ["text": String(text.prefix(200))])
            case .privateHost(let host, let address?):
                throw Self.privateAddress(host, address)
            case .privateHost(let host, nil):
                throw Failed(
                    detail:
                        "{host} names this machine or a local network; Campus fetches only from public addresses unless an admin allows private ones (--allow-private-fetch).",
                    ["host": String(host.prefix(200))])
            }
        }
        guard addresses == .publicOnly else { return (target.url, nil) }
        let host = target.hostText
        if let address = target.host.address {
            return (target.url, host == address.text ? nil : (host, address.text))
        }
        let found = try await NetworkAddress.resolve(host)
        guard let first = found.first else { throw Failed(detail: "{host} cannot be found (DNS).", ["host": host]) }
        if let blocked = found.first(where: { !$0.isPublic }) { throw Self.privateAddress(host, blocked) }
        return (target.url, (host, first.text))
    }

    private static func privateAddress(_ host: String, _ address: NetworkAddress) -> Failed {
        Failed(
            detail:
                "{host} is {address}, a loopback, private or link-local address; Campus fetches only from public addresses unless an admin allows private ones (--allow-private-fetch).",
            ["host": String(host.prefix(200)), "address": address.text])
    }
}
