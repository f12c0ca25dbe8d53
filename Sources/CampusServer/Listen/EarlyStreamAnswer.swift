import CampusHTTP
import HTTPTypes
import Hummingbird

/// A GET of `/api/v1/media/{id}/stream` answered before the router (``EarlyAnswerResponder``):
/// a player asks for range after range of one item, and the router and the middleware cost a
/// small range a quarter of its time (docs/BENCHMARKS.md). Only paths the router matched to the
/// stream before are known (``KnownPaths``, written by ``MediaStreamMiddleware``); the
/// answer is the middleware's own (``MediaStreamMiddleware/original(_:id:request:context:)``).
/// A query (a feed's key, a transcode), credentials that are not a signed-in account's, an item
/// without a local file, or any error leave the request to the router, which answers it the usual way.
struct EarlyStreamAnswer: EarlyAnswer {
    let media: MediaStreamMiddleware
    let scopes: RequestScopeMiddleware
    let route = "/api/v1/media/{mediaId}/stream"

    func answer(_ request: Request, context: CampusRequestContext) async -> Response? {
        guard request.uri.query?.isEmpty ?? true, let id = media.paths.value(of: request.uri.path),
            request.headers[.range].map({ $0.utf8.count <= MediaStreamMiddleware.rangeLimit }) ?? true,
            await signedIn(request, context: context),
            let source = try? await media.sources.source(id, database: media.services.database),
            let file = source.0,
            var response = try? await media.original(file, id: id, request: request, context: context)
        else { return nil }
        SecurityHeadersMiddleware.addBaseHeaders(to: &response.headers)
        return response
    }

    /// Whether the request's credentials are a signed-in account's, as the router's route asks
    /// (``APIHandler/requireUser()`` in the request's scope).
    func signedIn(_ request: Request, context: CampusRequestContext) async -> Bool {
        await RequestScope.$current.withValue(scopes.scope(of: request, context: context)) {
            (try? await APIHandler(services: media.services).requireUser()) != nil
        }
    }
}
