import CompressNIO
import Crypto
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore

/// Keeps the bytes of answers that depend only on a version of the data (the timetable: lists,
/// details, schedules, calendar feeds), the query and the date, until that version changes. The
/// version comes from the database (every import changes it); the cache compares it at most once
/// a second, so an import by another instance or by the CLI is seen within a second, and one by
/// this server at once (``invalidate()``).
public final class ResponseCache: Sendable {
    struct Entry: Sendable {
        var version: String
        var body: ByteBuffer
        var etag: String
        /// When the answer was made, to the second (`Last-Modified`: it stays until the data's
        /// version or the day changes).
        var modified = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        /// The headers of a 200 that carries `body` (with its tag, `Last-Modified` and length):
        /// made once, so that an answer adds only the `Date` and `Server` of every answer.
        var okHeaders: HTTPFields
        /// The body compressed with gzip and the headers of a 200 that carries it, once a client
        /// that accepts it has asked for it at once (``CachedAnswer``).
        var gzipped: (body: ByteBuffer, headers: HTTPFields)?

        /// Whether the answer's type is one sent compressed (``ResponseCompression``): then its
        /// headers say `Vary: Accept-Encoding`, as every answer of that type does.
        var compressible: Bool

        init(version: String, headers: HTTPFields, body: ByteBuffer, etag: String) {
            self.version = version
            var headers = headers
            compressible = ResponseCompression.vary(status: .ok, headers: &headers)
            self.body = body
            self.etag = etag
            headers[.eTag] = etag
            headers[.lastModified] = HTTPDate.text(modified)
            headers[.cacheControl] = "no-cache"
            headers[.contentLength] = String(body.readableBytes)
            self.okHeaders = headers
        }
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var version: String?
        var checked: ContinuousClock.Instant?

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
    }

    private let state = NIOLockedValueBox(State())
    /// Reads the version of the data the answers are made of.
    let readVersion: @Sendable () async throws -> String
    /// The most entries and bytes kept (counted as ``cost(of:key:)`` does); when either is
    /// reached, the cache starts over. An answer bigger than a sixteenth of the bytes is not kept.
    let capacity: Int
    let maximumBytes: Int
    /// The query parameters the cached operations know: only these are part of a key, so that a
    /// made-up parameter neither makes a new entry nor flushes the others.
    let keyParameters: Set<Substring>
    static let recheckInterval: Duration = .seconds(1)

    public init(
        capacity: Int = 5000, maximumBytes: Int = 64 << 20, keyParameters: Set<String> = [],
        version: @escaping @Sendable () async throws -> String
    ) {
        self.readVersion = version
        self.capacity = capacity
        self.maximumBytes = maximumBytes
        self.keyParameters = Set(keyParameters.map { Substring($0) })
    }

    /// The timetable's version, read from the database at most once a second.
    public func currentVersion() async throws -> String {
        let now = ContinuousClock.now
        let cached = state.withLockedValue { state -> String? in
            guard let version = state.version, let checked = state.checked,
                now - checked < Self.recheckInterval
            else { return nil }
            return version
        }
        if let cached { return cached }
        let version = try await readVersion()
        state.withLockedValue { state in
            if state.version != version { state.removeAll() }
            state.version = version
            state.checked = now
        }
        return version
    }

    /// The version when it was read within the last second, without reading it; nil when it
    /// is due to be read again (an answer made at once cannot wait for the database).
    public func checkedVersion(now: ContinuousClock.Instant = .now) -> String? {
        state.withLockedValue { state in
            guard let version = state.version, let checked = state.checked, now - checked < Self.recheckInterval
            else { return nil }
            return version
        }
    }

    /// Makes the next lookup read the version again (after an import by this server).
    public func invalidate() {
        state.withLockedValue { $0.checked = nil }
    }

    /// The key of a request's answer: today's date (a schedule without dates is this week's),
    /// the path and the known parameters of the query, in order (the query as it came when it is
    /// already so, which is what clients send).
    func key(_ request: Request, today: String) -> String {
        "\(today) \(request.uri.path)?\(Self.knownQuery(request.uri.query ?? "", keeping: keyParameters))"
    }

    /// `query` with only the parameters named in `known`, sorted by name (stable for repeats).
    /// One pass over the query's bytes (no grapheme breaking: `&` and `=` are ASCII); a handful of
    /// parameters are put in order by insertion.
    static func knownQuery(_ query: String, keeping known: Set<Substring>) -> Substring {
        guard !query.isEmpty else { return "" }
        if isKnownAndInOrder(query, known) { return Substring(query) }
        var kept: [(name: Substring, part: Substring)] = []
        forEachPart(of: query) { name, part in
            guard !part.isEmpty, known.contains(name) else { return true }
            var at = kept.count
            while at > 0, name.utf8.lexicographicallyPrecedes(kept[at - 1].name.utf8) { at -= 1 }
            kept.insert((name, part), at: at)
            return true
        }
        return Substring(kept.map(\.part).joined(separator: "&"))
    }

