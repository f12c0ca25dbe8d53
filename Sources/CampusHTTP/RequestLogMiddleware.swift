import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Logs one line per request when its response is ready: method, path (never the query, which
/// may hold a token), status, duration, client address and request id.
public struct RequestLogMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext

    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            Self.log(request, context, status: response.status.code, start: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            Self.log(request, context, status: status, start: start)
            throw error
        }
    }

    static func log(_ request: Request, _ context: Context, status: Int, start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)",
                "path": "\(request.uri.path)",
                "status": "\(status)",
                "duration_ms": "\(String(format: "%.2f", milliseconds))",
                "address": "\(context.remoteAddress?.ipAddress ?? "-")",
            ])
    }
}
