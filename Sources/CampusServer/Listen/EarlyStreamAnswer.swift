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
    let route = "/api/v1/media/{mediaId}/stream"

    func answer(_ request: Request, context: CampusRequestContext) async -> Response? {
        guard request.uri.query?.isEmpty ?? true, let id = media.paths.value(of: request.uri.path),
            request.headers[.range].map({ $0.utf8.count <= 100 }) ?? true, await signedIn(request),
            let source = try? await media.sources.source(id, database: media.services.database),
            let file = source.0,
            var response = try? await media.original(file, id: id, request: request, context: context)
        else { return nil }
        SecurityHeadersMiddleware.addBaseHeaders(to: &response.headers)
        return response
    }

    /// Whether the request's credentials are a signed-in account's, read as
    /// ``APIHandler/requireUser()`` reads a GET's: the bearer token if there is one, else the
    /// session cookie.
    func signedIn(_ request: Request) async -> Bool {
        let accounts = media.services.accounts
        if let token = request.headers[.authorization].flatMap(RequestScopeMiddleware.bearerToken) {
            return (try? await accounts.authenticate(token: token)) != nil
        }
        if let cookie = request.cookies[CookieName.session]?.value {
            return (try? await accounts.authenticate(token: cookie)) != nil
        }
        return false
    }
}
