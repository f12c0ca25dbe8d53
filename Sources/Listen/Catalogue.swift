import Foundation

/// What a playable item is (seed 001's four kinds of audio file).
public enum MediaKind: String, Sendable, Codable, CaseIterable {
    case track
    case podcastEpisode = "podcast_episode"
    case audiobookChapter = "audiobook_chapter"
    case programmeEpisode = "programme_episode"

    /// The kind of the item's parent: album, podcast, audiobook or radio programme.
    public var parent: ParentKind {
        switch self {
        case .track: .album
        case .podcastEpisode: .podcast
        case .audiobookChapter: .audiobook
        case .programmeEpisode: .programme
        }
    }

    /// Spoken content gets playback speed and resumes where the listener stopped; music does not.
    public var isSpoken: Bool { self != .track }

    /// The kind a scanned file has, from the folders it is in (nearest first wins) or else its
    /// genre tag: "Podcasts/…", "Audiobooks/…", "Radio/…" or "Lectures/…" folders, or a genre
    /// of Podcast, Audiobook, Speech or Radio. Everything else is music.
    public static func detect(folders: [String], genre: String?) -> MediaKind {
        for folder in folders.reversed() {
            if let kind = kind(named: folder) { return kind }
        }
        return genre.flatMap(kind(named:)) ?? .track
    }

    private static func kind(named name: String) -> MediaKind? {
        switch name.lowercased().trimmingCharacters(in: .whitespaces) {
        case "podcast", "podcasts": .podcastEpisode
        case "audiobook", "audiobooks", "audio book", "audio books", "speech": .audiobookChapter
        case "radio", "programmes", "programs", "lectures", "lecture recordings": .programmeEpisode
        default: nil
        }
    }
}

/// What holds playable items in order.
public enum ParentKind: String, Sendable, Codable, CaseIterable {
    case album, podcast, audiobook, programme
}

/// The sizes cover images are served in (seed 001).
public enum ImageSize: String, Sendable, Codable, CaseIterable {
    case thumbnail, medium, large, original

    /// The longest side in pixels; nil for the original file.
    public var pixels: Int? {
        switch self {
        case .thumbnail: 96
        case .medium: 300
        case .large: 800
        case .original: nil
        }
    }
}

/// The sleep timer of the big player: it pauses playback after a number of minutes or at the
/// end of the current item. Live radio has no timer, and skipping or going back cancels it.
public struct SleepTimer: Sendable, Equatable, Codable {
    public enum Choice: Sendable, Equatable, Codable {
        case minutes(Int)
        case endOfItem
    }

    /// The choices the seed offers.
    public static let minuteChoices = [5, 10, 15, 30, 45, 60]

    public var choice: Choice
    public var startedAt: Date

    public init(_ choice: Choice, startedAt: Date, isLiveRadio: Bool) throws(PlayerError) {
        guard !isLiveRadio else { throw PlayerError(field: "timer", "Live radio has no sleep timer.") }
        if case .minutes(let minutes) = choice, !Self.minuteChoices.contains(minutes) {
            throw PlayerError(field: "timer", "A sleep timer runs 5, 10, 15, 30, 45 or 60 minutes.")
        }
        self.choice = choice
        self.startedAt = startedAt
    }

    /// When the timer pauses playback, for a timer of minutes.
    public var endsAt: Date? {
        guard case .minutes(let minutes) = choice else { return nil }
        return startedAt.addingTimeInterval(TimeInterval(minutes * 60))
    }

    /// Whether playback pauses now: the time is up, or the current item just ended.
    public func pauses(now: Date, itemEnded: Bool) -> Bool {
        switch choice {
        case .minutes: endsAt.map { now >= $0 } ?? false
        case .endOfItem: itemEnded
        }
    }

    /// Whether the listener's own step to another item cancels the timer.
    public static func isCancelled(by action: PlayerAction) -> Bool {
        switch action {
        case .trackSkip, .trackPrev, .trackChange, .play, .clearQueue: true
        default: false
        }
    }
}
