import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import Storage

/// Serves timetable GET requests from ``ResponseCache`` before routing: a hit skips the router
/// and the middleware (its response was made by them and keeps their headers) but is logged and
/// counted like any request. A miss goes through the router, and a 200 is kept. Answers carry an
/// ETag, so that clients can ask "has it changed?" (`If-None-Match` → 304).
struct CachingResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == CampusRequestContext {
    typealias Context = CampusRequestContext
    let inner: Inner
    let cache: ResponseCache
    /// Today's date, part of the key: a schedule without dates is this week's.
    let today: @Sendable () -> String
    let hits = Counter(
        label: "hb.requests",
        dimensions: [("http.route", "cached"), ("http.request.method", "GET"), ("http.response.status_code", "200")])

    /// Paths whose answers depend only on the timetable, the query and the date.
    static func isCacheable(_ path: String) -> Bool {
        guard path.hasPrefix("/api/v1/") else { return false }
        let parts = path.utf8.dropFirst(8).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard let first = parts.first.map({ String(decoding: $0, as: UTF8.self) }) else { return false }
        switch first {
        case "faculties", "specialities", "departments", "lesson-types":
            return parts.count == 1
        case "groups", "teachers", "rooms":
            if parts.count <= 2 { return true }
            guard parts.count == 3 else { return false }
            let last = String(decoding: parts[2], as: UTF8.self)
            return last == "schedule" || last == "calendar.ics"
        default:
            return false
        }
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get, Self.isCacheable(request.uri.path),
            let version = try? await cache.currentVersion()
        else {
            return try await inner.respond(to: request, context: context)
        }
        let key = "\(today()) \(request.uri.path)?\(request.uri.query ?? "")"
        if let entry = cache.entry(key, version: version) {
            let start = ContinuousClock.now
            let response = respond(entry, to: request)
            hits.increment()
            RequestLogMiddleware.log(request, context, status: response.status.code, start: start)
            return response
        }
        let response = try await inner.respond(to: request, context: context)
        guard response.status == .ok else { return response }
        let collector = BodyCollector()
        try await response.body.write(CollectingWriter(collector: collector))
        var headers = response.headers
        headers[.contentLength] = nil
        let digest = collector.buffer.withUnsafeReadableBytes { SHA256.hash(data: $0) }
        let entry = ResponseCache.Entry(
            version: version, headers: headers, body: collector.buffer,
            etag: "\"\(digest.prefix(12).hexadecimal)\"")
        cache.store(entry, for: key)
        return respond(entry, to: request)
    }

    private func respond(_ entry: ResponseCache.Entry, to request: Request) -> Response {
        var headers = entry.headers
        headers[.eTag] = entry.etag
        headers[.cacheControl] = "no-cache"
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag == entry.etag || tag == "*"
            })
        {
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
