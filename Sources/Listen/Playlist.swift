import Foundation
import InputRules

/// Playlists Campus makes from each listener's listening (seed 001's recommendations).
public enum SystemPlaylist: String, Sendable, CaseIterable, Codable {
    /// The items played last, newest first.
    case recentlyPlayed = "recently_played"
    /// The items played most often.
    case mostPlayed = "most_played"
    /// Items by the authors and in the genres the listener liked, not yet played.
    case recommended

    public var title: String {
        switch self {
        case .recentlyPlayed: "Recently played"
        case .mostPlayed: "Most played"
        case .recommended: "Recommended for you"
        }
    }

    /// What the playlist holds, in a sentence (a feed shows it under the title).
    public var summary: String {
        switch self {
        case .recentlyPlayed: "What you played last, the newest first."
        case .mostPlayed: "What you come back to most."
        case .recommended: "New to you: from the genres and authors you picked, liked and listened to."
        }
    }
}

/// A listener's own playlist, of one kind of item.
public struct Playlist: Sendable, Equatable {
    public var id: Int64
    public var ownerID: Int64
    public var kind: MediaKind
    public var name: String
    public var itemCount: Int
    public var updatedAt: Date
    /// Readable by anyone with its link, also without an account; only its owner changes it.
    public var isPublic: Bool
    /// Its items' durations together, in seconds.
    public var duration: Double

    /// What an empty name becomes (seed 001: «Новый плейлист»).
    public static let defaultName = "New playlist"
    public static let nameLimit = 100
    public static let capacity = 5000

    public init(
        id: Int64, ownerID: Int64, kind: MediaKind, name: String, itemCount: Int, updatedAt: Date,
        isPublic: Bool = false, duration: Double = 0
    ) {
        self.duration = duration
        self.id = id
        self.ownerID = ownerID
        self.kind = kind
        self.name = name
        self.itemCount = itemCount
        self.updatedAt = updatedAt
        self.isPublic = isPublic
    }

    /// The name a playlist gets: trimmed, "New playlist" when empty.
    public static func name(_ text: String?) throws(PlayerError) -> String {
        let name = TextRules.trimmed(text ?? "")
        guard name.unicodeScalars.count <= nameLimit else {
            throw PlayerError(
                field: "name", detail: "A playlist name has at most {maximum} characters.",
                ["maximum": String(nameLimit)])
        }
        guard !name.containsControlCharacters else {
            throw PlayerError(field: "name", detail: "A playlist name cannot contain control characters.")
        }
        return name.isEmpty ? defaultName : name
    }
}
