import CampusHTTP
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// A listener whose audio is written straight to its connection, on the connection's event loop:
/// each chunk is one buffer shared by every listener (no copy per listener), handed to each event
/// loop once for all of its listeners (``Broadcast/deliver(_:token:)``). A task that woke for
/// every chunk of every listener, and an asynchronous writer's hop for each, cost a radio of
/// 5,000 listeners more than the writes themselves (docs/BENCHMARKS.md).
///
/// The response's head is Hummingbird's, written before the body starts; the body's chunks go
/// through the same pipeline (its HTTP/1 encoder frames them), and when the listener ends,
/// Hummingbird's writer ends the response.
final class ConnectionListener: Sendable {
    let channel: any Channel
    private let ended: EventLoopPromise<Void>
    private let done = NIOLockedValueBox(false)

    init(channel: any Channel) {
        self.channel = channel
        self.ended = channel.eventLoop.makePromise(of: Void.self)
    }

    /// Writes a chunk (on the connection's event loop); false when the listener is too far behind
    /// (more than ``RadioHub/listenerBytes`` not yet taken by the network), to be let go.
    func write(_ chunk: ByteBuffer) -> Bool {
        channel.eventLoop.preconditionInEventLoop()
        guard channel.isActive else { return true }
        // Writable: less than the high mark (256 KiB) is waiting, below the limit; else ask how much.
        if !channel.isWritable {
            let buffered = (try? channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)) ?? 0
            guard buffered + chunk.readableBytes <= RadioHub.listenerBytes else { return false }
        }
        channel.writeAndFlush(HTTPResponsePart.body(chunk), promise: nil)
        return true
    }

    /// Ends the listener: the response's body ends (once).
    func end() {
        let first = done.withLockedValue { done in
            defer { done = true }
            return !done
        }
        if first { ended.succeed(()) }
    }

    /// Waits until the listener ends: let go, the broadcast over, or the connection closed.
    func untilEnded() async {
        channel.closeFuture.whenComplete { [self] _ in end() }
        try? await ended.futureResult.get()
    }
}
