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
