import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Logging
import NIOCore

/// Refuses a path that, percent-decoded, is not UTF-8 or holds a control character
/// (`/static/campus.js%00.html` would reach the file system as `campus.js`), before a handler,
/// the static files or a page looks at it.
public struct PathCheckMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext

    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        // Most paths hold no escape: decoding (Foundation, through NSString) is then skipped.
        let decoded: String
        if path.utf8.contains(UInt8(ascii: "%")) {
            guard let plain = path.removingPercentEncoding else {
                throw Problem.badRequest("The path is not percent-encoded UTF-8.")
            }
            decoded = plain
        } else {
            decoded = path
        }
        if let control = TextRules.firstControl(in: decoded) {
            throw Problem.badRequest(
                "The path contains a control character ({codePoint}), which no page or file has.",
                ["codePoint": TextRules.codePoint(control)])
        }
        return try await next(request, context)
    }
}
