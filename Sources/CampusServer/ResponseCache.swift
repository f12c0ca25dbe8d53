import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Storage

/// Keeps the bytes of timetable answers (lists, details, schedules, calendar feeds) until the
/// timetable changes. The timetable changes only by imports, which change its version in the
/// database; the cache compares versions at most once a second, so an import by another instance
/// or by the CLI is seen within a second, and one by this server at once (``invalidate()``).
final class ResponseCache: Sendable {
    struct Entry: Sendable {
        var version: String
        var headers: HTTPFields
        var body: ByteBuffer
        var etag: String
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var version: String?
        var checked: ContinuousClock.Instant?
    }

    private let state = NIOLockedValueBox(State())
    let database: Database
    /// The most entries kept; when full, the cache starts over.
    let capacity: Int
    static let recheckInterval: Duration = .seconds(1)

    init(database: Database, capacity: Int = 5000) {
        self.database = database
        self.capacity = capacity
    }

    /// The timetable's version, read from the database at most once a second.
    func currentVersion() async throws -> String {
        let now = ContinuousClock.now
        let cached = state.withLockedValue { state -> String? in
            guard let version = state.version, let checked = state.checked,
                now - checked < Self.recheckInterval
            else { return nil }
            return version
        }
        if let cached { return cached }
        let version = try await database.read { db in try await TimetableStore(db).version() }
        state.withLockedValue { state in
            if state.version != version { state.entries.removeAll(keepingCapacity: true) }
            state.version = version
            state.checked = now
        }
        return version
    }

    /// Makes the next lookup read the version again (after an import by this server).
    func invalidate() {
        state.withLockedValue { $0.checked = nil }
    }

    func entry(_ key: String, version: String) -> Entry? {
        state.withLockedValue { state in
            guard let entry = state.entries[key], entry.version == version else { return nil }
            return entry
        }
    }

    func store(_ entry: Entry, for key: String) {
        state.withLockedValue { state in
            guard state.version == entry.version else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = entry
        }
    }
}

/// Serves timetable GET requests from ``ResponseCache``, with an ETag so that clients can ask
/// "has it changed?" (`If-None-Match` → 304).
struct ResponseCacheMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext
    let cache: ResponseCache
    /// Today's date, part of the key: a schedule without dates is this week's.
    let today: @Sendable () -> String

    /// Paths whose answers depend only on the timetable, the query and the date.
    static func isCacheable(_ path: String) -> Bool {
        guard path.hasPrefix("/api/v1/") else { return false }
        let rest = path.dropFirst("/api/v1/".count)
        let parts = rest.split(separator: "/")
        guard let first = parts.first else { return false }
        switch first {
        case "faculties", "specialities", "departments", "lesson-types":
            return parts.count == 1
        case "groups", "teachers", "rooms":
            return parts.count <= 2 || (parts.count == 3 && (parts[2] == "schedule" || parts[2] == "calendar.ics"))
        default:
            return false
        }
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get, Self.isCacheable(request.uri.path) else {
            return try await next(request, context)
        }
        let version = try await cache.currentVersion()
        let key = "\(today()) \(request.uri.path)?\(request.uri.query ?? "")"
        if let entry = cache.entry(key, version: version) {
            return respond(entry, to: request)
        }
        let response = try await next(request, context)
        guard response.status == .ok else { return response }
        let collector = BodyCollector()
        try await response.body.write(CollectingWriter(collector: collector))
        let body = collector.buffer
        var headers = response.headers
        headers[.contentLength] = nil
        let digest = key.utf8.reduce(into: UInt64(14_695_981_039_346_656_037)) { $0 = ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        let entry = ResponseCache.Entry(
            version: version, headers: headers, body: body,
            etag: "\"\(version.prefix(8))-\(String(digest, radix: 36))\"")
        cache.store(entry, for: key)
        return respond(entry, to: request)
    }

    private func respond(_ entry: ResponseCache.Entry, to request: Request) -> Response {
        var headers = entry.headers
        headers[.eTag] = entry.etag
        headers[.cacheControl] = "no-cache"
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == entry.etag || $0.trimmingCharacters(in: .whitespaces) == "*"
        }) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers, body: ResponseBody())
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: entry.body))
    }
}

/// Collects a response body written by Hummingbird.
final class BodyCollector {
    var buffer = ByteBuffer()
}

struct CollectingWriter: ResponseBodyWriter {
    let collector: BodyCollector

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collector.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
