import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOCore

/// A GET answered from ``ResponseCache`` before the router and the middleware: the cache holds
/// only answers of routes marked `cached` (``ResponseCacheMiddleware`` stores them after the
/// router matched), so a hit needs no matching of its own.
///
/// A hit is answered at once, on the connection's event loop (``ImmediateAnswer``), when the
/// data's version was read within the last second: the head and the body leave in one write, and
/// the gzip form, made the first time a client asks for it, is kept with the answer. Otherwise
/// (the version is due, a large body not compressed yet) the hit is answered early
/// (``EarlyAnswerResponder``), which reads the version and compresses as every answer is.
public struct CachedAnswer: ImmediateAnswer {
    let cache: ResponseCache
    let today: @Sendable () -> String
    public let route = "cached"

    public init(cache: ResponseCache, today: @escaping @Sendable () -> String) {
        self.cache = cache
        self.today = today
    }

    public func answer(_ request: Request, context: CampusRequestContext) async -> Response? {
        // Only a request whose answer is kept asks for the version (which may be read from the
        // database): no other GET (`/health` among them) waits on the database here.
        guard !cache.isEmpty else { return nil }
        let key = cache.key(request, today: today())
        guard cache.holds(key), let version = try? await cache.currentVersion(),
            let entry = cache.entry(key, version: version)
        else { return nil }
        return entry.response(to: request)
    }

    /// Any GET while something is kept; the key is made from the request.
    public func claim(_ head: HTTPRequest) -> Bool? { cache.isEmpty ? nil : true }

    public func immediateAnswer(_ claim: Bool, request: Request, context: CampusRequestContext)
        -> ImmediateResponse?
    {
        let key = cache.key(request, today: today())
        guard let version = cache.checkedVersion(), let entry = cache.entry(key, version: version) else { return nil }
        return cache.immediateResponse(entry, key: key, to: request)
    }
}

extension ResponseCache {
    /// A kept answer (`entry`, under `key`) to `request`, made at once: what
    /// ``CompressingResponder`` does to an early answer, with the kept gzip form; nil when the
    /// body is too large to compress on the event loop and has no gzip form yet.
    func immediateResponse(_ entry: Entry, key: String, to request: Request) -> ImmediateResponse? {
        let gzip = ResponseCompression.acceptsGzip(request.headers)
        var conditions = request.headers
        if gzip { _ = ResponseCompression.unmarkConditions(&conditions) }
        var answer = entry.answer(to: conditions)
        if entry.compressible, answer.status == .ok, gzip,
            ResponseCompression.compresses(length: answer.body.readableBytes, headers: answer.headers)
        {
            guard let gzipped = gzipped(entry, key: key) else { return nil }
            return ImmediateResponse(head: HTTPResponse(status: .ok, headerFields: gzipped.headers), body: gzipped.body)
        }
        if answer.status != .ok { answer.headers[.contentLength] = "0" }
        return ImmediateResponse(
            head: HTTPResponse(status: answer.status, headerFields: answer.headers), body: answer.body)
    }
}

extension ResponseCache.Entry {
    /// The kept answer's status, headers and body, or 304 when the client has it
    /// (`If-None-Match`, or without it `If-Modified-Since`, as calendar apps ask).
    func answer(to request: HTTPFields) -> (status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer) {
        let unchanged: Bool =
            if let match = request[.ifNoneMatch] {
                EntityTag.matches(match, etag)
            } else if let since = request[.ifModifiedSince].flatMap(HTTPDate.date) {
                modified <= since
            } else {
                false
            }
        if unchanged {
            var headers = okHeaders
            headers[.contentType] = nil
            headers[.contentLength] = nil
            return (.notModified, headers, ByteBuffer())
        }
        return (.ok, okHeaders, body)
    }

    /// The kept answer as a response (``answer(to:)``).
    func response(to request: Request) -> Response {
        let answer = answer(to: request.headers)
        return Response(status: answer.status, headers: answer.headers, body: ResponseBody(byteBuffer: answer.body))
    }
}
