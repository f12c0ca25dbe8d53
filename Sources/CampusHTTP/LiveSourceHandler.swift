import Foundation
import HTTPTypes
import InputRules
import NIOCore

/// Where a live source's audio goes once the route that checked its credentials took it.
public protocol LiveSourceSink: Sendable {
    /// Audio as it arrives, on the connection's event loop.
    /// Returns false when it takes no more of this source (its broadcast ended, or another
    /// source took over): the connection closes.
    func receive(_ bytes: ByteBuffer) -> Bool
    /// The source is gone (it closed, or fell silent for too long).
    func ended()
}

/// Icecast sources (ffmpeg, butt, Mixxx, liquidsoap) send `PUT` or the old `SOURCE` method to a
/// mount and then their audio, for as long as they broadcast, with neither a Content-Length nor
/// chunked framing, which an HTTP/1.1 parser would read as the start of the next request.
///
/// This handler, first in every connection's pipeline, looks at the first bytes. A source's
/// request head goes on to the HTTP parser as a `PUT` with an empty body (without `Expect`,
/// `Connection` or framing headers), so that the router, the credentials check and the problem
/// documents are the usual ones; the bytes after the head are held until the route accepts the
/// source (``accept(on:_:)``), then handed to the sink as they come. Any other connection is passed
/// on untouched, and the handler leaves its pipeline.
public final class LiveSourceHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer

    enum State {
        /// Not yet known whether this is a source.
        case sniffing(ByteBuffer)
        /// A source's request head, until its blank line.
        case head(ByteBuffer)
        /// Audio that came before the route accepted the source.
        case held(ByteBuffer)
        case streaming(any LiveSourceSink)
        case closed
    }

    /// The request lines that start a source's connection (`SOURCE /radio/`, `PUT /radio/`).
    let starts: [[UInt8]]
    /// A source silent this long is gone.
    let silence: TimeAmount
    private var state: State = .sniffing(ByteBuffer())
    private var context: ChannelHandlerContext?
    private var lastRead = NIODeadline.now()
    private var watchdog: Scheduled<Void>?

    /// The longest request head a source may send.
    static let headLimit = 16 << 10
    /// The most audio held while the route checks the source.
    static let heldLimit = 1 << 20
    /// How long the route may take to accept a source before its connection is closed.
    static let acceptTimeout = TimeAmount.seconds(15)

    /// A handler for sources sending to paths under `prefix` (`/radio/`).
    public init(prefix: String, silence: TimeAmount = .seconds(30)) {
        starts = ["SOURCE ", "PUT "].map { Array(($0 + prefix).utf8) }
        self.silence = silence
    }

    public func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    public func handlerRemoved(context: ChannelHandlerContext) {
        watchdog?.cancel()
        self.context = nil
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        lastRead = .now()
        switch state {
        case .sniffing(var seen):
            seen.writeBuffer(&bytes)
            sniff(seen, context: context)
        case .head(var head):
            head.writeBuffer(&bytes)
            readHead(head, context: context)
        case .held(var held):
            held.writeBuffer(&bytes)
            guard held.readableBytes <= Self.heldLimit else { return close(context) }
            state = .held(held)
        case .streaming(let sink):
            if !sink.receive(bytes) { close(context) }
        case .closed:
            break
        }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        if case .streaming(let sink) = state { sink.ended() }
        state = .closed
        watchdog?.cancel()
        context.fireChannelInactive()
    }

    /// Decides from the first bytes whether a source is connecting.
    private func sniff(_ seen: ByteBuffer, context: ChannelHandlerContext) {
        let view = seen.readableBytesView
        if starts.contains(where: { view.starts(with: $0) }) {
            state = .head(ByteBuffer())
            // Closed if the route never says yes (it refused, or the head never ends).
            scheduleWatch(in: Self.acceptTimeout, context: context)
            return readHead(seen, context: context)
        }
        if starts.contains(where: { $0.starts(with: view) }) {
            state = .sniffing(seen)  // Too few bytes to tell yet.
            return
        }
        state = .closed
        context.fireChannelRead(wrapInboundOut(seen))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Reads the head up to its blank line, and passes it on as a `PUT` with an empty body; a
    /// head over ``headLimit`` is answered 431 and the connection closed.
    private func readHead(_ head: ByteBuffer, context: ChannelHandlerContext) {
        let bytes = Array(head.readableBytesView)
        guard let end = Self.blankLine(in: bytes) else {
            if bytes.count > Self.headLimit { return refuseHead(context) }
            state = .head(head)
            return
        }
        if end > Self.headLimit { return refuseHead(context) }
        var rewritten = context.channel.allocator.buffer(capacity: end + 64)
        rewritten.writeBytes(Self.rewrite(Array(bytes[..<end])))
        var held = context.channel.allocator.buffer(capacity: bytes.count - end - 4)
        held.writeBytes(bytes[(end + 4)...])
        state = .held(held)
        context.fireChannelRead(wrapInboundOut(rewritten))
    }

    /// The source's head as a `PUT` the HTTP parser reads whole: the request line's method
    /// replaced, the headers that say how a body is framed (or that ask for 100 Continue, or for
    /// the connection to close after the answer) left out, and an empty body declared.
    static func rewrite(_ head: [UInt8]) -> [UInt8] {
        let dropped: Set<String> = ["content-length", "transfer-encoding", "expect", "connection", "upgrade"]
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : Array(line)
        }
        if let space = lines.first?.firstIndex(of: UInt8(ascii: " ")) {
            lines[0] = Array("PUT".utf8) + lines[0][space...]
        }
        let headers = lines.dropFirst().filter { line in
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
            let name = String(decoding: line[..<colon], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                .lowercased()
            return !dropped.contains(name)
        }
        let all = [lines.first ?? []] + headers + [Array("Content-Length: 0".utf8)]
        return Array(all.joined(separator: Array("\r\n".utf8))) + Array("\r\n\r\n".utf8)
    }

    /// Where the head's blank line starts (`\r\n\r\n`), if it has come.
    static func blankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The route took the source: what was held, then every byte as it comes, goes to `sink`.
    /// The connection's HTTP idle timeout no longer applies; a source silent for ``silence`` is
    /// gone.
    func start(_ sink: any LiveSourceSink, removing idleHandlers: [any RemovableChannelHandler]) {
        guard let context, case .held(let held) = state else { return }
        for handler in idleHandlers {
            context.pipeline.syncOperations.removeHandler(handler, promise: nil)
        }
        state = .streaming(sink)
        lastRead = .now()
        if held.readableBytes > 0, !sink.receive(held) { close(context) }
    }

    private func scheduleWatch(in delay: TimeAmount, context: ChannelHandlerContext) {
        watchdog = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [weak self] in self?.watch() }
    }

    private func watch() {
        guard let context else { return }
        switch state {
        case .streaming:
            if NIODeadline.now() - lastRead > silence {
                close(context)
            } else {
                scheduleWatch(in: .seconds(5), context: context)
            }
        case .closed:
            break
        default:
            close(context)  // Not accepted in time.
        }
    }

    /// Answers a head too large with 431 (a problem document, as the HTTP parser's own limit is
    /// answered), then closes: the HTTP parser never sees it.
    private func refuseHead(_ context: ChannelHandlerContext) {
        state = .closed
        watchdog?.cancel()
        let problem = Problem(
            .requestHeaderFieldsTooLarge,
            detail: "A source's request line and headers are larger than the limit of {limit}.",
            ["limit": ByteCount(Self.headLimit).description])
        let body = problem.body(instance: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.count + 200)
        buffer.writeString(
            "HTTP/1.1 \(problem.status.code) \(problem.status.reasonPhrase)\r\n"
                + "Content-Type: application/problem+json\r\nContent-Length: \(body.count)\r\n"
                + "Connection: close\r\n\r\n")
        buffer.writeBytes(body)
        context.writeAndFlush(NIOAny(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    private func close(_ context: ChannelHandlerContext) {
        if case .streaming(let sink) = state { sink.ended() }
        state = .closed
        watchdog?.cancel()
        context.close(promise: nil)
    }

    /// Whether the request the route is answering came as a source's: the first of its
    /// connection, read by this handler, whose audio is held until the route takes it. False for a
    /// `PUT` on a connection that began with another request (its body is the HTTP parser's, and
    /// no audio could follow), which the route refuses before anything happens.
    public static func isSource(on channel: any Channel) async -> Bool {
        let asked = channel.eventLoop.submit { () -> Bool in
            guard let handler = try? channel.pipeline.syncOperations.handler(type: LiveSourceHandler.self) else {
                return false
            }
            if case .held = handler.state { return true }
            return false
        }
        return (try? await asked.get()) ?? false
    }

    /// Hands the source whose request the route is answering to `sink`; false when the
    /// connection is no source's (or is gone).
    public static func accept(on channel: any Channel, _ sink: any LiveSourceSink) async -> Bool {
        let started = channel.eventLoop.submit { () -> Bool in
            let pipeline = channel.pipeline.syncOperations
            guard let handler = try? pipeline.handler(type: LiveSourceHandler.self) else { return false }
            var idle: [any RemovableChannelHandler] = []
            if let timeout = try? pipeline.handler(type: IdleTimeoutHandler.self) { idle.append(timeout) }
            handler.start(sink, removing: idle)
            if case .streaming = handler.state { return true }
            return false
        }
        return (try? await started.get()) ?? false
    }
}

@available(*, unavailable)
extension LiveSourceHandler: Sendable {}
