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
        try await RequestScope.$current.withValue(scope(of: request, context: context)) {
            try await next(request, context)
        }
    }

    /// The request's credentials and address (an early answer, which skips this middleware, reads
    /// them here too).
    public func scope(of request: Request, context: Context) -> RequestScope {
        var address = context.remoteAddress?.ipAddress ?? "unknown"
        if trustForwardedFor, let forwarded = request.headers[.xForwardedFor] {
            if let first = forwarded.split(separator: ",").first?.trimmingCharacters(in: .whitespaces), !first.isEmpty {
                address = String(first.prefix(64))
            }
        }
        // Only a bearer token is ours; other schemes (a proxy's Basic auth, say) are not for us.
        let bearer = request.headers[.authorization].flatMap(Self.bearerToken)
        return RequestScope(
            method: request.method,
            path: request.uri.path,
            address: address,
            userAgent: request.headers[.userAgent],
            bearerToken: bearer,
            sessionCookie: request.cookies[CookieName.session]?.value,
            csrfCookie: request.cookies[CookieName.csrf]?.value,
            csrfHeader: request.headers[.xCSRFToken],
            ifNoneMatch: request.headers[.ifNoneMatch],
            ifModifiedSince: request.headers[.ifModifiedSince],
            acceptLanguage: request.headers[.acceptLanguage])
    }

    /// The token of `Bearer <token>` (the scheme in any case, blanks around and between); nil
    /// for any other scheme or shape. Read from the bytes: splitting the header into characters
    /// was 1.5 % of a signed-in request's CPU.
    static func bearerToken(_ authorization: String) -> String? {
        let words = authorization.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        guard words.count == 2, words[0].count == 6,
            zip(words[0], "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        return String(Substring(words[1]))
    }
}
