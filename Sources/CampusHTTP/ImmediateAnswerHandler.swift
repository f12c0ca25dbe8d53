import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// An early answer that can also be made at once, on the connection's event loop, when all it
/// needs is in memory: no database, no disk, no waiting. ``ImmediateAnswerHandler`` asks it
/// before the request reaches Hummingbird; when it cannot answer at once (nil), the request goes
/// on as before, to ``EarlyAnswer/answer(_:context:)`` and then the router.
public protocol ImmediateAnswer: EarlyAnswer {
    /// What the answer found in the head (for a media stream, its item).
    associatedtype Claim
    /// What the head's path says to this answer, or nil when it is not one the answer takes:
    /// asked first, from the head alone, so that no request is made for the other GETs.
    func claim(_ head: HTTPRequest) -> Claim?
    /// The whole answer to a GET without a body that ``claim(_:)`` took, or nil to let the
    /// request go on.
    func immediateAnswer(_ claim: Claim, request: Request, context: CampusRequestContext) -> ImmediateResponse?
}

/// An answer made at once: its head and its whole body, as bytes or as a part of an open file.
public struct ImmediateResponse {
    public var head: HTTPResponse
    public var body: Body

    public enum Body {
        case bytes(ByteBuffer)
        case file(FilePart)
    }

    public init(head: HTTPResponse, body: ByteBuffer) {
        self.head = head
        self.body = .bytes(body)
    }

    public init(head: HTTPResponse, file: FilePart) {
        self.head = head
        self.body = .file(file)
    }
}

/// Bytes of an open file, sent by the kernel from the page cache to the socket (`sendfile`, as
/// nginx sends files) without a copy through the server's memory.
public struct FilePart: Sendable {
    /// The open file's descriptor; it stays open while `owner` lives, which the write keeps until
    /// the bytes are sent.
    public let descriptor: CInt
    public let offset: Int64
    public let count: Int64
    public let owner: any AnyObject & Sendable

    public init(descriptor: CInt, offset: Int64, count: Int64, owner: any AnyObject & Sendable) {
        self.descriptor = descriptor
        self.offset = offset
        self.count = count
        self.owner = owner
    }
}

/// Answers a GET on the connection's event loop when an ``ImmediateAnswer`` can, before
/// Hummingbird's request stream, task and response writer: for a small range of a media file or a
/// kept answer those cost more than the answer itself (docs/BENCHMARKS.md). The head and the body
/// are flushed together, so they leave in one gathered write (`writev`), where Hummingbird's
/// writer flushes the head and the body apart. It sits after
/// ``IdleTimeoutHandler``, which sees its requests and answers like any other.
///
/// Answers leave in the order their requests came: a request is answered here only while no
/// earlier request of the connection is still with Hummingbird (pipelined requests wait their
/// turn there). A request with a body, `Connection: close` or another connection option goes on,
/// and so does any request while the connection cannot take more bytes (a client that does not
/// read meets Hummingbird's backpressure). Answers are logged and counted as early answers are
/// and carry the headers Hummingbird adds to every answer (`Date`, `Server`).
final class ImmediateAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let answers: [any ImmediateAnswer]
    let logger: Logger
    let serverName: String?
    /// The context of the codec from HTTP types to NIO's HTTP/1 parts: a write made through it
    /// reaches the HTTP/1 encoder, which takes a body that is a file region (the connection is
    /// plain TCP: Campus speaks no TLS itself).
    private var fileWriter: ChannelHandlerContext?
    /// Requests passed on whose answer has not ended yet.
    private var passedOn = 0
    /// Whether the rest of a request answered here is being read (and dropped).
    private var answered = false

    init(answers: [any ImmediateAnswer], logger: Logger, serverName: String?) {
        self.answers = answers
        self.logger = logger
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        fileWriter = try? context.pipeline.syncOperations.context(handlerType: HTTP1ToHTTPServerCodec.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) { fileWriter = nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn == 0, answer(head, context: context) {
                answered = true
                return
            }
            passedOn += 1
        case .body:
            if answered { return }
        case .end:
            if answered {
                answered = false
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }

    /// Answers the request if one of the answers can at once; false to pass it on.
    private func answer(_ head: HTTPRequest, context: ChannelHandlerContext) -> Bool {
        guard head.method == .get, context.channel.isWritable, head.headerFields[.contentLength] == nil,
            head.headerFields[.transferEncoding] == nil,
            head.headerFields[.connection].map({ $0.lowercased() == "keep-alive" }) ?? true
        else { return false }
        let start = ContinuousClock.now
        for immediate in answers {
            guard let made = made(immediate, head, channel: context.channel) else { continue }
            var response = made.response
            let (request, requestContext) = (made.request, made.context)
            if case .file = response.body, fileWriter == nil { return false }
            response.head.headerFields[.date] = CurrentHTTPDate.shared.text
            if let serverName { response.head.headerFields[.server] = serverName }
            context.write(wrapOutboundOut(.head(response.head)), promise: nil)
            switch response.body {
            case .bytes(let bytes):
                if bytes.readableBytes > 0 { context.write(wrapOutboundOut(.body(bytes)), promise: nil) }
            case .file(let part):
                send(part, context: context)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            EarlyAnswerCounters.shared.count(route: immediate.route, status: response.head.status.code, immediate: true)
            RequestLogMiddleware.log(request, requestContext, status: response.head.status.code, start: start)
            return true
        }
        return false
    }

    /// Writes a part of a file as a file region, below the codec (whose parts carry bytes only),
    /// between the head and the end written above it: all three are written in order, on this
    /// event loop. The region's handle borrows the file's descriptor, given back (not closed)
    /// when the write is done or has failed; the file's owner lives until then.
    private func send(_ part: FilePart, context: ChannelHandlerContext) {
        guard let fileWriter else { return }
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: part.descriptor)
        let region = FileRegion(
            fileHandle: handle, readerIndex: Int(part.offset), endIndex: Int(part.offset + part.count))
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { [owner = part.owner] _ in
            _ = try? handle.takeDescriptorOwnership()
            withExtendedLifetime(owner) {}
        }
        fileWriter.write(NIOAny(HTTPServerResponsePart.body(.fileRegion(region))), promise: written)
        SentFiles.counter.increment()
    }

    /// An answer made at once, with the request it answers.
    private struct Made {
        var response: ImmediateResponse
        var request: Request
        var context: CampusRequestContext
    }

    /// The answer's, if its claim takes the head; the request is made only then.
    private func made<Answer: ImmediateAnswer>(_ answer: Answer, _ head: HTTPRequest, channel: any Channel) -> Made? {
        guard let claim = answer.claim(head) else { return nil }
        var logger = logger
        logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        let context = CampusRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        return answer.immediateAnswer(claim, request: request, context: context).map {
            Made(response: $0, request: request, context: context)
        }
    }
}

@available(*, unavailable)
extension ImmediateAnswerHandler: Sendable {}

/// The `Date` header's text for the current second, written once a second.
final class CurrentHTTPDate: Sendable {
    static let shared = CurrentHTTPDate()
    private let current = NIOLockedValueBox((second: Int64.min, text: ""))

    var text: String {
        let now = Date()
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        return current.withLockedValue { current in
            if current.second != second { current = (second, HTTPDate.text(now)) }
            return current.text
        }
    }
}

/// How many answers were sent as file regions (`campus_sent_files`).
enum SentFiles {
    static let counter = Counter(label: "campus.sent.files")
}
