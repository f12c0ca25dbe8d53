import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Logs one line per request when its response is ready: method, path (never the query, which
/// may hold a token, and a path's own token as ``LoggedPath`` writes it), status, duration,
/// client address and request id.
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
                "path": "\(LoggedPath.of(request, context))",
                "status": "\(status)",
                "duration_ms": "\(String(format: "%.2f", milliseconds))",
                "address": "\(context.remoteAddress?.ipAddress ?? "-")",
            ])
    }
}

/// A request's path as the log writes it: a path parameter that is a secret (`{token}`: a
/// personal calendar's link lets whoever has it read the calendar) is written as its name, as
/// the route declares it (`/api/v1/calendars/{token}/calendar.ics`).
public enum LoggedPath {
    /// The names of path parameters that are secrets.
    static let secrets: Set<Substring> = ["{token}", "{key}", "{secret}"]

    public static func of(_ request: Request, _ context: some RequestContext) -> String {
        let path = request.uri.path
        guard let template = context.endpointPath, template.contains("{"),
            secrets.contains(where: { template.contains($0) })
        else { return path }
        let names = template.split(separator: "/", omittingEmptySubsequences: false)
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard names.count == parts.count else { return template }
        for (index, name) in names.enumerated() where secrets.contains(name) { parts[index] = name }
        return parts.joined(separator: "/")
    }
}
