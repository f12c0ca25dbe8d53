import Accounts
import Foundation
import Listen
import Storage

/// Lists and search: album lists in Subsonic's orders, random songs, songs of a genre, likes,
/// what is playing now, and search (an empty query lists everything, page by page, which is how
/// players read a whole library).
struct SubsonicLists: Sendable {
    let catalogue: CatalogueService
    let now: @Sendable () -> Date
    let nowPlaying: SubsonicNowPlaying

    /// The most any list answers at once.
    static let largest = 500

    var handlers: KeyValuePairs<String, SubsonicRoutes.Handler> {
        [
            "getAlbumList": { call in try await albumList(call, id3: false) },
            "getAlbumList2": { call in try await albumList(call, id3: true) },
            "getRandomSongs": { call in try await randomSongs(call) },
            "getSongsByGenre": { call in try await songsByGenre(call) },
            "getStarred": { call in try await starred(call, name: "starred", id3: false) },
            "getStarred2": { call in try await starred(call, name: "starred2", id3: true) },
            "getNowPlaying": { call in try await playingNow(call) },
            "search2": { call in try await search(call, name: "searchResult2", id3: false) },
            "search3": { call in try await search(call, name: "searchResult3", id3: true) },
        ]
    }

    static func order(_ call: SubsonicCall) throws -> AlbumOrder {
        let type = try call.required("type")
        switch type {
        case "random": return .random
        case "newest": return .newest
        case "frequent": return .frequent
        case "recent": return .recent
        case "starred": return .starred
        case "alphabeticalByName": return .alphabeticalByName
        case "alphabeticalByArtist": return .alphabeticalByArtist
        case "byYear":
            guard let from = try call.int("fromYear") else { throw SubsonicError.missing("fromYear") }
            guard let to = try call.int("toYear") else { throw SubsonicError.missing("toYear") }
            return .byYear(from: from, to: to)
        case "byGenre":
            return .byGenre(try call.required("genre"))
        default:
            throw SubsonicError(.generic, "{type} is not an album list type.", ["type": String(type.prefix(40))])
        }
    }

    func albumList(_ call: SubsonicCall, id3: Bool) async throws -> SubsonicReply {
        let user = try call.user
        let order = try Self.order(call)
        let size = try call.int("size", default: 10, in: 1...Self.largest)
        let offset = try call.int("offset", default: 0, in: 0...1_000_000)
        let albums = try await catalogue.albums(
            order, kinds: try SubsonicFolder.kinds(call), for: user, limit: size, offset: offset)
        var node = SubsonicNode()
        node.add(
            "album",
            list: albums.map {
                id3
                    ? SubsonicEntry.album($0.parent, starred: $0.likedAt)
                    : SubsonicEntry.directory($0.parent, starred: $0.likedAt)
            })
        return .answer(id3 ? "albumList2" : "albumList", node)
    }

    private func songs(_ views: [CatalogueService.MediaView], for user: Account) async throws -> [SubsonicNode] {
        let starred = try await catalogue.likeDates(views.map { .media($0.item.id) }, for: user)
        return views.map { SubsonicEntry.song($0, starred: starred[.media($0.item.id)]) }
    }

    func randomSongs(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let views = try await catalogue.randomMedia(
            kinds: try SubsonicFolder.kinds(call), genre: call.value("genre").flatMap { $0.isEmpty ? nil : $0 },
            fromYear: try call.int("fromYear"), toYear: try call.int("toYear"),
            limit: try call.int("size", default: 10, in: 1...Self.largest), for: user)
        var node = SubsonicNode()
        node.add("song", list: try await songs(views, for: user))
        return .answer("randomSongs", node)
    }

    func songsByGenre(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let views = try await catalogue.media(
            genre: try call.required("genre"), limit: try call.int("count", default: 10, in: 1...Self.largest),
            offset: try call.int("offset", default: 0, in: 0...1_000_000), for: user)
        var node = SubsonicNode()
        node.add("song", list: try await songs(views, for: user))
        return .answer("songsByGenre", node)
    }

    func starred(_ call: SubsonicCall, name: String, id3: Bool) async throws -> SubsonicReply {
        let user = try call.user
        let liked = try await catalogue.liked(for: user)
        let browsed = Set(try SubsonicFolder.kinds(call))
        var node = SubsonicNode()
        node.add(
            "artist", list: liked.authors.map { SubsonicEntry.artist($0, starred: liked.dates[.author($0.id)]) })
        node.add(
            "album",
            list: liked.parents.filter { browsed.contains($0.kind) }.map {
                id3
                    ? SubsonicEntry.album($0, starred: liked.dates[.parent($0.kind, $0.id)])
                    : SubsonicEntry.directory($0, starred: liked.dates[.parent($0.kind, $0.id)])
            })
        node.add("song", list: liked.items.map { SubsonicEntry.song($0, starred: liked.dates[.media($0.item.id)]) })
        return .answer(name, node)
    }

    func playingNow(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let now = now()
        let entries = nowPlaying.current(now: now)
        let views = try await catalogue.mediaViews(entries.map(\.mediaID), for: user)
        var byID: [Int64: CatalogueService.MediaView] = [:]
        for view in views { byID[view.item.id] = view }
        var node = SubsonicNode()
        node.add(
            "entry",
            list: entries.compactMap { entry in
                guard let view = byID[entry.mediaID], !view.hidden else { return nil }
                var song = SubsonicEntry.song(view)
                song.set("username", entry.username)
                song.set("minutesAgo", Int(now.timeIntervalSince(entry.at) / 60))
                song.set("playerId", 0)
                song.set("playerName", entry.player)
                return song
            })
        return .answer("nowPlaying", node)
    }

    func search(_ call: SubsonicCall, name: String, id3: Bool) async throws -> SubsonicReply {
        let user = try call.user
        var query = call.value("query") ?? ""
        guard query.unicodeScalars.count <= 100 else {
            throw SubsonicError(.generic, "A search has at most 100 characters.")
        }
        // Players send "" or "\"\"" to list everything; Lucene's wildcard is not a word either.
        query = query.replacingOccurrences(of: "*", with: " ")
        func page(_ prefix: String) throws -> (limit: Int, offset: Int) {
            (
                try call.int("\(prefix)Count", default: 20, in: 0...Self.largest),
                try call.int("\(prefix)Offset", default: 0, in: 0...1_000_000)
            )
        }
        let found = try await catalogue.search(
            query, kinds: try SubsonicFolder.kinds(call), authors: try page("artist"), parents: try page("album"),
            items: try page("song"), for: user)
        let starred = try await catalogue.likeDates(
            found.authors.map { .author($0.id) } + found.parents.map { .parent($0.kind, $0.id) }
                + found.items.map { .media($0.item.id) }, for: user)
        var node = SubsonicNode()
        node.add("artist", list: found.authors.map { SubsonicEntry.artist($0, starred: starred[.author($0.id)]) })
        node.add(
            "album",
            list: found.parents.map {
                id3
                    ? SubsonicEntry.album($0, starred: starred[.parent($0.kind, $0.id)])
                    : SubsonicEntry.directory($0, starred: starred[.parent($0.kind, $0.id)])
            })
        node.add("song", list: found.items.map { SubsonicEntry.song($0, starred: starred[.media($0.item.id)]) })
        return .answer(name, node)
    }
}
