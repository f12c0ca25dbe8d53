import Foundation

/// What a station plays by itself while no source is on the air (issue 42), as AzuraCast's AutoDJ
/// does: its rotation playlists chosen by weight, "one every N songs" playlists (jingles, station
/// IDs) when their turn comes, and time-block playlists while their block runs, never repeating a
/// track within the station's window when another can play. Pure: the plays so far, the time and
/// the calendar (the institution's zone) are given; the random choice comes from the caller's
/// generator, so a test can seed it.
public enum AutoDJ {
    /// A track that played (or was chosen to play next), and from which playlist (none for a
    /// listener's request or a live source's title).
    public struct Play: Sendable, Equatable {
        public var mediaID: Int64
        public var playlistID: Int64?
        public var at: Date

        public init(mediaID: Int64, playlistID: Int64?, at: Date) {
            self.mediaID = mediaID
            self.playlistID = playlistID
            self.at = at
        }
    }

    /// What to play next: the track and the playlist it comes from (none for a request).
    public struct Pick: Sendable, Equatable {
        public var mediaID: Int64
        public var playlistID: Int64?
    }

    /// A playlist with the tracks it holds now (resolved from its sources: those with a file).
    public struct Candidate: Sendable {
        public var playlist: RotationPlaylist
        public var mediaIDs: [Int64]

        public init(playlist: RotationPlaylist, mediaIDs: [Int64]) {
            self.playlist = playlist
            self.mediaIDs = mediaIDs
        }
    }

    /// The next track: a due "one every N songs" playlist first (the longest overdue), else the
    /// oldest listener's request (`requested`), else a time block running now (by weight among them), else the rotation (by weight); with none of
    /// those, whatever playlists there are (a station of time blocks only plays them around the
    /// clock rather than fall silent). Within the playlist, a track not played within
    /// `repeatWindow` (chosen at random), else the one played longest ago. `recent` is the
    /// station's plays, newest first; nil when no enabled playlist holds a track.
    public static func next(
        _ candidates: [Candidate], recent: [Play], at now: Date, calendar: Calendar, repeatWindow: TimeInterval,
        requested: Int64? = nil, using generator: inout some RandomNumberGenerator
    ) -> Pick? {
        let playable = candidates.filter { $0.playlist.enabled && !$0.mediaIDs.isEmpty }
        guard !playable.isEmpty else { return nil }
        let chosen: Candidate
        if let due = mostOverdue(playable, recent: recent) {
            chosen = due
        } else if let requested {
            // A listener's request comes next, after a due jingle.
            return Pick(mediaID: requested, playlistID: nil)
        } else {
            let blocks = playable.filter {
                if case .block(let block, _) = $0.playlist.rule {
                    block.contains(now, calendar: calendar)
                } else {
                    false
                }
            }
            let rotation = playable.filter { if case .rotation = $0.playlist.rule { true } else { false } }
            let pool = !blocks.isEmpty ? blocks : !rotation.isEmpty ? rotation : playable
            chosen = weighted(pool, using: &generator)
        }
        let media = track(of: chosen, recent: recent, at: now, repeatWindow: repeatWindow, using: &generator)
        return Pick(mediaID: media, playlistID: chosen.playlist.id)
    }

    /// The "one every N songs" playlist whose turn is most overdue: songs (plays from the other
    /// playlists, requests and live titles) since it last played, at least N. One never played
    /// counts every song in `recent`.
    static func mostOverdue(_ playable: [Candidate], recent: [Play]) -> Candidate? {
        let everyIDs = Set(
            playable.compactMap { candidate -> Int64? in
                if case .every = candidate.playlist.rule { candidate.playlist.id } else { nil }
            })
        guard !everyIDs.isEmpty else { return nil }
        var best: (candidate: Candidate, overdue: Int)?
        for candidate in playable {
            guard case .every(let songs) = candidate.playlist.rule else { continue }
            var since = 0
            for play in recent {
                if play.playlistID == candidate.playlist.id { break }
                if let id = play.playlistID, everyIDs.contains(id) { continue }
                since += 1
            }
            let overdue = since - songs
            if overdue >= 0, overdue > best?.overdue ?? -1 { best = (candidate, overdue) }
        }
        return best?.candidate
    }

    /// One of `pool`, each as likely as its weight (a playlist without one weighs 1).
    static func weighted(_ pool: [Candidate], using generator: inout some RandomNumberGenerator) -> Candidate {
        let weights = pool.map { max(1, $0.playlist.rule.weight) }
        var roll = Int.random(in: 0..<weights.reduce(0, +), using: &generator)
        for (candidate, weight) in zip(pool, weights) {
            if roll < weight { return candidate }
            roll -= weight
        }
        return pool[pool.count - 1]
    }

    /// A track of the playlist not played within the window (at random), else the one whose last
    /// play is the oldest.
    static func track(
        of candidate: Candidate, recent: [Play], at now: Date, repeatWindow: TimeInterval,
        using generator: inout some RandomNumberGenerator
    ) -> Int64 {
        // Each track's last play: when, and how many plays ago (times of a second's precision tie).
        var lastPlayed: [Int64: (at: Date, ago: Int)] = [:]
        for (ago, play) in recent.enumerated() where lastPlayed[play.mediaID] == nil {
            lastPlayed[play.mediaID] = (play.at, ago)
        }
        let since = now.addingTimeInterval(-repeatWindow)
        let fresh = candidate.mediaIDs.filter { (lastPlayed[$0]?.at ?? .distantPast) < since }
        if let media = fresh.randomElement(using: &generator) { return media }
        return candidate.mediaIDs.max { (lastPlayed[$0]?.ago ?? .max) < (lastPlayed[$1]?.ago ?? .max) }
            ?? candidate.mediaIDs[0]
    }
}
