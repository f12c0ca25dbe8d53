import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Logging
import NIOCore

/// Answers every error as a problem document (or, for a browser asking for a page, as an HTML
/// page). Errors that are not the client's doing become a 500 whose detail names the request id,
/// and are logged with everything known about them.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext
    let routes: RouteTable
    let htmlErrorPage: @Sendable (Problem, Request, Context) -> Response?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let redirect as Redirect {
            return .redirect(to: redirect.location, type: .normal)
        } catch {
            var problem: Problem
            if let known = Problem(describing: error) {
                problem = known
            } else {
                context.logger.error(
                    "unexpected error",
                    metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
                problem = Problem(
                    .internalServerError,
                    detail:
                        "Something went wrong on the server. It has been logged as request \(context.id); please try again."
                )
            }
            if problem.status == .notFound, context.endpointPath == "NotFound" {
                let allowed = routes.methods(forPath: request.uri.path)
                if !allowed.isEmpty && !allowed.contains(request.method) {
                    let names = allowed.map(\.rawValue).sorted().joined(separator: ", ")
                    problem = Problem(
                        .methodNotAllowed,
                        detail: "\(request.uri.path) answers \(names), not \(request.method.rawValue).",
                        headers: [.allow: names])
                } else {
                    problem.detail = "There is nothing at \(request.uri.path)."
                }
            }
            if wantsPage(request), let page = htmlErrorPage(problem, request, context) {
                return page
            }
            return problem.response(instance: request.uri.path)
        }
    }

    /// A browser navigating to a web page (not the API) gets an HTML error page.
    private func wantsPage(_ request: Request) -> Bool {
        let path = request.uri.path
        if path.hasPrefix("/api/") || path == "/health" || path == "/ready" || path == "/metrics" { return false }
        return request.headers[.accept]?.contains("text/html") ?? false
    }
}
