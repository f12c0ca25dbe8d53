import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What handlers that sit behind the generated OpenAPI code need to know about the request they
/// serve. The generated handlers see only the operation's input, so ``RequestScopeMiddleware``
/// makes this available as a task-local value for the duration of the request.
struct RequestScope: Sendable {
    var method: HTTPRequest.Method
    var path: String
    /// The client's address: the peer, or the first `X-Forwarded-For` entry behind a trusted proxy.
    var address: String
    var userAgent: String?
    var bearerToken: String?
    var sessionCookie: String?
    var csrfCookie: String?
    var csrfHeader: String?
    var ifNoneMatch: String?

    @TaskLocal static var current: RequestScope?

    /// Whether the method changes data, so that cookie-authenticated requests need a CSRF token.
    var isUnsafeMethod: Bool {
        ![.get, .head, .options].contains(method)
    }
}
