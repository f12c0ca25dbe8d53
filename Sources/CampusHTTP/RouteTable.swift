import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// What the HTTP plumbing needs to know about a route, declared where the route is declared (an
/// operation's `x-campus-…` extensions in openapi.yaml, or a page's registration): middleware
/// asks the matched route instead of looking at the path.
public struct RouteProperties: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// JSON in and out: errors are problem documents.
        case api
        /// A web page: a browser gets errors as an HTML page.
        case page
        /// A static file.
        case file
    }

    public var kind: Kind
    /// The largest request body, in bytes.
    public var bodyLimit: Int
    /// Whether the answer depends only on the timetable, the query and the date, so that
    /// ``ResponseCache`` keeps it (`x-campus-cache: timetable`).
    public var cached: Bool
    /// The fast operation that answers this route before its handler (`x-campus-fast-path`).
    public var fastPath: FastOperationName?

    public static let defaultBodyLimit = 1 << 20

    public init(
        kind: Kind, bodyLimit: Int = Self.defaultBodyLimit, cached: Bool = false, fastPath: FastOperationName? = nil
    ) {
        self.kind = kind
        self.bodyLimit = bodyLimit
        self.cached = cached
        self.fastPath = fastPath
    }
}

/// Every route the server has, by method and path template (`/api/v1/groups/{name}`), with its
/// properties. The router matches paths; this table is asked about the route it matched
/// (Hummingbird's `endpointPath` is the template), and fills the gaps: a path that exists with
/// other methods answers 405 with `Allow`.
public final class RouteTable: Sendable {
    private let routes = NIOLockedValueBox<[String: RouteProperties]>([:])
    private let methods = NIOLockedValueBox<[String: Set<HTTPRequest.Method>]>([:])

    public init() {}

    /// Records a route; parameters may be written `:name` or `{name}`.
    public func add(_ method: HTTPRequest.Method, _ path: String, _ properties: RouteProperties) {
        let template = Self.template(path)
        routes.withLockedValue { $0["\(method.rawValue) \(template)"] = properties }
        methods.withLockedValue { $0[template, default: []].insert(method) }
    }

    /// The properties of the route the router matched (HEAD asks GET's).
    public func properties(_ method: HTTPRequest.Method, template: String?) -> RouteProperties? {
        guard let template else { return nil }
        let method = method == .head ? .get : method
        return routes.withLockedValue { $0["\(method.rawValue) \(template)"] }
    }

    /// Every template with the methods it answers.
    public var templates: [String: Set<HTTPRequest.Method>] { methods.withLockedValue { $0 } }

    /// `/a/:b/c` → `/a/{b}/c`, the form of Hummingbird's `endpointPath` and of openapi.yaml.
    static func template(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map { part in
            part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The methods a path that does not answer them says 405 to: HTTP's usual ones and QUERY
    /// (a method the router has no entry for at all is 404).
    public static let refusedMethods: [HTTPRequest.Method] =
        [
            .get, .post, .put, .patch, .delete, .options, .trace,
        ] + (HTTPRequest.Method("QUERY").map { [$0] } ?? [])
}

/// Looks up the properties of the route the router matched and puts them in the context, where
/// the middleware after it reads them.
public struct RouteLookupMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext
    let routes: RouteTable

    public init(routes: RouteTable) { self.routes = routes }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.route = routes.properties(request.method, template: context.endpointPath)
        return try await next(request, context)
    }
}
