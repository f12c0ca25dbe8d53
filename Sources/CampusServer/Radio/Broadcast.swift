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
        var continuation: AsyncStream<ByteBuffer>.Continuation
        var client: Client
        /// Bytes handed to it and not yet written out.
        var pending = 0
    }

    private struct State {
        var listeners: [Int: Listener] = [:]
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
            let id = state.nextListener
            state.nextListener += 1
            state.listeners[id] = Listener(continuation: continuation, client: client)
            state.peak = max(state.peak, state.listeners.count)
            return (id, state.recent)
        }
        guard let (id, burst) = registered else { return nil }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.listeners.removeValue(forKey: id) }
        }
        return (id, burst, stream)
    }

    /// Ends a listener's stream (the server is shutting down).
    func drop(_ id: Int) {
        let listener = state.withLockedValue { $0.listeners.removeValue(forKey: id) }
        listener?.continuation.finish()
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
        let (heard, dropped) = state.withLockedValue { state -> (Bool, [AsyncStream<ByteBuffer>.Continuation]) in
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
            var dropped: [AsyncStream<ByteBuffer>.Continuation] = []
            for (id, listener) in state.listeners {
                let behind = listener.pending + chunk.readableBytes > RadioHub.listenerBytes
                if behind {
                    dropped.append(listener.continuation)
                    state.listeners[id] = nil
                } else if case .dropped = listener.continuation.yield(chunk) {
                    dropped.append(listener.continuation)
                    state.listeners[id] = nil
                } else {
                    state.listeners[id]?.pending += chunk.readableBytes
                }
            }
            return (true, dropped)
        }
        // Finished outside the lock: finishing runs the listener's termination handler.
        for listener in dropped { listener.finish() }
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
        let listeners = state.withLockedValue { state -> [AsyncStream<ByteBuffer>.Continuation] in
            guard !state.ended else { return [] }
            state.ended = true
            if state.gathering.readableBytes > 0 {
                for listener in state.listeners.values { listener.continuation.yield(state.gathering) }
                state.gathering = ByteBuffer()
            }
            defer { state.listeners = [:] }
            return state.listeners.values.map(\.continuation)
        }
        hub.ended(self)
        for listener in listeners { listener.finish() }
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
