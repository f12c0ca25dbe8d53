import Foundation
import NIOConcurrencyHelpers

/// What players said they are playing (`scrobble` with `submission=false`), for getNowPlaying:
/// the last item of each listener and player, kept in this instance for ten minutes.
final class SubsonicNowPlaying: Sendable {
    struct Entry: Sendable {
        var userID: Int64
        var username: String
        var player: String
        var mediaID: Int64
        var at: Date
    }

    static let lifetime: TimeInterval = 600
    static let capacity = 10_000
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    func playing(_ entry: Entry) {
        entries.withLockedValue { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { entry.at.timeIntervalSince($0.value.at) < Self.lifetime }
            }
            if entries.count < Self.capacity { entries["\(entry.userID)\u{0}\(entry.player)"] = entry }
        }
    }

    func current(now: Date) -> [Entry] {
        entries.withLockedValue { entries in
            entries = entries.filter { now.timeIntervalSince($0.value.at) < Self.lifetime }
            return entries.values.sorted { $0.at > $1.at }
        }
    }
}
