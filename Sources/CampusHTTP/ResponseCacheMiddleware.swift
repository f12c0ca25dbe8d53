import Crypto
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import Metrics
import NIOCore
import SharedHelpers

/// Serves the GET requests of routes marked `cached` (``RouteProperties/cached``) from
/// ``ResponseCache``: a hit answers at once, without the middleware after this one or the
/// handler (its response was made by them and keeps their headers); a miss goes on, and a 200 is
/// kept. Answers carry an ETag, so that clients can ask "has it changed?" (`If-None-Match` → 304).
///
/// Hits are served before routing by ``CachedAnswerResponder``; this middleware stores what the
/// routes marked `cached` answer.
public struct ResponseCacheMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext
    let cache: ResponseCache
    /// Today's date, part of the key: a schedule without dates is this week's.
    let today: @Sendable () -> String

    public init(cache: ResponseCache, today: @escaping @Sendable () -> String) {
        self.cache = cache
        self.today = today
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get, context.route?.cached == true, let version = try? await cache.currentVersion()
        else {
            return try await next(request, context)
        }
        let key = cache.key(request, today: today())
        let response = try await next(request, context)
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
        return entry.response(to: request)
    }
}

/// Answers a GET from ``ResponseCache`` before the router and the middleware: the cache holds
/// only answers of routes marked `cached` (``ResponseCacheMiddleware`` stores them after the
/// router matched), so a hit needs no matching of its own. A hit is logged and counted like any
/// request, on a counter made once: going through the router, the route lookup and Hummingbird's
/// metrics middleware (which makes a counter and a timer for every request) cost the cached
/// schedule a fifth to a half of its throughput (docs/BENCHMARKS.md).
public struct CachedAnswerResponder<Inner: HTTPResponder>: HTTPResponder
where Inner.Context == CampusRequestContext {
    public typealias Context = CampusRequestContext
    let inner: Inner
    let cache: ResponseCache
    let today: @Sendable () -> String
    let hits = Counter(
        label: "hb.requests",
        dimensions: [("http.route", "cached"), ("http.request.method", "GET"), ("http.response.status_code", "200")])

    public init(_ inner: Inner, cache: ResponseCache, today: @escaping @Sendable () -> String) {
        self.inner = inner
        self.cache = cache
        self.today = today
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get, !cache.isEmpty, let version = try? await cache.currentVersion(),
            let entry = cache.entry(cache.key(request, today: today()), version: version)
        else {
            return try await inner.respond(to: request, context: context)
        }
        let start = ContinuousClock.now
        let response = entry.response(to: request)
        hits.increment()
        RequestLogMiddleware.log(request, context, status: response.status.code, start: start)
        return response
    }
}

extension ResponseCache.Entry {
    /// The kept answer, or 304 when the client has it (`If-None-Match`).
    func response(to request: Request) -> Response {
        let entry = self
        var headers = entry.headers
        headers[.eTag] = entry.etag
        headers[.cacheControl] = "no-cache"
        if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, entry.etag) {
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
