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
/// - **Idle and header timeout**: a connection that sends nothing for `idleTimeout`
///   (before its first request, between requests, or half-way through a request head or body)
///   is closed. Hummingbird's idle timer counts only whole request parts, so a client dripping
///   a request head byte by byte is closed as well; a response being sent is never cut.
/// - **Connections per address**: at most `perAddress` open
///   connections from one client address; the next one gets a 503 problem document and is closed.
///   (Behind a reverse proxy, where every connection comes from the proxy, the proxy limits.)
/// - **Problem documents for requests that cannot be parsed** (``ParseErrorProblemHandler``): a
///   request line or head over the parser's limit (80 KiB) gets 431, any other malformed request
///   400, a transfer coding Campus does not implement 501, a body whose framing breaks 400, all
///   with a problem body, and the connection is closed.
public enum CampusHTTPServer {
    /// The server, closing connections idle for `idleTimeout` and, unless `perAddress` is nil,
    /// letting one address hold at most that many connections.
    /// Live sources (Icecast clients) may connect to paths under `liveSources` (``LiveSourceHandler``).
    /// GETs that one of `immediate` can answer at once are answered before Hummingbird
    /// (``ImmediateAnswerHandler``, logging to `logger`, its answers with `serverName` as Hummingbird's).
    public static func builder(
        idleTimeout: Duration, perAddress: Int?, liveSources: String? = nil, immediate: [any ImmediateAnswer] = [],
        logger: Logger, serverName: String? = nil
    ) -> HTTPServerBuilder {
        let counter = perAddress.map { ConnectionCounter(limit: $0) }
        let timeout = TimeAmount.seconds(max(1, idleTimeout.components.seconds))
        let configuration = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ParseErrorProblemHandler(), IdleTimeoutHandler(timeout: timeout)]
                + (immediate.isEmpty
                    ? [] : [ImmediateAnswerHandler(answers: immediate, logger: logger, serverName: serverName)]))
        return HTTPServerBuilder { responder in
            LimitedHTTP1Channel(
                inner: HTTP1Channel(responder: responder, configuration: configuration), counter: counter,
                liveSources: liveSources)
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
    let liveSources: String?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        var admitted = true
        if let counter, let address = channel.remoteAddress?.ipAddress {
            admitted = counter.opened(address)
            channel.closeFuture.whenComplete { _ in counter.closed(address) }
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.syncOptions?.setOption(ChannelOptions.writeBufferWaterMark, value: Self.waterMark)
            if let liveSources {
                try channel.pipeline.syncOperations.addHandler(LiveSourceHandler(prefix: liveSources), position: .first)
            }
            if !admitted {
                try channel.pipeline.syncOperations.addHandler(TooManyConnectionsHandler(), position: .first)
            }
            return value
        }
    }

    /// How many bytes may wait to be sent before writers wait: a small range (64 KiB and its head)
    /// fits, so answering it does not turn the connection unwritable and back (NIO's default
    /// high mark is 64 KiB; each turn wakes the response writer's backpressure, 4 % of a range's CPU).
    static let waterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 128 * 1024, high: 256 * 1024)

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

/// Closes a connection that sends nothing for `timeout`: before its first request, between
/// requests, and while a request head or body is being read (every part that arrives starts the
/// time again; a head arrives only once it is whole, so a head dripped a byte at a time is closed).
/// While a response is being sent the connection is never closed, however slowly the client reads:
/// the time starts again only once the response's last bytes are out of Campus (handed to the
/// operating system, which delivers them even after a close). Hummingbird's own idle timeout starts
/// when the end of the response is queued, which cut slow listeners short.
final class IdleTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// Requests whose head arrived and whose response is not yet out.
    private var inFlight = 0
    private var reading = false

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            inFlight += 1
            reading = true
            arm(context)
        case .body:
            arm(context)
        case .end:
            reading = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { result in
            self.inFlight = max(0, self.inFlight - 1)
            if self.inFlight == 0, !self.reading, context.channel.isActive { self.arm(context) }
            promise?.completeWith(result)
        }
        context.write(data, promise: written)
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            self.timer = nil
            if self.inFlight == 0 || self.reading { context.close(promise: nil) }
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}

@available(*, unavailable)
extension IdleTimeoutHandler: Sendable {}
