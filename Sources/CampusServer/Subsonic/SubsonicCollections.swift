import Accounts
import Foundation
import Listen
import Storage

/// Collections: likes (star), ratings, scrobbles, playlists and bookmarks, all Campus's own, so
/// the web app shows what a player did.
struct SubsonicCollections: Sendable {
    let catalogue: CatalogueService
    let player: PlayerService
    let playlists: PlaylistService
    let now: @Sendable () -> Date
    let nowPlaying: SubsonicNowPlaying

    var handlers: KeyValuePairs<String, SubsonicRoutes.Handler> {
        [
            "star": { call in try await star(call, like: true) },
            "unstar": { call in try await star(call, like: false) },
            "setRating": { call in try await setRating(call) },
            "scrobble": { call in try await scrobble(call) },
            "getPlaylists": { call in try await playlists(call) },
            "getPlaylist": { call in try await playlist(call) },
            "createPlaylist": { call in try await createPlaylist(call) },
            "updatePlaylist": { call in try await updatePlaylist(call) },
            "deletePlaylist": { call in try await deletePlaylist(call) },
            "getBookmarks": { call in try await bookmarks(call) },
            "createBookmark": { call in try await createBookmark(call) },
            "deleteBookmark": { call in try await deleteBookmark(call) },
        ]
    }

    private func reference(_ id: SubsonicID) async throws -> Reference {
        switch id {
        case .song(let id): return .media(id)
        case .album(let id): return try await player.parentReference(id)
        case .artist(let id): return .author(id)
        case .playlist, .folder: throw SubsonicError(.generic, "Only songs, albums and artists are starred.")
        }
    }

    func star(_ call: SubsonicCall, like: Bool) async throws -> SubsonicReply {
        let user = try call.user
        let ids = try call.ids("id") + call.ids("albumId") + call.ids("artistId")
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        for id in ids {
            let target = try await reference(id)
            if like {
                try await catalogue.mark(target, .like, for: user)
            } else {
                try await player.unlike(target, for: user)
            }
        }
        return .empty
    }

    func setRating(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        guard let rating = try call.int("rating") else { throw SubsonicError.missing("rating") }
        guard (0...5).contains(rating) else { throw SubsonicError(.generic, "A rating is 0 to 5.") }
        guard case .album(let id) = try call.id() else {
            throw SubsonicError(.generic, "Campus rates albums, audiobooks, programmes and podcasts, not single items.")
        }
        if rating == 0 {
            try await player.clearRating(id, for: user)
        } else {
            _ = try await catalogue.rate(id, stars: rating, for: user)
        }
        return .empty
    }

    func scrobble(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let ids = try call.ids("id").map { id -> Int64 in
            guard case .song(let number) = id else { throw SubsonicError(.notFound, "There is no such song.") }
            return number
        }
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        let now = now()
        let times = try call.moments("time")
        if call.bool("submission") == false {
            guard let last = ids.last else { return .empty }
            _ = try await catalogue.media(last, for: user)
            nowPlaying.playing(
                .init(userID: user.id, username: user.email, player: call.value("c") ?? "", mediaID: last, at: now))
            return .empty
        }
        let plays = ids.enumerated().map { index, id in
            (mediaID: id, at: min(now, (index < times.count ? times[index] : nil) ?? now))
        }
        try await player.scrobble(plays, for: user)
        return .empty
    }

    // MARK: Playlists

    private func playlistID(_ call: SubsonicCall, _ name: String) throws -> Int64 {
        let text = try call.required(name)
        if case .playlist(let id) = SubsonicID(text) { return id }
        if let id = Int64(text), id > 0 { return id }
        throw SubsonicError(.notFound, "There is no such playlist.")
    }

    /// A playlist as a player lists it: its name, size and length.
    private func node(
        id: String, name: String, isPublic: Bool, count: Int, duration: Double, owner: Account, updated: Date?
    ) -> SubsonicNode {
        var node = SubsonicNode()
        node.set("id", "pl-\(id)")
        node.set("name", name)
        node.set("owner", owner.email)
        node.set("public", isPublic)
        node.set("songCount", count)
        node.set("duration", wholeSeconds: duration)
        node.set("created", updated ?? owner.createdAt)
        node.set("changed", updated ?? owner.createdAt)
        return node
    }