    /// Whether every parameter of `query` is a known one and they come sorted by name, as
    /// clients send them: then the query is its own key, found without making any array.
    private static func isKnownAndInOrder(_ query: String, _ known: Set<Substring>) -> Bool {
        var previous: Substring?
        return forEachPart(of: query) { name, part in
            guard !part.isEmpty, known.contains(name),
                !(previous.map { name.utf8.lexicographicallyPrecedes($0.utf8) } ?? false)
            else { return false }
            previous = name
            return true
        }
    }

    /// Calls `body` with each `&`-separated part of `query` and its name (up to `=`), while it
    /// returns true; whether it always did.
    @discardableResult
    private static func forEachPart(of query: String, _ body: (_ name: Substring, _ part: Substring) -> Bool) -> Bool {
        let utf8 = query.utf8
        var start = utf8.startIndex
        while true {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            let nameEnd = utf8[start..<end].firstIndex(of: UInt8(ascii: "=")) ?? end
            guard body(query[start..<nameEnd], query[start..<end]) else { return false }
            guard end < utf8.endIndex else { return true }
            start = utf8.index(after: end)
        }
    }

    /// How many answers are kept.
    public var count: Int { state.withLockedValue { $0.entries.count } }

    /// Whether nothing is kept (then a request need not ask for the version).
    var isEmpty: Bool { state.withLockedValue { $0.entries.isEmpty } }

    /// Whether an answer (of any version) is kept under `key`.
    func holds(_ key: String) -> Bool { state.withLockedValue { $0.entries[key] != nil } }

    func entry(_ key: String, version: String) -> Entry? {
        state.withLockedValue { state in
            guard let entry = state.entries[key], entry.version == version else { return nil }
            return entry
        }
    }

    /// What an entry costs besides its body and key: the entry, its headers and the table's slot.
    static let entryOverhead = 512

    /// What `entry` under `key` takes of the memory, as the allocator sees it: the body's storage
    /// (not just its bytes), the key, the tag and the rest of the entry.
    static func cost(of entry: Entry, key: String) -> Int {
        entry.body.capacity + (entry.gzipped?.body.capacity ?? 0) + key.utf8.count + entry.etag.utf8.count
            + entryOverhead
    }

    /// The largest body compressed on the connection's event loop (about a millisecond of
    /// gzip); a larger one is compressed by the routed answer, off the event loop.
    static let largestCompressedAtOnce = 256 << 10

    /// The gzip form of the answer kept under `key`: kept with it since it was first asked for,
    /// else made now and kept (nil for a body over ``largestCompressedAtOnce``).
    func gzipped(_ entry: Entry, key: String) -> (body: ByteBuffer, headers: HTTPFields)? {
        if let gzipped = entry.gzipped { return gzipped }
        guard entry.body.readableBytes <= Self.largestCompressedAtOnce else { return nil }
        var body = entry.body
        guard let gzipped = try? body.compress(with: .gzip()) else { return nil }
        var headers = entry.okHeaders
        ResponseCompression.markCompressed(&headers, length: gzipped.readableBytes)
        state.withLockedValue { state in
            guard var kept = state.entries[key], kept.version == entry.version, kept.etag == entry.etag,
                kept.gzipped == nil
            else { return }
            let before = Self.cost(of: kept, key: key)
            kept.gzipped = (gzipped, headers)
            let after = Self.cost(of: kept, key: key)
            guard state.bytes + after - before <= maximumBytes else { return }
            state.bytes += after - before
            state.entries[key] = kept
        }
        return (gzipped, headers)
    }

    func store(_ entry: Entry, for key: String) {
        guard entry.body.readableBytes <= maximumBytes / 16 else { return }
        var entry = entry
        // A body collected as it was written sits in storage grown by doubling: it is kept in
        // storage of its own size (NIO rounds that up to a power of two, which the cost counts).
        if entry.body.capacity > entry.body.readableBytes {
            var exact = ByteBufferAllocator().buffer(capacity: entry.body.readableBytes)
            exact.writeImmutableBuffer(entry.body)
            entry.body = exact
        }
        let cost = Self.cost(of: entry, key: key)
        state.withLockedValue { state in
            guard state.version == entry.version else { return }
            if state.entries.count >= capacity || state.bytes + cost > maximumBytes { state.removeAll() }
            state.bytes += cost - (state.entries[key].map { Self.cost(of: $0, key: key) } ?? 0)
            state.entries[key] = entry
        }
    }
}
