import Formats
import Foundation
import Listen
import Storage

/// What a Subsonic id names. Campus's authors, parents and items are numbered apart, so each
/// id says what it is: `ar-3` an author (artist), `al-3` a parent (album, audiobook,
/// programme, podcast), `tr-3` an item (song, chapter, episode), `pl-3` a playlist, and a
/// bare number a music folder.
enum SubsonicID: Sendable, Hashable, CustomStringConvertible {
    case artist(Int64)
    case album(Int64)
    case song(Int64)
    case playlist(Int64)
    case folder(Int)

    init?(_ text: String) {
        guard text.utf8.count <= 24 else { return nil }
        if let folder = Int(text), SubsonicFolder(rawValue: folder) != nil {
            self = .folder(folder)
            return
        }
        let parts = text.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let number = Int64(parts[1]), number > 0 else { return nil }
        switch parts[0] {
        case "ar": self = .artist(number)
        case "al": self = .album(number)
        case "tr": self = .song(number)
        case "pl": self = .playlist(number)
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .artist(let id): "ar-\(id)"
        case .album(let id): "al-\(id)"
        case .song(let id): "tr-\(id)"
        case .playlist(let id): "pl-\(id)"
        case .folder(let id): String(id)
        }
    }
}

/// Subsonic's music folders: one per kind of parent a player browses as albums (podcasts have
/// methods of their own).
enum SubsonicFolder: Int, Sendable, CaseIterable {
    case music = 1
    case audiobooks = 2
    case programmes = 3

    var kind: ParentKind {
        switch self {
        case .music: .album
        case .audiobooks: .audiobook
        case .programmes: .programme
        }
    }

    var name: String {
        switch self {
        case .music: "Music"
        case .audiobooks: "Audiobooks"
        case .programmes: "Lectures and programmes"
        }
    }

    /// The kinds a call browses: its `musicFolderId`'s, or every folder's.
    static func kinds(_ call: SubsonicCall) throws -> [ParentKind] {
        guard let id = try call.int("musicFolderId") else { return allCases.map(\.kind) }
        guard let folder = SubsonicFolder(rawValue: id) else {
            throw SubsonicError(.notFound, "There is no music folder {id}.", ["id": String(id)])
        }
        return [folder.kind]
    }
}

/// Campus's catalogue as Subsonic's elements: `Child` (a song, or an album as a directory),
/// `AlbumID3` and `ArtistID3`.
enum SubsonicEntry {
    static func song(_ view: CatalogueService.MediaView, starred: Date? = nil) -> SubsonicNode {
        let item = view.item
        var node = SubsonicNode()
        node.set("id", SubsonicID.song(item.id).description)
        node.set("parent", SubsonicID.album(item.parentID).description)
        node.set("isDir", false)
        node.set("title", item.title)
        node.set("album", item.parentTitle)
        node.set("artist", item.author?.name)
        if item.number > 0 { node.set("track", item.number) }
        node.set("genre", item.genre?.name)
        if item.hasCover { node.set("coverArt", SubsonicID.album(item.parentID).description) }
        node.set("size", item.size)
        node.set("contentType", item.contentType)
        let suffix = suffix(item.contentType)
        node.set("suffix", suffix)
        node.set("duration", wholeSeconds: item.duration)
        node.set("bitRate", item.bitrate)
        node.set("path", path(item, suffix: suffix))
        node.set("isVideo", false)
        node.set("discNumber", item.disc)
        node.set("created", item.publishedAt ?? item.updatedAt)
        node.set("starred", starred)
        node.set("albumId", SubsonicID.album(item.parentID).description)
        node.set("artistId", item.author.map { SubsonicID.artist($0.id).description })
        node.set("type", type(item.kind))
        node.set("mediaType", "song")
        node.set("bookmarkPosition", milliseconds: view.resumePosition)
        node.set("explicitStatus", item.isExplicit ? "explicit" : "")
        return node
    }

