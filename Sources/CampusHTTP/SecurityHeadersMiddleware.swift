import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Logging
import NIOCore

/// Headers that make browsers safer with every response, and the charset of text responses
/// (UTF-8) where the generated code leaves it out.
public struct SecurityHeadersMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext

    /// Origins pages may show images from besides their own (`https://iis.bsuir.by`, where the
    /// institution keeps teachers' photos).
    let imageOrigins: [String]
    /// Origins a form may lead to besides this one: the OpenID provider, where logging out
    /// continues (`form-action` holds for a form's redirects too).
    let formOrigins: [String]

    public init(imageOrigins: [String] = [], formOrigins: [String] = []) {
        self.imageOrigins = imageOrigins.filter { Self.isOrigin($0) }
        self.formOrigins = formOrigins.filter { Self.isOrigin($0, schemes: ["https", "http"]) }
    }

    /// `https://host[:port]` (or another of `schemes`) and nothing else, so that no origin can add
    /// a directive of its own.
    public static func isOrigin(_ text: String, schemes: Set<String> = ["https"]) -> Bool {
        guard let url = URL(string: text), schemes.contains(url.scheme ?? ""), let host = url.host, !host.isEmpty,
            url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && !" ;,'\"".unicodeScalars.contains($0) }
    }

    /// The headers every response gets, whatever its type (an early answer, which skips this
    /// middleware, adds them itself).
    public static func addBaseHeaders(to headers: inout HTTPFields) {
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "same-origin"
        if headers[.xFrameOptions] == nil { headers[.xFrameOptions] = "DENY" }
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        Self.addBaseHeaders(to: &response.headers)
        if let type = response.headers[.contentType], type.hasPrefix("text/"), !type.contains("charset") {
            response.headers[.contentType] = type + "; charset=utf-8"
        }
        if response.headers[.contentType]?.hasPrefix("text/html") == true,
            response.headers[.contentSecurityPolicy] == nil
        {
            response.headers[.contentSecurityPolicy] =
                "default-src 'self'; img-src \((["'self'", "data:"] + imageOrigins).joined(separator: " ")); "
                + "media-src 'self' blob:; style-src 'self'; script-src 'self'; "
                + "connect-src 'self'; form-action \((["'self'"] + formOrigins).joined(separator: " ")); "
                + "frame-ancestors 'none'; base-uri 'self'"
        }
        return response
    }
}