    /// A playlist with its songs (those the listener has not hidden).
    private func node(_ view: PlaylistService.PlaylistView, owner: Account) async throws -> SubsonicNode {
        var node = node(
            id: view.id, name: view.name, isPublic: view.isPublic, count: view.items.count,
            duration: view.items.reduce(0) { $0 + $1.item.duration }, owner: owner, updated: nil)
        let visible = view.items.filter { !$0.hidden }
        let starred = try await catalogue.likeDates(visible.map { .media($0.item.id) }, for: owner)
        node.add("entry", list: visible.map { SubsonicEntry.song($0, starred: starred[.media($0.item.id)]) })
        return node
    }

    func playlists(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        var list: [SubsonicNode] = []
        // One read: the list knows each playlist's size and length.
        for listed in try await playlists.playlists(for: user, includingSystem: false) {
            guard let playlist = listed.playlist else { continue }
            list.append(
                node(
                    id: String(playlist.id), name: playlist.name, isPublic: playlist.isPublic,
                    count: playlist.itemCount,
                    duration: playlist.duration, owner: user, updated: playlist.updatedAt))
        }
        var node = SubsonicNode()
        node.add("playlist", list: list)
        return .answer("playlists", node)
    }

    func playlist(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let view = try await playlists.playlist(String(try playlistID(call, "id")), for: user)
        // Someone else's public playlist is the web app's and the API's to show; a player lists
        // and opens the listener's own.
        guard view.mine else { throw SubsonicError(.notAuthorized, "This playlist is someone else's.") }
        return .answer("playlist", try await node(view, owner: user))
    }

    private func songIDs(_ call: SubsonicCall, _ name: String) throws -> [Int64] {
        try call.ids(name).map { id in
            guard case .song(let number) = id else { throw SubsonicError(.notFound, "There is no such song.") }
            return number
        }
    }

    func createPlaylist(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let songs = try songIDs(call, "songId")
        let id: String
        if call.value("playlistId") != nil {
            id = String(try playlistID(call, "playlistId"))
            _ = try await playlists.updatePlaylist(id, name: call.value("name"), items: songs, for: user)
        } else {
            let name = try call.required("name")
            var kind = MediaKind.track
            if let first = songs.first { kind = try await catalogue.media(first, for: user).item.kind }
            id = try await playlists.createPlaylist(name: name, kind: kind, for: user).id
            if !songs.isEmpty { _ = try await playlists.updatePlaylist(id, name: nil, items: songs, for: user) }
        }
        let view = try await playlists.playlist(id, for: user)
        return .answer("playlist", try await node(view, owner: user))
    }

    func updatePlaylist(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let id = String(try playlistID(call, "playlistId"))
        var items = try await playlists.playlist(id, for: user).items.map(\.item.id)
        let removed = Set(
            try call.values("songIndexToRemove").map { text -> Int in
                guard let index = Int(text), items.indices.contains(index) else {
                    throw SubsonicError(
                        .generic, "{place} is not a place in the playlist.", ["place": String(text.prefix(20))])
                }
                return index
            })
        items = items.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        items += try songIDs(call, "songIdToAdd")
        _ = try await playlists.updatePlaylist(
            id, name: call.value("name"), items: items, isPublic: call.value("public").map { $0 == "true" }, for: user)
        return .empty
    }

    func deletePlaylist(_ call: SubsonicCall) async throws -> SubsonicReply {
        try await playlists.deletePlaylist(String(try playlistID(call, "id")), for: try call.user)
        return .empty
    }

    // MARK: Bookmarks

    func bookmarks(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        var node = SubsonicNode()
        node.add(
            "bookmark",
            list: try await catalogue.bookmarks(for: user).map { item, position, at in
                var bookmark = SubsonicNode()
                bookmark.set("position", milliseconds: position)
                bookmark.set("username", user.email)
                bookmark.set("created", at)
                bookmark.set("changed", at)
                bookmark.add("entry", SubsonicEntry.song(item))
                return bookmark
            })
        return .answer("bookmarks", node)
    }

    func createBookmark(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        guard case .song(let id) = try call.id() else { throw SubsonicError(.notFound, "There is no such song.") }
        guard let position = try call.position("position") else { throw SubsonicError.missing("position") }
        try await player.saveBookmark(id, position: position, for: user)
        return .empty
    }

    func deleteBookmark(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        guard case .song(let id) = try call.id() else { throw SubsonicError(.notFound, "There is no such song.") }
        try await player.saveBookmark(id, position: nil, for: user)
        return .empty
    }
}
