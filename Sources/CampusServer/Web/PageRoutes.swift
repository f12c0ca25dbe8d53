import CampusHTTP
import Hummingbird

/// Puts the web app's pages on the router and in the route table, as pages (errors are HTML
/// for a browser) with the body limit each declares.
struct PageRoutes {
    let router: Router<CampusRequestContext>
    let routes: RouteTable

    typealias Handler = @Sendable (Request, CampusRequestContext) async throws -> Response

    func get(_ path: String, kind: RouteProperties.Kind = .page, _ handler: @escaping Handler) {
        router.get(RouterPath(path), use: handler)
        routes.add(.get, path, RouteProperties(kind: kind))
    }

    func post(_ path: String, bodyLimit: Int = RouteProperties.defaultBodyLimit, _ handler: @escaping Handler) {
        router.post(RouterPath(path), use: handler)
        routes.add(.post, path, RouteProperties(kind: .page, bodyLimit: bodyLimit))
    }
}
