import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Logging
import NIOCore

/// The generated OpenAPI code writes response header values percent-encoded (as the `simple`
/// style of URI templates does), which clients would take literally. This restores the headers
/// Campus declares in openapi.yaml to their plain values.
public struct GeneratedHeadersMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext

    public init() {}
    static let names: [HTTPField.Name] = [.eTag, .lastModified, .contentDisposition]

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        for name in Self.names {
            if let value = response.headers[name], value.utf8.contains(UInt8(ascii: "%")),
                let plain = value.removingPercentEncoding
            {
                response.headers[name] = plain
            }
        }
        return response
    }
}
