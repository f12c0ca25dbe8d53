import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What handlers that sit behind the generated OpenAPI code need to know about the request they
/// serve. The generated handlers see only the operation's input, so ``RequestScopeMiddleware``
/// makes this available as a task-local value for the duration of the request.
public struct RequestScope: Sendable {
    public var method: HTTPRequest.Method
    public var path: String
    /// The client's address: the peer, or the first `X-Forwarded-For` entry behind a trusted proxy.
    public var address: String
    public var userAgent: String?
    public var bearerToken: String?
    public var sessionCookie: String?
    public var csrfCookie: String?
    public var csrfHeader: String?
    public var ifNoneMatch: String?
    /// `If-Modified-Since`, as sent (read with `HTTPDate`).
    public var ifModifiedSince: String? = nil
    /// The languages the client reads (`Accept-Language`), for problem details and mail.
    public var acceptLanguage: String? = nil

    @TaskLocal public static var current: RequestScope?

    /// Whether the method changes data, so that cookie-authenticated requests need a CSRF token.
    public var isUnsafeMethod: Bool {
        ![.get, .head, .options].contains(method)
    }

    /// The token a request signs in with: its bearer token, else the web app's session cookie
    /// (a bearer token outranks the cookie, even when it is unknown).
    public var signInToken: String? { bearerToken ?? sessionCookie }
}
