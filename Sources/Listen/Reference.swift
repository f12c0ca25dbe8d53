import Foundation
import InputRules

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

    /// A reference as a player request names it (seed 001's `POST /player`): Campus's own
    /// spelling, a system playlist by the seed's name (`recommended_playlist` for
    /// `recommended`), and, where `bareIDIsItem` (the seed's `ids` are its items' ids), an item by
    /// its number alone (`12` is `media:12`). A context is never a bare number: it could be an
    /// album, a podcast, a playlist or an author.
    public init?(player text: String, bareIDIsItem: Bool) {
        if let reference = Reference(text) {
            self = reference
            return
        }
        let suffix = "_playlist"
        if text.hasSuffix(suffix), let system = SystemPlaylist(rawValue: String(text.dropLast(suffix.count))) {
            self = .system(system)
            return
        }
        guard bareIDIsItem, (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }),
            let id = Int64(text), id > 0
        else { return nil }
        self = .media(id)
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
