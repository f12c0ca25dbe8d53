import CampusHTTP
import Foundation
import Listen
import NIOConcurrencyHelpers
import NIOCore

/// The stations on the air in this instance: each live broadcast takes its source's audio and
/// hands it to every listener. A listener that cannot keep up is dropped when its bounded buffer
/// is full; it never slows the source or the others.
final class RadioHub: Sendable {
    private let live = NIOLockedValueBox<[String: Broadcast]>([:])
    /// Who follows a mount's changes (on the air, off, a new title): mount and notice, by id.
    private let watchers = NIOLockedValueBox<(next: Int, all: [Int: (String, AsyncStream<Void>.Continuation)])>(
        (0, [:]))

    /// The audio a new listener gets at once, so that playback starts without waiting.
    static let burstBytes = 64 << 10
    /// Bytes a listener may fall behind by before it is dropped: Icecast's default queue size,
    /// half a minute at 128 kbit/s.
    static let listenerBytes = 512 << 10
    /// Chunks a listener may fall behind by (a second bound, for sources that send tiny chunks).
    static let listenerBuffer = 1024
    /// A source's audio goes out in chunks of at least this size: MP3 sources send frame by
    /// frame (400 bytes at 128 kbit/s), and every chunk costs each listener a write (8 KiB is half
    /// a second at 128 kbit/s: the delay a listener hears in any case is the burst's 4 seconds).
    static let chunkBytes = 8192

    /// The broadcast a new feed takes over: a new one when the mount has none; the one on the
    /// air when it is fed by a fallback or relay (its listeners stay) and carries the same
    /// content type (a different one ends it first: its listeners could not decode the new
    /// audio); nil when a source feeds it (one source at a time). Returns the feed's token too.
    func take(_ station: Station, contentType: String, feed: Broadcast.Feed) -> (Broadcast, token: Int)? {
        let (taken, ending) = live.withLockedValue { live -> ((Broadcast, Int)?, Broadcast?) in
            var ending: Broadcast?
            if let current = live[station.mount] {
                if current.feed == .source, feed == .source { return (nil, nil) }
                if current.contentType == contentType, let token = current.attach(feed) {
                    return ((current, token), nil)
                }
                ending = current
            }
            let broadcast = Broadcast(station: station, contentType: contentType, feed: feed, hub: self)
            live[station.mount] = broadcast
            return ((broadcast, broadcast.feedToken), ending)
        }
        ending?.finish()
        if taken != nil { changed(station.mount) }
        return taken
    }

    /// Every broadcast on the air here.
    var broadcasts: [Broadcast] { live.withLockedValue { Array($0.values) } }

    /// The mounts somebody follows (the API's live stream of a station).
    var followedMounts: Set<String> { watchers.withLockedValue { Set($0.all.values.map(\.0)) } }

    /// A notice whenever the station at `mount` goes on or off the air or says a new title.
    func changes(of mount: String) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = watchers.withLockedValue { watchers in
            let id = watchers.next
            watchers.next += 1
            watchers.all[id] = (mount, continuation)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.watchers.withLockedValue { $0.all.removeValue(forKey: id) }
        }
        return stream
    }

    func changed(_ mount: String) {
        let notified = watchers.withLockedValue { $0.all.values.filter { $0.0 == mount }.map(\.1) }
        for watcher in notified { watcher.yield() }
    }

    /// The broadcast at a mount, while it is on the air.
    func broadcast(mount: String) -> Broadcast? {
        live.withLockedValue { $0[mount] }
    }

    func ended(_ broadcast: Broadcast) {
        live.withLockedValue { live in
            if live[broadcast.station.mount] === broadcast { live[broadcast.station.mount] = nil }
        }
        changed(broadcast.station.mount)
    }
}
