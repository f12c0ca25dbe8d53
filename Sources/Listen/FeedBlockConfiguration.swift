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

    /// What fills a block: the newest parents of a kind, a genre's parents, a system playlist,
    /// the genres, the first parent the listener has not rated, the radio stations (of the
    /// listener's radio region when it has stations), or (for `ad` and `banner`) the block's own
    /// title and link.
    public enum Source: Sendable, Equatable, Hashable {
        case newest(ParentKind)
        case genre(Int64)
        case system(SystemPlaylist)
        case genres
        case unrated
        case stations
        case link

        public init?(_ text: String) {
            switch text {
            case "genres": self = .genres
            case "unrated": self = .unrated
            case "stations": self = .stations
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
            case .stations: "stations"
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
            throw PlayerError(field: "title", detail: "A block has a title of 1 to 200 characters.")
        }
        guard let source = Source(source) else {
            throw PlayerError(
                field: "source",
                detail:
                    "“{source}” is not a source: newest:album (or podcast, audiobook, programme), genre:ID, recently_played, most_played, recommended, genres, unrated, stations or link.",
                ["source": String(source.prefix(40))])
        }
        guard Self.itemLimit.contains(limit) else {
            throw PlayerError(field: "limit", detail: "A block shows 1 to 50 items.")
        }
        if source == .link {
            guard let link, link.hasPrefix("https://") || link.hasPrefix("http://") || link.hasPrefix("/"),
                link.count <= 2000
            else {
                throw PlayerError(
                    field: "link", detail: "An ad or banner links to an http(s) address or a Campus page.")
            }
        } else {
            block.link = nil
        }
        return block
    }
}
