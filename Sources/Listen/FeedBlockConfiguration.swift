import Foundation
import InputRules

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
        /// Radio stations, each to play live.
        case stations
    }

    /// What fills a block: the newest parents of a kind, a genre's or an author's parents, a
    /// parent's items (numbered), a system playlist, the system playlists themselves, the
    /// genres, the first parent the listener has not rated, the radio stations (of the
    /// listener's radio region when it has stations), the picks screen (the recommendations'
    /// banner), or (for `ad` and `banner`) the block's own title and link.
    public enum Source: Sendable, Equatable, Hashable {
        case newest(ParentKind)
        case genre(Int64)
        case author(Int64)
        case items(Int64)
        case system(SystemPlaylist)
        case playlists
        case genres
        case unrated
        case stations
        case picks
        case link

        public init?(_ text: String) {
            switch text {
            case "genres": self = .genres
            case "unrated": self = .unrated
            case "stations": self = .stations
            case "link": self = .link
            case "playlists": self = .playlists
            case "picks": self = .picks
            default:
                if let system = SystemPlaylist(rawValue: text) {
                    self = .system(system)
                } else if text.hasPrefix("newest:"), let kind = ParentKind(rawValue: String(text.dropFirst(7))) {
                    self = .newest(kind)
                } else if text.hasPrefix("genre:"), let id = Int64(text.dropFirst(6)), id > 0 {
                    self = .genre(id)
                } else if text.hasPrefix("author:"), let id = Int64(text.dropFirst(7)), id > 0 {
                    self = .author(id)
                } else if text.hasPrefix("items:"), let id = Int64(text.dropFirst(6)), id > 0 {
                    self = .items(id)
                } else {
                    return nil
                }
            }
        }

        public var text: String {
            switch self {
            case .newest(let kind): "newest:\(kind.rawValue)"
            case .genre(let id): "genre:\(id)"
            case .author(let id): "author:\(id)"
            case .items(let id): "items:\(id)"
            case .system(let playlist): playlist.rawValue
            case .playlists: "playlists"
            case .picks: "picks"
            case .genres: "genres"
            case .unrated: "unrated"
            case .stations: "stations"
            case .link: "link"
            }
        }
    }

    public var type: BlockType
    /// The title; an `ad` may have none (its banner says it all).
    public var title: String
    /// A short line over the title that sets the block apart (seed 001's `BlockTitle.highlight`:
    /// “Popular”, “New”), or nil.
    public var highlight: String?
    public var source: String
    public var limit: Int
    /// Where an `ad` or `banner` leads.
    public var link: String?
    /// A sentence under the title (a `background` block's, or any block's).
    public var description: String?
    /// An image an admin uploaded (``FeedBlockConfiguration/imageID``): a `background` block's
    /// background, an `ad`'s banner.
    public var imageID: Int64?
    /// Where the title leads (`list_title_link`): an author, a genre, a parent (`author:5`,
    /// `genre:3`, `album:2`) or a Campus page; nil: what the source names.
    public var titleLink: String?

    public init(
        type: BlockType, title: String, highlight: String? = nil, source: String, limit: Int = 8,
        link: String? = nil, description: String? = nil, imageID: Int64? = nil, titleLink: String? = nil
    ) {
        self.type = type
        self.title = title
        self.highlight = highlight
        self.source = source
        self.limit = limit
        self.link = link
        self.description = description
        self.imageID = imageID
        self.titleLink = titleLink
    }

    public static let blockLimit = 30
    public static let itemLimit = 1...50

    /// Checks a block: a known source, a title (an ad may go without), a sensible size, a link
    /// for ads and banners, a title link that names something.
    public func validated() throws(PlayerError) -> FeedBlockConfiguration {
        var block = self
        block.title = TextRules.trimmed(title)
        guard !block.title.isEmpty || type == .ad, block.title.count <= 200 else {
            throw PlayerError(field: "title", detail: "A block has a title of 1 to 200 characters.")
        }
        block.highlight = Self.trimmed(highlight)
        guard (block.highlight?.count ?? 0) <= 60 else {
            throw PlayerError(field: "highlight", detail: "A highlight has at most 60 characters.")
        }
        block.description = Self.trimmed(description)
        guard (block.description?.count ?? 0) <= 300 else {
            throw PlayerError(field: "description", detail: "A description has at most 300 characters.")
        }
        guard let source = Source(source) else {
            throw PlayerError(
                field: "source",
                detail:
                    "“{source}” is not a source: newest:album (or podcast, audiobook, programme), genre:ID, author:ID, items:ID, recently_played, most_played, recommended, playlists, genres, unrated, stations, picks or link.",
                ["source": String(source.prefix(40))])
        }
        guard Self.itemLimit.contains(limit) else {
            throw PlayerError(field: "limit", detail: "A block shows 1 to 50 items.")
        }
        if source == .link {
            guard let link = Self.trimmed(link), LinkRules.isLink(link) else {
                throw PlayerError(
                    field: "link", detail: "An ad or banner links to an http(s) address or a Campus page.")
            }
            block.link = link
        } else {
            block.link = nil
        }
        block.titleLink = Self.trimmed(titleLink)
        if let titleLink = block.titleLink, !LinkRules.isSitePath(titleLink) {
            switch Reference(titleLink) {
            case .author, .parent: break
            default:
                guard titleLink.hasPrefix("genre:"), let id = Int64(titleLink.dropFirst(6)), id > 0 else {
                    throw PlayerError(
                        field: "titleLink",
                        detail:
                            "A title links to an author, a genre or an album (author:5, genre:3, album:2) or a Campus page."
                    )
                }
            }
        }
        return block
    }

    private static func trimmed(_ text: String?) -> String? {
        guard let text = text.map({ TextRules.trimmed($0) }), !text.isEmpty else { return nil }
        return text
    }
}
