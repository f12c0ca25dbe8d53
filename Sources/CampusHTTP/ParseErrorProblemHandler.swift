import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers requests whose framing HTTP/1's parser cannot follow with a problem document
/// (``RequestFraming``), and closes their connection: what follows on it cannot be told apart
/// from the broken request.
///
/// - A request line or head that cannot be parsed: Hummingbird answers a bare 400, which gets a
///   problem body (431 when it is larger than 80 KiB).
/// - A `Transfer-Encoding` other than a lone `chunked`: answered here, 501 naming the coding (400
///   for `chunked` twice), without any handler seeing the request (after the answers to the
///   requests before it, if they are still being made).
/// - A body whose framing breaks half-way (a chunk size that is not hexadecimal or overflows,
///   the connection ending before the body does): the handler reading it fails
///   (``BrokenRequestBody``), and whatever is answered to that request becomes the problem; an
///   answer already begun goes out as it is. Nothing more is written on the connection
///   (Hummingbird would answer the parser's error once more).
final class ParseErrorProblemHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Mode {
        /// Requests are read and answered as they come.
        case reading
        /// A request line or head could not be parsed: Hummingbird's 400 becomes `problem`.
        case headBroken(Problem)
        /// The body of request number `request` could not be framed: its answer becomes
        /// `problem` (unless it had begun: `replace` false), and the connection closes after it.
        case bodyBroken(Problem, request: Int, replace: Bool)
        /// A request this handler answers itself, once the requests before it are answered.
        case refusing(Problem)
        /// Answered; the connection closes: nothing more is read or written.
        case closing
    }

    private var mode = Mode.reading
    /// Request heads passed on, and answers whose end was written.
    private var requests = 0
    private var answered = 0
    /// Whether the last request's end has not come yet, and whether an answer has begun.
    private var inBody = false
    private var answering = false
    /// The problem's body, written before the end of the answer it replaces.
    private var pendingBody: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch mode {
        case .closing, .refusing: return
        case .reading, .headBroken, .bodyBroken: break
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let problem = RequestFraming.transferCodingProblem(head.headerFields[.transferEncoding]) {
                if answered == requests, !answering {
                    writeProblem(context, problem)
                } else {
                    mode = .refusing(problem)
                }
                return
            }
            requests += 1
            inBody = true
        case .body:
            break
        case .end:
            inBody = false
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        switch mode {
        case .reading:
            if !inBody {
                mode = .headBroken(RequestFraming.headProblem(parseError))
            } else if answered >= requests {
                // The broken request was answered already (its handler did not read the body).
                mode = .closing
                context.fireErrorCaught(error)
                context.close(promise: nil)
                return
            } else {
                let begun = answering && answered + 1 == requests
                mode = .bodyBroken(RequestFraming.bodyProblem(parseError), request: requests, replace: !begun)
            }
            context.fireErrorCaught(error)
        case .headBroken, .bodyBroken:
            context.fireErrorCaught(error)
        case .refusing, .closing:
            // Answered already: what the parser says of the rest changes nothing.
            return
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch mode {
        case .reading:
            pass(context, part, data, promise)
        case .closing:
            promise?.fail(ChannelError.ioOnClosedChannel)
        case .refusing(let problem):
            pass(context, part, data, promise)
            if case .end = part, answered == requests { writeProblem(context, problem) }
        case .headBroken(let problem):
            switch part {
            case .head(var head) where head.status == .badRequest:
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
        case .bodyBroken(let problem, let request, let replace):
            if answered + 1 < request {
                // The answer to a request before the broken one.
                pass(context, part, data, promise)
            } else if !replace {
                if case .end = part {
                    answered += 1
                    closeAfter(context, data, promise: promise)
                } else {
                    context.write(data, promise: promise)
                }
            } else {
                replaceAnswer(context, part, with: problem, request: request, promise: promise)
            }
        }
    }

    /// The broken request's answer, as the handler writes it, becomes `problem`.
    private func replaceAnswer(
        _ context: ChannelHandlerContext, _ part: HTTPResponsePart, with problem: Problem, request: Int,
        promise: EventLoopPromise<Void>?
    ) {
        switch part {
        case .head(var head):
            guard head.status.kind != .informational else {
                promise?.succeed(())
                return
            }
            answering = true
            if head.status == problem.status {
                // The handler answered this very problem (``BrokenRequestBody``), in the client's
                // language: it goes out as it is, and the connection closes after it.
                mode = .bodyBroken(problem, request: request, replace: false)
                head.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
            let body = context.channel.allocator.buffer(data: problem.body(instance: nil))
            pendingBody = body
            context.write(
                wrapOutboundOut(.head(Self.head(of: problem, length: body.readableBytes, like: head))), promise: promise
            )
        case .body:
            // The handler's words are not sent.
            promise?.succeed(())
        case .end:
            if let body = pendingBody {
                context.write(wrapOutboundOut(.body(body)), promise: nil)
                pendingBody = nil
            }
            answering = false
            answered += 1
            closeAfter(context, wrapOutboundOut(.end(nil)), promise: promise)
        }
    }

    /// Writes a part of an answer as it is, counting answers.
    private func pass(
        _ context: ChannelHandlerContext, _ part: HTTPResponsePart, _ data: NIOAny, _ promise: EventLoopPromise<Void>?
    ) {
        switch part {
        case .head(let head) where head.status.kind != .informational:
            answering = true
        case .end:
            answering = false
            answered += 1
        case .head, .body:
            break
        }
        context.write(data, promise: promise)
    }

    /// Answers `problem` in full, then closes the connection.
    private func writeProblem(_ context: ChannelHandlerContext, _ problem: Problem) {
        let body = context.channel.allocator.buffer(data: problem.body(instance: nil))
        context.write(
            wrapOutboundOut(.head(Self.head(of: problem, length: body.readableBytes, like: nil))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        closeAfter(context, wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Writes `data` (an answer's end) and closes the connection once it is out, lingering as
    /// nginx does: the sending side first, while what the client still sends is read and dropped
    /// for up to ``lingering`` (closing with unread bytes would reset the connection, and a reset
    /// can make the client lose the answer before it reads it).
    private func closeAfter(_ context: ChannelHandlerContext, _ data: NIOAny, promise: EventLoopPromise<Void>?) {
        mode = .closing
        let written = context.eventLoop.makePromise(of: Void.self)
        let channel = context.channel
        written.futureResult.assumeIsolated().whenComplete { result in
            promise?.completeWith(result)
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: Self.lingering) { channel.close(promise: nil) }
        }
        context.writeAndFlush(data, promise: written)
    }

    /// How long a connection that was answered a problem reads on before it closes.
    static let lingering = TimeAmount.seconds(2)

    /// The head of a problem answer that closes the connection (with the `Date` and `Server` of
    /// the answer it replaces).
    static func head(of problem: Problem, length: Int, like original: HTTPResponse?) -> HTTPResponse {
        var head = HTTPResponse(status: problem.status)
        head.headerFields[.date] = original?.headerFields[.date]
        head.headerFields[.server] = original?.headerFields[.server]
        for field in problem.headers { head.headerFields.append(field) }
        head.headerFields[.contentType] = "application/problem+json"
        head.headerFields[.contentLength] = String(length)
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[.connection] = "close"
        return head
    }
}

@available(*, unavailable)
extension ParseErrorProblemHandler: Sendable {}
