import Foundation
import ServiceLifecycle
import Storage

/// LiveRadio's background work: renewing this instance's announcements, following what the holders of other mounts say, and, at shutdown,
/// ending every broadcast so that listeners' streams end and the mounts are free.
extension LiveRadio {
    func run() async throws {
        var idleRelays: [String: Int] = [:]
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.renewal) }
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { break }
            await renew(idleRelays: &idleRelays)
            await writeSessions()
            hls.sweep()
        }
        await stopAll()
    }

    /// One round: held mounts renewed (and told what another instance heard the source say),
    /// relays checked against their holders, followers of mounts held elsewhere told of changes.
    func renew(idleRelays: inout [String: Int]) async {
        let broadcasts = hub.broadcasts
        let held = broadcasts.filter { $0.feed != .relay }
        let instance = self.instance
        let now = now()
        if !held.isEmpty {
            let mounts = held.map(\.station.mount)
            let lost =
                (try? await database.write { db in
                    try await RadioStore(db).renew(instance: instance, mounts: mounts, now: now)
                }) ?? []
            for broadcast in held {
                let mount = broadcast.station.mount
                let titleChanges = broadcast.titleChanges
                if lost.contains(mount) {
                    // Another instance holds the mount now (a source connected there, or this
                    // instance was taken for lost): what plays here gives way, and the listeners
                    // here hear that instance through a relay (a source here is let go: one at a time).
                    if let holder = await announcement(of: mount), holder.instance != instance {
                        relay(broadcast.station, from: holder, joining: true)
                    } else if broadcast.feed == .fallback {
                        stopFeeds(mount)
                        broadcast.finish()
                    }
                } else if let said = await announcement(of: mount)?.title, said != broadcast.title,
                    broadcast.feed == .source
                {
                    // Said to another instance; not if it was said here while this was read.
                    broadcast.setTitle(said, ifUnchangedSince: titleChanges)
                }
            }
        }
        for broadcast in broadcasts where broadcast.feed == .relay {
            let mount = broadcast.station.mount
            guard let holder = await announcement(of: mount), holder.instance != instance else {
                // The holder's heartbeat stopped: taken over unless it answers (LiveRadio+Failover).
                await holderSilent(broadcast)
                continue
            }
            broadcast.setTitle(holder.title)
            idleRelays[mount] = broadcast.listenerCount == 0 ? idleRelays[mount, default: 0] + 1 : 0
            if idleRelays[mount, default: 0] >= Self.relayIdleRounds {
                // Nobody listens here: the relay stops until somebody does.
                stopFeeds(mount)
                broadcast.finish()
                idleRelays[mount] = nil
            }
        }
        await endLongSilences()
        for mount in hub.followedMounts where hub.broadcast(mount: mount) == nil {
            let holder = await announcement(of: mount)
            let heard = holder.map { "\($0.instance) \($0.live) \($0.title)" } ?? ""
            let before = rememberHeard(mount, heard)
            if before != heard { hub.changed(mount) }
        }
    }

    /// Rounds a relay nobody listens to here goes on (a player reconnecting finds it): 6 seconds.
    static let relayIdleRounds = 12

    /// Ends every broadcast here and frees its mount, once the work sources left is done.
    func stopAll() async {
        await finishWork()
        hls.sweep(all: true)
        for broadcast in hub.broadcasts {
            let mount = broadcast.station.mount
            stopFeeds(mount)
            broadcast.finish()
            if broadcast.feed != .relay { await withdrawMount(mount) }
        }
        // The listeners' sessions that ended meanwhile (their streams end as the broadcasts do).
        try? await Task.sleep(for: .milliseconds(100))
        await writeSessions()
    }
}
