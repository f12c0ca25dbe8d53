import Foundation
import Listen

/// A library file as the catalogue last saw it, to tell changed files from unchanged ones.
public struct LibraryFile: Sendable, Equatable {
    public var mediaID: Int64
    public var size: Int64
    /// Modification time in milliseconds since 1970.
    public var modified: Int64
}

/// Where a media item's bytes are.
public struct MediaFile: Sendable, Equatable {
    public var path: String
    public var size: Int64
    public var modified: Date
    public var contentType: String
}

/// One hit of a search across the catalogue.
public struct SearchHit: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case media(MediaKind)
        case parent(ParentKind)
        case author
        /// A radio station, at its mount.
        case station(mount: String)
    }
    public var kind: Kind
    public var id: Int64
    public var title: String
    /// The author's name, or the parent's title for an item (a station's genre).
    public var subtitle: String?

    public init(kind: Kind, id: Int64, title: String, subtitle: String?) {
        self.kind = kind
        self.id = id
        self.title = title
        self.subtitle = subtitle
    }
}

/// What a parent holds for the scanner to write.
public struct ParentDraft: Sendable, Equatable {
    public var kind: ParentKind
    public var title: String
    public var authorID: Int64?
    public var genreID: Int64?
    public var year: Int?
    public var description: String
    public var feedURL: String?

    public init(
        kind: ParentKind, title: String, authorID: Int64?, genreID: Int64?, year: Int?, description: String = "",
        feedURL: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.authorID = authorID
        self.genreID = genreID
        self.year = year
        self.description = description
        self.feedURL = feedURL
    }
}

/// What a media item holds for the scanner or a feed import to write.
public struct MediaDraft: Sendable, Equatable {
    public var kind: MediaKind
    public var parentID: Int64
    public var title: String
    public var authorID: Int64?
    public var genreID: Int64?
    public var disc: Int
    public var number: Int
    public var duration: Double
    public var isExplicit: Bool
    public var description: String
    public var publishedAt: Date?
    /// The file inside the library, or nil for an episode that lives at `url`.
    public var path: String?
    public var url: String?
    public var guid: String?
    public var size: Int64
    public var modified: Int64
    public var contentType: String
    public var bitrate: Int?

    public init(
        kind: MediaKind, parentID: Int64, title: String, authorID: Int64?, genreID: Int64?, disc: Int, number: Int,
        duration: Double, isExplicit: Bool, description: String, publishedAt: Date?, path: String?, url: String?,
        guid: String?, size: Int64, modified: Int64, contentType: String, bitrate: Int?
    ) {
        self.kind = kind
        self.parentID = parentID
        self.title = title
        self.authorID = authorID
        self.genreID = genreID
        self.disc = disc
        self.number = number
        self.duration = duration
        self.isExplicit = isExplicit
        self.description = description
        self.publishedAt = publishedAt
        self.path = path
        self.url = url
        self.guid = guid
        self.size = size
        self.modified = modified
        self.contentType = contentType
        self.bitrate = bitrate
    }
}
