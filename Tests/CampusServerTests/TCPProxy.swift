import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy to another address that a test can cut: while cut, the connections it carried are
/// closed and new ones are accepted and never answered, as a database server that stopped
/// answering looks to its clients (the nastier kind of outage: a refused connection fails at once).
final class TCPProxy: Sendable {
    let port: Int
    private let server: any Channel
    private let state: NIOLockedValueBox<State>

    private struct State {
        var cut = false
        var open: [ObjectIdentifier: any Channel] = [:]
    }

    private init(port: Int, server: any Channel, state: NIOLockedValueBox<State>) {
        self.port = port
        self.server = server
        self.state = state
    }

    static func start(to host: String, port target: Int) async throws -> TCPProxy {
        let state = NIOLockedValueBox(State())
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                let cut = state.withLockedValue { state -> Bool in
                    state.open[ObjectIdentifier(inbound)] = inbound
                    return state.cut
                }
                inbound.closeFuture.whenComplete { _ in
                    state.withLockedValue { _ = $0.open.removeValue(forKey: ObjectIdentifier(inbound)) }
                }
                // Cut: taken, read and never answered.
                if cut { return inbound.eventLoop.makeSucceededVoidFuture() }
                return ClientBootstrap(group: inbound.eventLoop).connect(host: host, port: target)
                    .flatMapThrowing { outbound in
                        state.withLockedValue { $0.open[ObjectIdentifier(outbound)] = outbound }
                        outbound.closeFuture.whenComplete { _ in
                            state.withLockedValue { _ = $0.open.removeValue(forKey: ObjectIdentifier(outbound)) }
                        }
                        try inbound.pipeline.syncOperations.addHandler(Relay(partner: outbound))
                        try outbound.pipeline.syncOperations.addHandler(Relay(partner: inbound))
                    }
                    .flatMapError { _ in inbound.close() }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return TCPProxy(port: server.localAddress?.port ?? 0, server: server, state: state)
    }

    /// Closes every connection carried, and answers nothing from now on.
    func cut() {
        let open = state.withLockedValue { state -> [any Channel] in
            state.cut = true
            return Array(state.open.values)
        }
        for channel in open { channel.close(promise: nil) }
    }

    /// Carries connections again; the ones taken while cut are closed (as a server that comes
    /// back resets what the hung one held).
    func restore() {
        let taken = state.withLockedValue { state -> [any Channel] in
            state.cut = false
            return Array(state.open.values)
        }
        for channel in taken { channel.close(promise: nil) }
    }

    func stop() async {
        cut()
        try? await server.close()
    }

    /// Writes what one side sends to the other; closes the other when one side closes.
    private final class Relay: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let partner: any Channel

        init(partner: any Channel) { self.partner = partner }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            context.fireChannelInactive()
        }
    }
}
