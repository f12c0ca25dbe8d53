import Accounts
import Compete
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import NIOConcurrencyHelpers
import OpenAPIHummingbird
import OpenAPIRuntime
import Storage

/// Registers generated OpenAPI handlers on the router and records their routes.
struct RecordingTransport: ServerTransport {
    let router: Router<CampusRequestContext>
    let routes: RouteTable

    func register(
        _ handler:
            @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
                HTTPResponse, HTTPBody?
            ),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        routes.add(path, method: method)
        router.register(handler, method: method, path: path)
    }
}
