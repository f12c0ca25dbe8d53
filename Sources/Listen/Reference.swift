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
