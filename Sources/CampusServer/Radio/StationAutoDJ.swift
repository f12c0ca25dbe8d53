import Foundation
import Listen
import Logging
import NIOConcurrencyHelpers
import Storage

/// A station's AutoDJ (issue 42): what it plays by itself whenever no source is on the air, as a
/// ``RadioFallback`` programme. Each pick reads the station's playlists and its last plays
/// (``AutoDJ/next(_:recent:at:calendar:repeatWindow:using:)`` chooses), and each track that
/// starts is written to the station's history, which the next pick reads: so whichever instance
/// plays the station after a failover goes on from the same history.
struct StationAutoDJ: Sendable {
    let database: Database
    let timeZone: TimeZone
    let logger: Logger
    let now: @Sendable () -> Date

    /// Plays a pick reads (the repeat window and "one every N" look no further back).
    static let recentPlays = 200

    /// The station's AutoDJ, or nil when no enabled playlist of it holds a track with a file. The
    /// pick that tells is the programme's first track (not chosen again).
    func programme(for station: Station) async -> RadioFallback.Programme? {
        guard let first = await next(for: station) else { return nil }
        let waiting = NIOLockedValueBox<RadioFallback.Episode?>(first)
        return RadioFallback.Programme(
            next: {
                if let first = waiting.withLockedValue({ value in
                    defer { value = nil }
                    return value
                }) {
                    return first
                }
                return await next(for: station)
            },
            started: { episode in await started(episode, on: station) },
            attempts: 5, isAutoDJ: true)
    }

    /// What the station plays next, by its playlists now.
    func next(for station: Station) async -> RadioFallback.Episode? {
        do {
            return try await database.read { db -> RadioFallback.Episode? in
                let store = RadioStore(db)
                var candidates: [AutoDJ.Candidate] = []
                for playlist in try await store.playlists(stationID: station.id) where playlist.enabled {
                    candidates.append(
                        .init(playlist: playlist, mediaIDs: try await store.playableMedia(playlist.sources)))
                }
                guard !candidates.isEmpty else { return nil }
                let recent = try await store.plays(stationID: station.id, limit: Self.recentPlays).compactMap { play in
                    play.mediaID.map { AutoDJ.Play(mediaID: $0, playlistID: play.playlistID, at: play.at) }
                }
                let listen = ListenStore(db)
                // The oldest request whose track still has a file.
                var request: RadioStore.PendingRequest?
                for pending in try await store.pendingRequests(stationID: station.id) {
                    if try await listen.mediaFile(id: pending.mediaID) != nil {
                        request = pending
                        break
                    }
                }
                var generator = SystemRandomNumberGenerator()
                guard
                    let pick = AutoDJ.next(
                        candidates, recent: recent, at: now(), calendar: calendar,
                        repeatWindow: TimeInterval(station.repeatWindowMinutes * 60), requested: request?.mediaID,
                        using: &generator)
                else { return nil }
                guard let item = try await listen.media(id: pick.mediaID),
                    let file = try await listen.mediaFile(id: pick.mediaID)
                else { return nil }
                return RadioFallback.Episode(
                    title: Self.title(of: item), path: file.path, mediaID: item.id, playlistID: pick.playlistID,
                    requestID: pick.playlistID == nil ? request?.id : nil)
            }
        } catch {
            logger.error(
                "AutoDJ cannot choose", metadata: ["mount": "\(station.mount)", "error": "\(ErrorLog.text(error))"])
            return nil
        }
    }

    /// A track starts: the station's history has it.
    func started(_ episode: RadioFallback.Episode, on station: Station) async {
        if let request = episode.requestID {
            let at = now()
            _ = try? await database.write { db in try await RadioStore(db).requestPlayed(id: request, at: at) }
        }
        await record(
            episode.title, mediaID: episode.mediaID, playlistID: episode.playlistID,
            source: episode.requestID == nil ? "autodj" : "request", on: station)
    }

    /// Writes a play into the station's history (what AutoDJ, a request or a live source played).
    func record(_ title: String, mediaID: Int64?, playlistID: Int64?, source: String, on station: Station) async {
        let at = now()
        do {
            try await database.write { db in
                try await RadioStore(db).recordPlay(
                    stationID: station.id, mediaID: mediaID, playlistID: playlistID, title: title, source: source,
                    at: at)
            }
        } catch {
            logger.warning(
                "cannot write a station's play",
                metadata: ["mount": "\(station.mount)", "error": "\(ErrorLog.text(error))"])
        }
    }

    /// "Artist - Title", as Icecast's sources say it; the title alone without an artist.
    static func title(of item: MediaItem) -> String {
        guard let author = item.author?.name, !author.isEmpty else { return item.title }
        return "\(author) - \(item.title)"
    }

    /// The Gregorian calendar in the institution's zone, where time blocks run.
    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
