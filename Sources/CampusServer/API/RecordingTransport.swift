import CampusHTTP
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
        router.register(handler, method: method, path: path)
    }
}
