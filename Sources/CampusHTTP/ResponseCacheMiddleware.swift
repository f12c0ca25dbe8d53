import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOCore

/// Serves the GET requests of routes marked `cached` (``RouteProperties/cached``) from
/// ``ResponseCache``: a hit answers at once, without the middleware after this one or the
/// handler (its response was made by them and keeps their headers); a miss goes on, and a 200 is
/// kept. Answers carry an ETag, so that clients can ask "has it changed?" (`If-None-Match` → 304).
///
/// Hits are served before routing by ``CachedAnswer``; this middleware stores what the
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
        let today = today()
        let response = try await next(request, context)
        guard response.status == .ok else { return response }
        let body = try await BodyCollector.collect(response.body)
        var headers = response.headers
        headers[.contentLength] = nil
        return cache.keep(body, headers: headers, version: version, for: request, today: today)
    }
}

extension ResponseCache {
    /// Keeps a 200's body and headers as the answer to `request` (tagged with the body's digest),
    /// and returns the kept answer (a 304 when the client has it).
    public func keep(_ body: ByteBuffer, headers: HTTPFields, version: String, for request: Request, today: String)
        -> Response
    {
        stored(body, headers: headers, version: version, key: key(request, today: today)).response(to: request)
    }

    /// Keeps `body` as ``keep(_:headers:version:for:today:)`` does and answers `request` with it
    /// at once, as ``CachedAnswer`` answers a hit (nil as it would be: a large body not compressed
    /// yet, which the router's answer then finds kept).
    public func keepImmediately(
        _ body: ByteBuffer, headers: HTTPFields, version: String, for request: Request, today: String
    ) -> ImmediateResponse? {
        let key = key(request, today: today)
        return immediateResponse(stored(body, headers: headers, version: version, key: key), key: key, to: request)
    }

    /// The entry of `body` (tagged with its digest), stored under `key`.
    private func stored(_ body: ByteBuffer, headers: HTTPFields, version: String, key: String) -> Entry {
        let entry = Entry(version: version, headers: headers, body: body, etag: ContentTag.of(body))
        store(entry, for: key)
        return entry
    }
}
