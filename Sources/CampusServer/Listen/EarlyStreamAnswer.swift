import CampusHTTP
import HTTPTypes
import Hummingbird
import NIOCore

/// A GET of `/api/v1/media/{id}/stream` answered before the router (``EarlyAnswerResponder``):
/// a player asks for range after range of one item, and the router and the middleware cost a
/// small range a quarter of its time (docs/BENCHMARKS.md). Only paths the router matched to the
/// stream before are known (``KnownPaths``, written by ``MediaStreamFastPath``); the
/// answer is the middleware's own (``MediaStreamFastPath/original(_:id:request:context:)``).
/// A query (a feed's key, a transcode), credentials that are not a signed-in account's, an item
/// without a local file, or any error leave the request to the router, which answers it the usual way.
///
/// When the session and the item's file are in memory and the page cache holds the range's bytes,
/// the range is answered at once (``ImmediateAnswer``): the same answer, made on the connection's
/// event loop, its bytes sent from the page cache to the socket by the kernel (`sendfile`).
struct EarlyStreamAnswer: ImmediateAnswer {
    let media: MediaStreamFastPath
    let scopes: RequestScopeMiddleware
    let route = APIRoutes.mediaStream.pattern

    func answer(_ request: Request, context: CampusRequestContext) async -> Response? {
        guard let id = knownItem(request), await signedIn(request, context: context),
            let source = try? await media.sources.source(id, database: media.database),
            let file = source.0,
            var response = try? await media.original(file, id: id, request: request, context: context)
        else { return nil }
        SecurityHeadersMiddleware.addBaseHeaders(to: &response.headers)
        return response
    }

    /// The item of a path without a query that the router matched to the stream before.
    func claim(_ head: HTTPRequest) -> Int64? { head.path.flatMap(item(of:)) }

    /// The item of a request target (the path and any query, as the head has it) without a query
    /// whose path the router matched to the stream before.
    func item(of target: String) -> Int64? {
        guard !target.utf8.contains(UInt8(ascii: "?")) else { return nil }
        return media.paths.value(of: target)
    }

    func immediateAnswer(_ id: Int64, request: Request, context: CampusRequestContext) -> ImmediateResponse? {
        guard Self.acceptsRange(request.headers),
            RequestScope.$current.withValue(
                scopes.scope(of: request, context: context),
                operation: { media.authenticator.keptUser() != nil }),
            let source = media.sources.kept(id), let item = source.0,
            let answer = try? media.originalAnswer(item, id: id, request: request.head)
        else { return nil }
        var head = HTTPResponse(status: answer.status, headerFields: answer.headers)
        SecurityHeadersMiddleware.addBaseHeaders(to: &head.headerFields)
        guard let part = answer.part else { return ImmediateResponse(head: head, body: ByteBuffer()) }
        // A part up to a chunk: bytes the page cache holds go from it to the socket (`sendfile`);
        // where the kernel cannot say, they are read into memory at once. A larger part (a whole
        // file) is the router's, written a chunk at a time: one `sendfile` of 10 MB kept the event
        // loop from its other connections (a p99 of half a second beside nginx's 80 ms).
        guard part.count <= MediaStreamFastPath.chunkLength else { return nil }
        let (offset, count) = (part.lowerBound, Int64(part.count))
        if media.files.isCached(answer.file, offset: offset, count: count) == true {
            return ImmediateResponse(
                head: head,
                file: FilePart(descriptor: answer.file.descriptor, offset: offset, count: count, owner: answer.file))
        }
        guard let bytes = media.files.cachedBytes(answer.file, offset: offset, count: part.count)
        else { return nil }
        return ImmediateResponse(head: head, body: bytes)
    }

    /// The item of a path the router matched to the stream, for a request without a query and
    /// with a `Range` header the route accepts; nil for anything else.
    func knownItem(_ request: Request) -> Int64? {
        guard Self.acceptsRange(request.headers) else { return nil }
        return item(of: request.uri.string)
    }

    /// Whether the `Range` header, if there is one, is within the route's limit and printable
    /// ASCII (else the router's validation answers it, as openapi.yaml says: a byte that is not
    /// UTF-8 reaches here as U+FFFD).
    static func acceptsRange(_ headers: HTTPFields) -> Bool {
        headers[.range].map { range in
            range.utf8.count <= MediaStreamFastPath.rangeLimit && range.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        } ?? true
    }

    /// Whether the request's credentials are a signed-in account's, as the router's route asks
    /// (``APIHandler/requireUser()`` in the request's scope).
    func signedIn(_ request: Request, context: CampusRequestContext) async -> Bool {
        await RequestScope.$current.withValue(scopes.scope(of: request, context: context)) {
            (try? await media.authenticator.requireUser()) != nil
        }
    }
}
