import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Logging
import NIOCore

/// Enforces the body limit of each request, the matched route's (``RouteProperties/bodyLimit``):
/// at once from `Content-Length`, and while the body streams in when the length is not declared.
public struct BodyLimitMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext

    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let limit = context.route?.bodyLimit ?? RouteProperties.defaultBodyLimit
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw Problem.tooLarge(limit: limit)
        }
        var request = request
        var context = context
        context.bodyLimit = limit
        let body = request.body
        request.body = RequestBody(asyncSequence: LimitedBody(base: body, limit: limit))
        return try await next(request, context)
    }
}

/// A request body that fails with 413 once more than `limit` bytes arrive, and with
/// ``BrokenRequestBody`` when its stream fails (the parser could not frame it, or the client
/// left): the client's doing, whichever handler reads it.
struct LimitedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: RequestBody
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let limit: Int
        var seen = 0

        mutating func next() async throws -> ByteBuffer? {
            let next: ByteBuffer?
            do {
                next = try await base.next()
            } catch let error as Problem {
                throw error
            } catch let error as CancellationError {
                throw error
            } catch {
                throw BrokenRequestBody(error)
            }
            guard let buffer = next else { return nil }
            seen += buffer.readableBytes
            if seen > limit { throw Problem.tooLarge(limit: limit) }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit) }
}