    /// An album as `AlbumID3`.
    static func album(_ parent: Parent, starred: Date? = nil, rating: Int? = nil) -> SubsonicNode {
        var node = SubsonicNode()
        node.set("id", SubsonicID.album(parent.id).description)
        node.set("name", parent.title)
        node.set("artist", parent.author?.name)
        node.set("artistId", parent.author.map { SubsonicID.artist($0.id).description })
        if parent.hasCover { node.set("coverArt", SubsonicID.album(parent.id).description) }
        node.set("songCount", parent.itemCount)
        node.set("duration", wholeSeconds: parent.duration)
        node.set("created", parent.updatedAt)
        node.set("starred", starred)
        node.set("year", parent.year)
        node.set("genre", parent.genre?.name)
        node.set("userRating", rating)
        node.set("mediaType", "album")
        return node
    }

    /// An album as a directory (`Child` with `isDir`), as the folder-based methods list them.
    static func directory(_ parent: Parent, starred: Date? = nil) -> SubsonicNode {
        var node = SubsonicNode()
        node.set("id", SubsonicID.album(parent.id).description)
        node.set("parent", parent.author.map { SubsonicID.artist($0.id).description })
        node.set("isDir", true)
        node.set("title", parent.title)
        node.set("name", parent.title)
        node.set("album", parent.title)
        node.set("artist", parent.author?.name)
        node.set("year", parent.year)
        node.set("genre", parent.genre?.name)
        if parent.hasCover { node.set("coverArt", SubsonicID.album(parent.id).description) }
        node.set("duration", wholeSeconds: parent.duration)
        node.set("songCount", parent.itemCount)
        node.set("created", parent.updatedAt)
        node.set("starred", starred)
        node.set("albumId", SubsonicID.album(parent.id).description)
        node.set("artistId", parent.author.map { SubsonicID.artist($0.id).description })
        return node
    }

    static func artist(_ author: Author, albumCount: Int? = nil, starred: Date? = nil) -> SubsonicNode {
        var node = SubsonicNode()
        node.set("id", SubsonicID.artist(author.id).description)
        node.set("name", author.name)
        node.set("albumCount", albumCount)
        node.set("starred", starred)
        return node
    }

    /// Subsonic's `type` of an item.
    static func type(_ kind: MediaKind) -> String {
        switch kind {
        case .track: "music"
        case .podcastEpisode, .programmeEpisode: "podcast"
        case .audiobookChapter: "audiobook"
        }
    }

    /// The file name extension of a content type, from the scanner's own table.
    static func suffix(_ contentType: String) -> String {
        if contentType == "audio/mp4" { return "m4a" }
        if contentType == "audio/ogg" { return "ogg" }
        return ScannedAudio.extensions.first { $0.value == contentType }?.key ?? "mp3"
    }

    /// Where the item would be in a folder tree (players show it; Campus addresses items by id).
    static func path(_ item: MediaItem, suffix: String) -> String {
        func clean(_ text: String) -> String { text.replacingOccurrences(of: "/", with: "_") }
        let number = item.number > 0 ? String(format: "%02d - ", item.number) : ""
        return
            "\(clean(item.author?.name ?? "Unknown"))/\(clean(item.parentTitle))/\(number)\(clean(item.title)).\(suffix)"
    }

    /// Letters an index groups artists under: the first letter of the name, upper case, or `#`.
    static func indexLetter(_ name: String) -> String {
        guard let first = name.first, first.isLetter else { return "#" }
        return String(first).uppercased()
    }

    /// Artists grouped by `indexLetter` (each letter once, in the order its first artist comes).
    static func index(_ authors: [(author: Author, albumCount: Int)], starred: [Reference: Date]) -> [SubsonicNode] {
        var letters: [String] = []
        var groups: [String: [SubsonicNode]] = [:]
        for (author, count) in authors {
            let letter = indexLetter(author.name)
            if groups[letter] == nil { letters.append(letter) }
            groups[letter, default: []].append(artist(author, albumCount: count, starred: starred[.author(author.id)]))
        }
        return letters.map { letter in
            var node = SubsonicNode()
            node.set("name", letter)
            node.add("artist", list: groups[letter] ?? [])
            return node
        }
    }
}
