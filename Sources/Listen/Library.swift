import Foundation
import InputRules

/// Who made an item: an artist, a podcast's host, a book's author or reader.
public struct Author: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// A genre, as the tags name it.
public struct Genre: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// An album, podcast, audiobook or radio programme: what holds playable items in order.
public struct Parent: Sendable, Equatable {
    public var id: Int64
    public var kind: ParentKind
    public var title: String
    public var author: Author?
    public var genre: Genre?
    public var year: Int?
    public var description: String
    /// The podcast's own feed, for podcasts imported from RSS.
    public var feedURL: String?
    /// Whether a cover image is kept for it.
    public var hasCover: Bool
    public var itemCount: Int
    public var duration: Double
    public var updatedAt: Date

    public init(
        id: Int64, kind: ParentKind, title: String, author: Author? = nil, genre: Genre? = nil, year: Int? = nil,
        description: String = "", feedURL: String? = nil, hasCover: Bool = false, itemCount: Int = 0,
        duration: Double = 0, updatedAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.author = author
        self.genre = genre
        self.year = year
        self.description = description
        self.feedURL = feedURL
        self.hasCover = hasCover
        self.itemCount = itemCount
        self.duration = duration
        self.updatedAt = updatedAt
    }
}

/// A playable item: a track, podcast episode, audiobook chapter or programme episode.
public struct MediaItem: Sendable, Equatable {
    public var id: Int64
    public var kind: MediaKind
    public var parentID: Int64
    public var parentTitle: String
    public var title: String
    public var author: Author?
    public var genre: Genre?
    public var disc: Int
    /// The place in its parent (track number, episode or chapter number); 0 when unknown.
    public var number: Int
    /// Seconds.
    public var duration: Double
    public var isExplicit: Bool
    public var description: String
    public var publishedAt: Date?
    public var contentType: String
    public var size: Int64
    /// Kilobits per second, when known.
    public var bitrate: Int?
    public var hasCover: Bool
    public var updatedAt: Date

    public init(
        id: Int64, kind: MediaKind, parentID: Int64, parentTitle: String, title: String, author: Author? = nil,
        genre: Genre? = nil, disc: Int = 1, number: Int = 0, duration: Double, isExplicit: Bool = false,
        description: String = "", publishedAt: Date? = nil, contentType: String, size: Int64, bitrate: Int? = nil,
        hasCover: Bool = false, updatedAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.parentID = parentID
        self.parentTitle = parentTitle
        self.title = title
        self.author = author
        self.genre = genre
        self.disc = disc
        self.number = number
        self.duration = duration
        self.isExplicit = isExplicit
        self.description = description
        self.publishedAt = publishedAt
        self.contentType = contentType
        self.size = size
        self.bitrate = bitrate
        self.hasCover = hasCover
        self.updatedAt = updatedAt
    }
}

/// A radio station (metadata only; its live broadcast is a separate feature).
public struct Station: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var region: String
    public var description: String

    public init(id: Int64, name: String, region: String, description: String = "") {
        self.id = id
        self.name = name
        self.region = region
        self.description = description
    }
}

/// What a listener's queue, a playlist or a `play` action refers to: an item, a parent, an
/// author, a playlist or a system playlist, written `kind:id` (`album:3`, `track:12`,
/// `playlist:5`, `author:2`) or by a system playlist's name (`recently_played`).
public enum Reference: Sendable, Hashable, CustomStringConvertible {
    case media(Int64)
    case parent(ParentKind, Int64)
    case author(Int64)
    case playlist(Int64)
    case system(SystemPlaylist)

    public init?(_ text: String) {
        if let system = SystemPlaylist(rawValue: text) {
            self = .system(system)
            return
        }
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[1].count <= 18, let id = Int64(parts[1]), id > 0 else { return nil }
        let kind = String(parts[0])
        if kind == "media" || MediaKind(rawValue: kind) != nil {
            self = .media(id)
        } else if let parent = ParentKind(rawValue: kind) {
            self = .parent(parent, id)
        } else if kind == "author" {
            self = .author(id)
        } else if kind == "playlist" {
            self = .playlist(id)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .media(let id): "media:\(id)"
        case .parent(let kind, let id): "\(kind.rawValue):\(id)"
        case .author(let id): "author:\(id)"
        case .playlist(let id): "playlist:\(id)"
        case .system(let playlist): playlist.rawValue
        }
    }
}

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
}

/// A listener's own playlist, of one kind of item.
public struct Playlist: Sendable, Equatable {
    public var id: Int64
    public var ownerID: Int64
    public var kind: MediaKind
    public var name: String
    public var itemCount: Int
    public var updatedAt: Date

    /// What an empty name becomes (seed 001: «Новый плейлист»).
    public static let defaultName = "New playlist"
    public static let nameLimit = 100
    public static let capacity = 5000

    public init(id: Int64, ownerID: Int64, kind: MediaKind, name: String, itemCount: Int, updatedAt: Date) {
        self.id = id
        self.ownerID = ownerID
        self.kind = kind
        self.name = name
        self.itemCount = itemCount
        self.updatedAt = updatedAt
    }

    /// The name a playlist gets: trimmed, "New playlist" when empty.
    public static func name(_ text: String?) throws(PlayerError) -> String {
        let name = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.unicodeScalars.count <= nameLimit else {
            throw PlayerError(field: "name", "A playlist name has at most \(nameLimit) characters.")
        }
        guard !name.containsControlCharacters else {
            throw PlayerError(field: "name", "A playlist name cannot contain control characters.")
        }
        return name.isEmpty ? defaultName : name
    }
}

/// A listener's ratings of a parent: 1 to 5 stars.
public struct RatingSummary: Sendable, Equatable {
    public var average: Double?
    public var count: Int
    public var mine: Int?

