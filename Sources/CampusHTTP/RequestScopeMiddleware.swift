import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Logging
import NIOCore

/// Makes the request's credentials and address available to handlers (see ``RequestScope``).
public struct RequestScopeMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext
    let trustForwardedFor: Bool

    public init(trustForwardedFor: Bool) { self.trustForwardedFor = trustForwardedFor }

    public func handle(
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
            // Split on blanks without Foundation (its trimming bridges through NSString, a cost
            // every signed-in API request paid).
            let parts = authorization.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                bearer = String(parts[1])
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
            ifNoneMatch: request.headers[.ifNoneMatch],
            acceptLanguage: request.headers[.acceptLanguage])
        return try await RequestScope.$current.withValue(scope) {
            try await next(request, context)
        }
    }
}
