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

/// A campus radio station (seed 001): one live broadcast at its mount, which a source (ffmpeg,
/// butt, Mixxx, liquidsoap) sends to as to Icecast with the station's own password, and listeners
/// hear at `/radio/{mount}`.
public struct Station: Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// The path part after `/radio/`: `campus`, `live.mp3`.
    public var mount: String
    public var description: String
    public var genre: String
    /// The radio region it is for (the listener's radio region setting picks it).
    public var region: String
    /// The most listeners at once; the next one is turned away (503).
    public var listenerLimit: Int
    /// The radio programme its broadcasts are recorded into and its fallback plays from.
    public var programmeID: Int64?
    /// Whether each broadcast becomes a new episode of the programme.
    public var recordsBroadcasts: Bool
    /// How long AutoDJ waits before it plays a track again (when another can play).
    public var repeatWindowMinutes: Int

    public init(
        id: Int64, name: String, mount: String, description: String = "", genre: String = "", region: String = "",
        listenerLimit: Int = Station.defaultListenerLimit, programmeID: Int64? = nil, recordsBroadcasts: Bool = false,
        repeatWindowMinutes: Int = Station.defaultRepeatWindow
    ) {
        self.id = id
        self.name = name
        self.mount = mount
        self.description = description
        self.genre = genre
        self.region = region
        self.listenerLimit = listenerLimit
        self.programmeID = programmeID
        self.recordsBroadcasts = recordsBroadcasts
        self.repeatWindowMinutes = repeatWindowMinutes
    }

    public static let defaultListenerLimit = 1000
    public static let defaultRepeatWindow = 60
    /// Minutes: none up to a week.
    public static let repeatWindows = 0...10080
    public static let listenerLimits = 1...100_000
    public static let nameLength = 100
    public static let descriptionLength = 2000
    public static let genreLength = 100
    public static let regionLength = 100
    /// A source password's length: long enough not to be guessed over the network.
    public static let passwordLengths = 8...200

    /// What a source says is playing (`/admin/metadata?…&song=`), as the station keeps and shows
    /// it: a title of one line, as long as the catalogue's titles (it names the recorded
    /// episode), its control characters and noncharacters left out rather than refused
    /// (``TextRules/cleaned(_:limit:)``).
    public static func nowPlaying(said: some StringProtocol) -> String {
        TextRules.cleaned(said, limit: CatalogueLimits.title)
    }

    /// Whether `mount` is one a station may have: 1 to 64 lower-case letters, digits, `.`, `-`
    /// and `_`, starting with a letter or digit (Icecast's mounts without the slash).
    public static func isMount(_ mount: String) -> Bool {
        let bytes = Array(mount.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        func allowed(_ byte: UInt8, first: Bool) -> Bool {
            (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || (!first && (byte == 0x2E || byte == 0x2D || byte == 0x5F))
        }
        return bytes.enumerated().allSatisfy { allowed($0.element, first: $0.offset == 0) }
    }
}
