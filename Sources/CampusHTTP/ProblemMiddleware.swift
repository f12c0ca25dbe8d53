import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Answers every error as a problem document (or, for a browser asking for a page, as an HTML
/// page). Errors that are not the client's doing become a 500 whose detail names the request id,
/// and are logged: by their words for the log (`logText`), which leave out what they carry of the
/// request (its headers, its body) or of a statement (its values), so that no token, password or
/// key reaches the log.
public struct ProblemMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext
    /// The problem a client caused, for the errors the server's own code throws; nil for errors
    /// that are the server's.
    let describe: @Sendable (any Error) -> Problem?
    let htmlErrorPage: @Sendable (Problem, Request, Context) -> Response?
    /// The problem in the client's language where its detail has a translation (`type` and
    /// `title` stay as they are: clients match on them).
    let localize: @Sendable (Problem, Request) -> Problem
    /// An error's words for the log, without any secret it carries.
    let logText: @Sendable (any Error) -> String

    public init(
        describe: @escaping @Sendable (any Error) -> Problem?,
        htmlErrorPage: @escaping @Sendable (Problem, Request, Context) -> Response?,
        localize: @escaping @Sendable (Problem, Request) -> Problem = { problem, _ in problem },
        logText: @escaping @Sendable (any Error) -> String = { "\(type(of: $0))" }
    ) {
        self.describe = describe
        self.htmlErrorPage = htmlErrorPage
        self.localize = localize
        self.logText = logText
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let redirect as Redirect {
            return .redirect(to: redirect.location, type: .normal)
        } catch {
            var problem: Problem
            if let known = error as? Problem ?? (error as? BrokenRequestBody)?.problem ?? describe(error) {
                problem = known
            } else {
                context.logger.error(
                    "unexpected error",
                    metadata: ["error": "\(logText(error))", "path": "\(LoggedPath.of(request, context))"])
                problem = Problem(
                    .internalServerError,
                    detail:
                        "Something went wrong on the server. It has been logged as request {id}; please try again.",
                    ["id": "\(context.id)"])
            }
            if problem.status == .notFound, context.endpointPath == "NotFound" {
                // The router found no route: the detail says so; status, type, title and headers stay.
                let nothing = Problem.notFound("There is nothing at {path}.", ["path": request.uri.path])
                problem.detail = nothing.detail
                problem.phrase = nothing.phrase
            }
            if wantsPage(request, context), let page = htmlErrorPage(problem, request, context) {
                return page
            }
            return localize(problem, request).response(instance: request.uri.path)
        }
    }

    /// A browser navigating to anything but the API gets an HTML error page.
    private func wantsPage(_ request: Request, _ context: Context) -> Bool {
        guard context.route?.kind != .api else { return false }
        return request.headers[.accept]?.contains("text/html") ?? false
    }
}

/// Sends the browser elsewhere (a page that needs login sends it to the login page).
public struct Redirect: Error, HTTPResponseError {
    public var location: String
    public init(to location: String) { self.location = location }
    public var status: HTTPResponse.Status { .seeOther }
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        .redirect(to: location, type: .normal)
    }
}
