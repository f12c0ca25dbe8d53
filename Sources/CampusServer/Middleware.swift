import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Logging
import NIOCore

/// Logs one line per request when its response is ready: method, path (never the query, which
/// may hold a token), status, duration, client address and request id.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            Self.log(request, context, status: response.status.code, start: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            Self.log(request, context, status: status, start: start)
            throw error
        }
    }

    static func log(_ request: Request, _ context: Context, status: Int, start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)",
                "path": "\(request.uri.path)",
                "status": "\(status)",
                "duration_ms": "\(String(format: "%.2f", milliseconds))",
                "address": "\(context.remoteAddress?.ipAddress ?? "-")",
            ])
    }
}

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

/// Refuses a path that, percent-decoded, is not UTF-8 or holds a control character
/// (`/static/campus.js%00.html` would reach the file system as `campus.js`), before anything
/// looks at it: the router, the static files, the pages.
struct PathCheckMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard let decoded = path.removingPercentEncoding else {
            throw Problem.badRequest("The path is not percent-encoded UTF-8.")
        }
        if let control = TextRules.firstControl(in: decoded) {
            throw Problem.badRequest(
                "The path contains a control character (\(TextRules.codePoint(control))), which no page or file has.")
        }
        return try await next(request, context)
    }
}

/// Enforces the body limit of each request: at once from `Content-Length`, and while the body
/// streams in when the length is not declared.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext
    /// The limit for a path and method; the default is ``BodyLimits/json``.
    let limit: @Sendable (HTTPRequest.Method, String) -> Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let limit = self.limit(request.method, request.uri.path)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw Problem.tooLarge(limit: limit)
        }
        var request = request
        var context = context
        context.bodyLimit = limit
        let body = request.body
        request.body = RequestBody(asyncSequence: LimitedBody(base: body, limit: limit))
        return try await next(request, context)
    }
}

/// A request body that fails with 413 once more than `limit` bytes arrive.
struct LimitedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: RequestBody
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let limit: Int
        var seen = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let buffer = try await base.next() else { return nil }
            seen += buffer.readableBytes
            if seen > limit { throw Problem.tooLarge(limit: limit) }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit) }
}

/// Makes the request's credentials and address available to handlers (see ``RequestScope``).
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext
    let trustForwardedFor: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var address = context.remoteAddress?.ipAddress ?? "unknown"
        if trustForwardedFor, let forwarded = request.headers[.xForwardedFor] {
            if let first = forwarded.split(separator: ",").first?.trimmingCharacters(in: .whitespaces), !first.isEmpty {
                address = String(first.prefix(64))
            }
        }
        // Only a bearer token is ours; other schemes (a proxy's Basic auth, say) are not for us.
        var bearer: String?
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                bearer = String(parts[1]).trimmingCharacters(in: .whitespaces)
            }
        }
        let scope = RequestScope(
            method: request.method,
            path: request.uri.path,
            address: address,
            userAgent: request.headers[.userAgent],
            bearerToken: bearer,
            sessionCookie: request.cookies[CookieName.session]?.value,
            csrfCookie: request.cookies[CookieName.csrf]?.value,
            csrfHeader: request.headers[.xCSRFToken],
            ifNoneMatch: request.headers[.ifNoneMatch])
        return try await RequestScope.$current.withValue(scope) {
            try await next(request, context)
        }
    }
}

/// Headers that make browsers safer with every response, and the charset of text responses
/// (UTF-8) where the generated code leaves it out.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        if let type = response.headers[.contentType], type.hasPrefix("text/"), !type.contains("charset") {
            response.headers[.contentType] = type + "; charset=utf-8"
        }
        response.headers[.referrerPolicy] = "same-origin"
        if response.headers[.xFrameOptions] == nil { response.headers[.xFrameOptions] = "DENY" }
        if response.headers[.contentType]?.hasPrefix("text/html") == true,
            response.headers[.contentSecurityPolicy] == nil
        {
            response.headers[.contentSecurityPolicy] =
                "default-src 'self'; img-src 'self' data:; media-src 'self' blob:; style-src 'self'; script-src 'self'; "
                + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'"
        }
        return response
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xCSRFToken = Self("X-CSRF-Token")!
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
}

/// The generated OpenAPI code writes response header values percent-encoded (as the `simple`
/// style of URI templates does), which clients would take literally. This restores the headers
/// Campus declares in openapi.yaml to their plain values.
struct GeneratedHeadersMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext
    static let names: [HTTPField.Name] = [.eTag, .lastModified, .contentDisposition]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        for name in Self.names {
            if let value = response.headers[name], value.contains("%"), let plain = value.removingPercentEncoding {
                response.headers[name] = plain
            }
        }
        return response
    }
}
