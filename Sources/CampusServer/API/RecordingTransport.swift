import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers generated OpenAPI handlers on the router and records their routes, with what
/// openapi.yaml says of each (``APIDocumentation/properties(_:_:)``).
struct RecordingTransport: ServerTransport {
    let router: Router<CampusRequestContext>
    let routes: RouteTable
    let documentation: APIDocumentation

    func register(
        _ handler:
            @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
                HTTPResponse, HTTPBody?
            ),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        routes.add(method, path, documentation.properties(method, path))
        router.register(
            { request, body, metadata in
                let (response, responseBody) = try await handler(request, body, metadata)
                var restored = response
                restored.headerFields = Self.plain(response.headerFields)
                return (restored, responseBody)
            }, method: method, path: path)
    }

    /// The generated code writes every response header openapi.yaml declares as a URI component
    /// (swift-openapi-runtime's `setHeaderFieldAsURI`, the `simple` style: each byte other than
    /// a letter, a digit or `-._~` percent-encoded, `%` itself included), which clients would
    /// take literally (`Cache-Control: public%2C%20max-age%3D31536000` caches nothing). Here,
    /// where only the generated code's answers pass, each such field is decoded back to exactly
    /// the value the handler gave: `Content-Type`, which the runtime sets as it is, is left alone,
    /// and no other answer (Subsonic's, a page's, a fast path's) is touched, so a value that is
    /// percent-encoded on purpose (`filename*=UTF-8''a%20b.mp3`) stays so.
    static func plain(_ fields: HTTPFields) -> HTTPFields {
        var plain = HTTPFields()
        for field in fields {
            guard field.name != .contentType, field.value.utf8.contains(UInt8(ascii: "%")),
                let value = field.value.removingPercentEncoding
            else {
                plain.append(field)
                continue
            }
            plain.append(HTTPField(name: field.name, value: value))
        }
        return plain
    }
}
