import CampusHTTP
import Foundation
import Listen
import NIOConcurrencyHelpers
import NIOCore

/// One station's broadcast in this instance: its listeners, the last seconds of audio, its
/// now-playing title, and what feeds it: a source connected here, the station's fallback when
/// the source is gone, or a relay of the instance that holds the source. A new feed takes over
/// the listeners where the last one left off.
final class Broadcast: Sendable {
    enum Feed: Sendable, Equatable {
        /// A source client connected to this instance.
        case source
        /// The station's programme episodes, played while no source sends.
        case fallback
        /// The stream of the instance that holds the source.
        case relay
    }

    let station: Station
    let contentType: String
    let startedAt = Date()
    private let hub: RadioHub

    /// Who a listener is, as Icecast's `/admin/listclients` shows it.
    struct Client: Sendable {
        var address = ""
        var userAgent = ""
        var since = Date()
    }

    private struct Listener {
        var sink: Sink
        var client: Client
        /// Bytes handed to its stream and not yet written out.
        var pending = 0
    }

    /// Where a listener's audio goes.
    private enum Sink {
        /// A stream its task reads (a player that asked for titles in the audio, the HLS segmenter).
        case stream(AsyncStream<ByteBuffer>.Continuation)
        /// Kept until its connection is ready for audio (its response's head is out).
        case waiting([ByteBuffer])
        /// Its connection, written on its event loop (``ConnectionListener``).
        case connection(ConnectionListener)
    }

    private struct State {
        var listeners: [Int: Listener] = [:]
        /// The listeners written to on their connections, by event loop: what a chunk is handed
        /// to, one task per loop.
        var connections: [ObjectIdentifier: (loop: any EventLoop, listeners: [Int: ConnectionListener])] = [:]
        /// The other listeners (streams, and those waiting for their connection).
        var others: Set<Int> = []
        var nextListener = 0
        /// The last audio, for new listeners' first burst.
        var recent: [ByteBuffer] = []
        var recentBytes = 0
        /// Audio gathered until it makes a chunk.
        var gathering = ByteBuffer()
        var title = ""
        /// How many times the title was set here: a title read from the database while it changed
        /// here may be older, and is not taken (`setTitle(_:ifUnchangedSince:)`).
        var titleChanges = 0
        /// The titles said since the current source connected, in order.
        var titlesSaid: [String] = []
        var feed: Feed
        /// Which feed is current: audio of an earlier one is not heard.
        var feedToken = 0
        var ended = false
        /// The most listeners at once.
        var peak = 0
        /// Audio bytes its feeds sent.
        var bytesRead = 0

        mutating func add(_ listener: Listener) -> Int {
            let id = nextListener
            nextListener += 1
            listeners[id] = listener
            others.insert(id)
            peak = max(peak, listeners.count)
            return id
        }

        mutating func remove(_ id: Int) -> Listener? {
            guard let listener = listeners.removeValue(forKey: id) else { return nil }
            if case .connection(let connection) = listener.sink {
                connections[ObjectIdentifier(connection.channel.eventLoop)]?.listeners[id] = nil
            } else {
                others.remove(id)
            }
            return listener
        }
    }

    private let state: NIOLockedValueBox<State>

    init(station: Station, contentType: String, feed: Feed, hub: RadioHub) {
        self.station = station
        self.contentType = contentType
        self.hub = hub
        self.state = NIOLockedValueBox(State(feed: feed))
    }

    var title: String { state.withLockedValue { $0.title } }
    var titlesSaid: [String] { state.withLockedValue { $0.titlesSaid } }
    var listenerCount: Int { state.withLockedValue { $0.listeners.count } }
    var feed: Feed { state.withLockedValue { $0.feed } }
    var feedToken: Int { state.withLockedValue { $0.feedToken } }
    var hasEnded: Bool { state.withLockedValue { $0.ended } }
    var peakListeners: Int { state.withLockedValue { $0.peak } }
    var bytesRead: Int { state.withLockedValue { $0.bytesRead } }
    /// The listeners now, by id.
    var clients: [(id: Int, client: Client)] {
        state.withLockedValue { state in state.listeners.map { ($0.key, $0.value.client) }.sorted { $0.id < $1.id } }
    }

