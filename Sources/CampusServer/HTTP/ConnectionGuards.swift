import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// The HTTP/1 server of Campus: Hummingbird's, with the guards a server on a network needs.
///
/// - **Idle and header timeout**: a connection that sends nothing for ``ConnectionLimits/idleTimeout``
///   (before its first request, between requests, or half-way through a request head or body)
///   is closed. Hummingbird's idle timer counts only whole request parts, so a client dripping
///   a request head byte by byte is closed as well; a response being sent is never cut.
/// - **Connections per address**: at most ``ConnectionLimits/connectionsPerAddress`` open
///   connections from one client address; the next one gets a 503 problem document and is closed.
///   (Behind a reverse proxy, where every connection comes from the proxy, the proxy limits.)
/// - **Problem documents for requests that cannot be parsed**: a request line or head over the
///   parser's limit (80 KiB) gets 431, any other malformed request 400, both with a problem body.
enum CampusHTTPServer {
    static func builder(limits: ConnectionLimits, perAddress: Bool) -> HTTPServerBuilder {
        let counter = perAddress ? ConnectionCounter(limit: limits.connectionsPerAddress) : nil
        let seconds = limits.idleTimeout.components.seconds
        let configuration = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ParseErrorProblemHandler()], idleTimeout: .seconds(max(1, seconds)))
        return HTTPServerBuilder { responder in
            LimitedHTTP1Channel(
                inner: HTTP1Channel(responder: responder, configuration: configuration), counter: counter)
        }
    }
}

/// Counts open connections per client address.
final class ConnectionCounter: Sendable {
    let limit: Int
    private let open = NIOLockedValueBox<[String: Int]>([:])

    init(limit: Int) { self.limit = max(1, limit) }

    /// Counts a new connection; false when the address has more than the limit open.
    func opened(_ address: String) -> Bool {
        open.withLockedValue { open in
            let count = open[address, default: 0] + 1
            open[address] = count
            return count <= limit
        }
    }

    func closed(_ address: String) {
        open.withLockedValue { open in
            let count = open[address, default: 1] - 1
            open[address] = count > 0 ? count : nil
        }
    }
}

/// Hummingbird's HTTP/1 channel, counting connections per address and turning away those over
/// the limit.
struct LimitedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let counter: ConnectionCounter?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        var admitted = true
        if let counter, let address = channel.remoteAddress?.ipAddress {
            admitted = counter.opened(address)
            channel.closeFuture.whenComplete { _ in counter.closed(address) }
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            if !admitted {
                try channel.pipeline.syncOperations.addHandler(TooManyConnectionsHandler(), position: .first)
            }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Answers a connection over the per-address limit with a 503 problem document, then closes it.
final class TooManyConnectionsHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        let body = Problem(
            .serviceUnavailable,
            detail: "Too many connections from your address are open; close some and try again.",
            headers: [.retryAfter: "10"]
        ).body(instance: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.count + 200)
        buffer.writeString(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\n"
                + "Content-Length: \(body.count)\r\nRetry-After: 10\r\nConnection: close\r\n\r\n")
        buffer.writeBytes(body)
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in context.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Whatever the client sends is not read.
    }
}

@available(*, unavailable)
extension TooManyConnectionsHandler: Sendable {}

/// Hummingbird answers a request it cannot parse with a bare 400; this gives that answer a
/// problem document (431 when the request line or head is too large).
final class ParseErrorProblemHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var parseError: HTTPParserError?
    private var pendingBody: ByteBuffer?

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if parseError == nil, let error = error as? HTTPParserError { parseError = error }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let error = parseError else { return context.write(data, promise: promise) }
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status == .badRequest:
            let problem =
                error == .headerOverflow
                ? Problem(
                    .requestHeaderFieldsTooLarge,
                    detail: "The request line and headers are larger than the limit of 80 KiB.")
                : Problem(.badRequest, detail: "The request is not valid HTTP/1.1 (\(error)).")
            let body = context.channel.allocator.buffer(data: problem.body(instance: nil))
            head.status = problem.status
            head.headerFields[.contentType] = "application/problem+json"
            head.headerFields[.contentLength] = String(body.readableBytes)
            pendingBody = body
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end(let trailers):
            if let body = pendingBody {
                context.write(wrapOutboundOut(.body(body)), promise: nil)
                pendingBody = nil
            }
            context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }
}

@available(*, unavailable)
extension ParseErrorProblemHandler: Sendable {}
