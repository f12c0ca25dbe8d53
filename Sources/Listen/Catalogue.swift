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