    var titleChanges: Int { state.withLockedValue { $0.titleChanges } }

    /// Sets the title if it was not set since `changes` (what `titleChanges` said) or, without
    /// `changes`, at once; as the station keeps a title (``Station/nowPlaying(said:)``), whoever
    /// said it (a source here, the database's word of another instance's).
    func setTitle(_ said: String, ifUnchangedSince changes: Int? = nil) {
        let title = Station.nowPlaying(said: said)
        let changed = state.withLockedValue { state -> Bool in
            if let changes, state.titleChanges != changes { return false }
            state.titleChanges += 1
            guard state.title != title else { return false }
            state.title = title
            if state.feed == .source, !title.isEmpty { state.titlesSaid.append(title) }
            return true
        }
        if changed { hub.changed(station.mount) }
    }

    /// A new feed takes over: its token, which its audio carries; nil when the broadcast ended.
    func attach(_ feed: Feed) -> Int? {
        let token = state.withLockedValue { state -> Int? in
            guard !state.ended else { return nil }
            state.feed = feed
            state.feedToken += 1
            if feed == .source { state.titlesSaid = [] }
            return state.feedToken
        }
        hub.changed(station.mount)
        return token
    }

    /// A new listener: its id (to say what it wrote out, ``written(_:by:)``), the recent audio,
    /// then the stream of what comes; nil when the station has its `limit` of listeners, or the
    /// broadcast ended.
    func listen(limit: Int, client: Client = Client()) -> (
        id: Int, burst: [ByteBuffer], stream: AsyncStream<ByteBuffer>
    )? {
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(
            bufferingPolicy: .bufferingOldest(RadioHub.listenerBuffer))
        let registered = state.withLockedValue { state -> (Int, [ByteBuffer])? in
            guard !state.ended, state.listeners.count < limit else { return nil }
            let id = state.add(Listener(sink: .stream(continuation), client: client))
            return (id, state.recent)
        }
        guard let (id, burst) = registered else { return nil }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.remove(id) }
        }
        return (id, burst, stream)
    }

    /// A new listener whose audio will be written to its connection (``connect(_:to:)``, once its
    /// response's head is out): its id, or nil when the station has its `limit` of listeners, or
    /// the broadcast ended. Until then, the recent audio and what comes are kept for it.
    func reserve(limit: Int, client: Client = Client()) -> Int? {
        state.withLockedValue { state -> Int? in
            guard !state.ended, state.listeners.count < limit else { return nil }
            return state.add(Listener(sink: .waiting(state.recent), client: client))
        }
    }

    /// Starts writing to the connection of the listener `id` (``reserve(limit:client:)``): what
    /// was kept for it first, then every chunk as it comes. False when it is gone already.
    func connect(_ id: Int, to connection: ConnectionListener) -> Bool {
        state.withLockedValue { state in
            guard case .waiting(let kept) = state.listeners[id]?.sink else { return false }
            state.listeners[id]?.sink = .connection(connection)
            state.others.remove(id)
            let loop = connection.channel.eventLoop
            state.connections[ObjectIdentifier(loop), default: (loop, [:])].listeners[id] = connection
            // Handed to the event loop while the lock is held: the chunks delivered after this
            // are handed to it after these, in order.
            connection.channel.eventLoop.execute { [weak self] in
                for chunk in kept where !connection.write(chunk) {
                    self?.drop(id)
                    return
                }
            }
            return true
        }
    }

    /// Ends a listener's audio (the server is shutting down, its connection closed, or it fell behind).
    func drop(_ id: Int) {
        let listener = state.withLockedValue { $0.remove(id) }
        listener.map { Self.end($0.sink) }
    }

    /// Ends a listener's stream or connection.
    private static func end(_ sink: Sink) {
        switch sink {
        case .stream(let continuation): continuation.finish()
        case .connection(let connection): connection.end()
        case .waiting: break
        }
    }

    /// A listener wrote out `bytes` of what it was handed.
    func written(_ bytes: Int, by id: Int) {
        state.withLockedValue { state in
            if let pending = state.listeners[id]?.pending { state.listeners[id]?.pending = max(0, pending - bytes) }
        }
    }

    /// Audio of the feed with `token`, gathered into chunks and handed to every listener; a
    /// listener too far behind is dropped. False when the feed is no longer heard (the broadcast
    /// ended, or another feed took over).
    @discardableResult
    func deliver(_ bytes: ByteBuffer, token: Int) -> Bool {
        let (heard, dropped) = state.withLockedValue { state -> (Bool, [Sink]) in
            guard !state.ended, state.feedToken == token else { return (false, []) }
            var bytes = bytes
            state.bytesRead += bytes.readableBytes
            state.gathering.writeBuffer(&bytes)
            guard state.gathering.readableBytes >= RadioHub.chunkBytes else { return (true, []) }
            let chunk = state.gathering
            state.gathering = ByteBuffer()
            state.recent.append(chunk)
            state.recentBytes += chunk.readableBytes
            while state.recentBytes - (state.recent.first?.readableBytes ?? 0) >= RadioHub.burstBytes {
                state.recentBytes -= state.recent.removeFirst().readableBytes
            }
            var dropped: [Sink] = []
            for id in state.others {
                guard let listener = state.listeners[id] else { continue }
                switch listener.sink {
                case .connection: break
                case .waiting(var kept):
                    kept.append(chunk)
                    if kept.reduce(0, { $0 + $1.readableBytes }) > RadioHub.listenerBytes {
                        dropped.append(listener.sink)
                        _ = state.remove(id)
                    } else {
                        state.listeners[id]?.sink = .waiting(kept)
                    }
                case .stream(let continuation):
                    let behind = listener.pending + chunk.readableBytes > RadioHub.listenerBytes
                    if behind {
                        dropped.append(listener.sink)
                        _ = state.remove(id)
                    } else if case .dropped = continuation.yield(chunk) {
                        dropped.append(listener.sink)
                        _ = state.remove(id)
                    } else {
                        state.listeners[id]?.pending += chunk.readableBytes
                    }
                }
            }
            // One task per event loop writes the one chunk to all of its listeners, handed over
            // while the lock is held so that chunks reach each loop in order.
            for (loop, listeners) in state.connections.values where !listeners.isEmpty {
                loop.execute { [weak self] in
                    for (id, connection) in listeners where !connection.write(chunk) { self?.drop(id) }
                }
            }
            return (true, dropped)
        }
        // Ended outside the lock: ending a stream runs the listener's termination handler.
        for sink in dropped { Self.end(sink) }
        return heard
    }

    /// Forgets the last audio of the feed `token`, which stops for a while (a fallback that
    /// nobody hears): who comes later does not hear it first, out of date.
    func forgetRecent(token: Int) {
        state.withLockedValue { state in
            guard state.feedToken == token else { return }
            state.recent = []
            state.recentBytes = 0
            state.gathering = ByteBuffer()
        }
    }

    /// Ends the broadcast: what was gathered goes out, then every listener's stream ends.
    func finish() {
        let listeners = state.withLockedValue { state -> [Sink] in
            guard !state.ended else { return [] }
            state.ended = true
            let last = state.gathering
            state.gathering = ByteBuffer()
            defer {
                state.listeners = [:]
                state.connections = [:]
                state.others = []
            }
            return state.listeners.values.compactMap { listener -> Sink? in
                switch listener.sink {
                case .stream(let continuation):
                    if last.readableBytes > 0 { continuation.yield(last) }
                    return listener.sink
                case .connection(let connection):
                    // Ended after its last audio, on its event loop.
                    connection.channel.eventLoop.execute {
                        if last.readableBytes > 0 { _ = connection.write(last) }
                        connection.end()
                    }
                    return nil
                case .waiting:
                    return nil
                }
            }
        }
        hub.ended(self)
        for sink in listeners { Self.end(sink) }
    }
}

/// A source client's connection as the broadcast's feed: its audio goes to the listeners (and
/// to the recording, when the station records); when it ends, `ended` decides what follows.
struct SourceFeed: LiveSourceSink {
    let broadcast: Broadcast
    let token: Int
    let recording: BroadcastRecorder?
    let whenEnded: @Sendable () -> Void

    func receive(_ bytes: ByteBuffer) -> Bool {
        guard broadcast.deliver(bytes, token: token) else { return false }
        recording?.write(bytes)
        return true
    }

    func ended() { whenEnded() }
}
