import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import NIOCore

/// Runs ``RequestValidator`` on every request for an operation of the API: the operation of the
/// route the router matched.
public struct RequestValidationMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext
    let validator: RequestValidator

    public init(validator: RequestValidator) { self.validator = validator }

    /// The request's query parameters by name, each with its values in order.
    public static func query(of request: Request) -> [String: [String]] {
        var query: [String: [String]] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key), default: []].append(String(value)) }
        return query
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard context.route?.kind == .api, let template = context.endpointPath,
            let operation = validator.operation(method: request.method, template: template)
        else {
            return try await next(request, context)
        }
        let query = Self.query(of: request)
        var path: [String: String] = [:]
        for (name, value) in context.parameters {
            let value = String(value)
            path[String(name)] = value.utf8.contains(UInt8(ascii: "%")) ? value.removingPercentEncoding ?? value : value
        }
        var headers: [String: String] = [:]
        for parameter in operation.headerNames {
            if let name = HTTPField.Name(parameter), let value = request.headers[name] { headers[parameter] = value }
        }
        try validator.checkParameters(of: operation, path: path, query: query, headers: headers)
        guard operation.hasBody, request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
        else {
            return try await next(request, context)
        }
        let buffer = try await request.body.collect(upTo: context.bodyLimit)
        try validator.checkBody(of: operation, Data(buffer: buffer))
        var request = request
        request.body = RequestBody(buffer: buffer)
        return try await next(request, context)
    }
}