    public init(average: Double?, count: Int, mine: Int?) {
        self.average = average
        self.count = count
        self.mine = mine
    }

    public static let stars = 1...5
}

/// A listener's settings (seed 001's settings screen).
public struct ListenSettings: Sendable, Equatable, Codable {
    public enum SoundQuality: String, Sendable, Codable, CaseIterable {
        /// The file as it is.
        case original
        case high
        case normal
        case low

        /// The MP3 bitrate a stream is transcoded to, in kbit/s; nil plays the original file.
        public var bitrate: Int? {
            switch self {
            case .original: nil
            case .high: 192
            case .normal: 128
            case .low: 64
            }
        }
    }

    public var soundQuality: SoundQuality
    /// When the queue ends, play similar items (same authors and genres) rather than stop.
    public var endlessQueue: Bool
    public var skipExplicit: Bool
    public var radioRegion: String

    public init(
        soundQuality: SoundQuality = .original, endlessQueue: Bool = false, skipExplicit: Bool = false,
        radioRegion: String = ""
    ) {
        self.soundQuality = soundQuality
        self.endlessQueue = endlessQueue
        self.skipExplicit = skipExplicit
        self.radioRegion = radioRegion
    }
}

/// A listener's comment on an album, podcast, audiobook or programme.
public struct Comment: Sendable, Equatable {
    public var id: Int64
    public var parentID: Int64
    public var authorID: Int64
    public var authorName: String
    public var body: String
    public var createdAt: Date

    public init(id: Int64, parentID: Int64, authorID: Int64, authorName: String, body: String, createdAt: Date) {
        self.id = id
        self.parentID = parentID
        self.authorID = authorID
        self.authorName = authorName
        self.body = body
        self.createdAt = createdAt
    }

    public static let lengthLimit = 2000

    /// The text of a new comment: trimmed, not empty, at most 2,000 characters.
    public static func body(_ text: String) throws(PlayerError) -> String {
        let body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextRules.firstControl(in: body, multiline: true) == nil else {
            throw PlayerError(field: "body", "A comment cannot contain control characters.")
        }
        guard !body.isEmpty else { throw PlayerError(field: "body", "Write something first.") }
        guard body.unicodeScalars.count <= lengthLimit else {
            throw PlayerError(field: "body", "A comment has at most \(lengthLimit) characters.")
        }
        return body
    }
}

/// A block of the home feed as an admin configures it (seed 001's table 3).
public struct FeedBlockConfiguration: Sendable, Equatable, Codable {
    public enum BlockType: String, Sendable, Codable, CaseIterable {
        case listSquare = "list_square"
        case listRectangular = "list_rectangular"
        case listTitleLink = "list_title_link"
        case gridFourSquares = "grid_four_squares"
        case track
        case rating
        case ad
        case banner
        case genres
        case background
    }

    /// What fills a block: the newest parents of a kind, a genre's parents, a system playlist,
    /// the genres, the first parent the listener has not rated, or (for `ad` and `banner`) the
    /// block's own title and link.
    public enum Source: Sendable, Equatable, Hashable {
        case newest(ParentKind)
        case genre(Int64)
        case system(SystemPlaylist)
        case genres
        case unrated
        case link

        public init?(_ text: String) {
            switch text {
            case "genres": self = .genres
            case "unrated": self = .unrated
            case "link": self = .link
            default:
                if let system = SystemPlaylist(rawValue: text) {
                    self = .system(system)
                } else if text.hasPrefix("newest:"), let kind = ParentKind(rawValue: String(text.dropFirst(7))) {
                    self = .newest(kind)
                } else if text.hasPrefix("genre:"), let id = Int64(text.dropFirst(6)), id > 0 {
                    self = .genre(id)
                } else {
                    return nil
                }
            }
        }

        public var text: String {
            switch self {
            case .newest(let kind): "newest:\(kind.rawValue)"
            case .genre(let id): "genre:\(id)"
            case .system(let playlist): playlist.rawValue
            case .genres: "genres"
            case .unrated: "unrated"
            case .link: "link"
            }
        }
    }

    public var type: BlockType
    public var title: String
    public var highlight: Bool
    public var source: String
    public var limit: Int
    /// Where an `ad` or `banner` leads.
    public var link: String?

    public init(
        type: BlockType, title: String, highlight: Bool = false, source: String, limit: Int = 8, link: String? = nil
    ) {
        self.type = type
        self.title = title
        self.highlight = highlight
        self.source = source
        self.limit = limit
        self.link = link
    }

    public static let blockLimit = 30
    public static let itemLimit = 1...50

    /// Checks a block: a known source, a title, a sensible size, a link for ads and banners.
    public func validated() throws(PlayerError) -> FeedBlockConfiguration {
        var block = self
        block.title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !block.title.isEmpty, block.title.count <= 200 else {
            throw PlayerError(field: "title", "A block has a title of 1 to 200 characters.")
        }
        guard let source = Source(source) else {
            throw PlayerError(
                field: "source",
                "“\(source.prefix(40))” is not a source: newest:album (or podcast, audiobook, programme), genre:ID, recently_played, most_played, recommended, genres, unrated or link."
            )
        }
        guard Self.itemLimit.contains(limit) else { throw PlayerError(field: "limit", "A block shows 1 to 50 items.") }
        if source == .link {
            guard let link, link.hasPrefix("https://") || link.hasPrefix("http://") || link.hasPrefix("/"),
                link.count <= 2000
            else { throw PlayerError(field: "link", "An ad or banner links to an http(s) address or a Campus page.") }
        } else {
            block.link = nil
        }
        return block
    }
}
