import Accounts
import Foundation
import InputRules
import Listen
import SharedHelpers
import Storage

/// Listeners' playlists and the system playlists Campus makes.
struct PlaylistService: Sendable {
    let database: Database
    let catalogue: CatalogueService
    let now: @Sendable () -> Date
}

/// The listener's playlists and the ones Campus makes from their listening.
extension PlaylistService {
    // MARK: Playlists

    struct PlaylistView: Sendable {
        /// The id, or a system playlist's name.
        var id: String
        var name: String
        var kind: MediaKind
        var isSystem: Bool
        var items: [CatalogueService.MediaView]
        /// Readable by link (seed 001's sharing); system playlists never are.
        var isPublic = false
        /// The listener's own (a system playlist is); false for someone else's public one.
        var mine = true
    }

    /// A playlist of the listener's list: their own or a system one, with its size and the
    /// cover that stands for it (its first item's with one).
    struct Listed: Sendable {
        var playlist: Playlist?
        var system: SystemPlaylist?
        var count: Int
        var picture: Picture?
    }

    /// The listener's own playlists (at most ``ListenerLimits/playlists``), then (unless a caller
    /// has no use for them: a Subsonic player lists only playlists it can change) the system
    /// playlists with their sizes and covers: all of them, or the page `page` of that list.
    func playlists(for user: Account, includingSystem: Bool = true, page: Paging? = nil) async throws -> [Listed] {
        try await database.read { db in
            let store = ListenStore(db)
            let own = try await store.playlists(userID: user.id, limit: page?.limit, offset: page?.offset ?? 0)
            let pictures = try await store.pictures(playlistIDs: own.map(\.id))
            var result = own.map { Listed(playlist: $0, count: $0.itemCount, picture: pictures[$0.id]) }
            var systems = includingSystem ? SystemPlaylist.allCases : []
            if let page {
                // The system playlists come after the listener's own, on the page that reaches them.
                guard own.count < page.limit else { return result }
                let ownCount = try await store.playlistCount(userID: user.id)
                systems = Array(systems.dropFirst(max(0, page.offset - ownCount)).prefix(page.limit - own.count))
            }
            for system in systems {
                let ids = try await store.systemPlaylist(system, userID: user.id, limit: 100)
                let covered = try await store.media(ids: Array(ids.prefix(20))).first(where: \.hasCover)
                result.append(
                    Listed(
                        system: system, count: ids.count,
                        picture: covered.map { .cover(parentID: $0.parentID, updatedAt: $0.updatedAt) }))
            }
            return result
        }
    }

    /// The listener's own playlist: 404 when there is none, 403 when it is someone else's.
    private func own(_ id: Int64, _ user: Account, _ store: ListenStore) async throws -> Playlist {
        guard let playlist = try await store.playlist(id: id) else {
            throw Refusal.notFound("There is no playlist {id}.", ["id": String(id)])
        }
        guard playlist.ownerID == user.id else { throw Refusal.notAllowed("This playlist is someone else's.") }
        return playlist
    }

    /// The owner's playlist, or a public one; someone else's private playlist is refused (and,
    /// to a visitor without an account, not there at all).
    private func readable(_ id: Int64, _ user: Account?, _ store: ListenStore) async throws -> Playlist {
        guard let playlist = try await store.playlist(id: id), playlist.isPublic || user != nil else {
            throw Refusal.notFound("There is no playlist {id}.", ["id": String(id)])
        }
        guard playlist.isPublic || playlist.ownerID == user?.id else {
            throw Refusal.notAllowed("This playlist is someone else's.")
        }
        return playlist
    }

    static func playlistID(_ text: String) throws -> Reference {
        if let system = SystemPlaylist(rawValue: text) { return .system(system) }
        guard let id = Int64(text), id > 0 else {
            throw Refusal.notFound("There is no playlist {id}.", ["id": String(text.prefix(20))])
        }
        return .playlist(id)
    }

    /// A playlist the listener may read: their own, a system playlist of theirs, or anyone's
    /// public one — the only kind a visitor without an account (`user` nil) reads.
    func playlist(_ id: String, for user: Account?) async throws -> PlaylistView {
        try await database.read { db in
            let store = ListenStore(db)
            switch try Self.playlistID(id) {
            case .system(let system):
                guard let user else { throw Refusal.notFound("There is no playlist {id}.", ["id": id]) }
                let ids = try await store.systemPlaylist(system, userID: user.id, limit: 100)
                return PlaylistView(
                    id: system.rawValue, name: system.title, kind: .track, isSystem: true,
                    items: try await catalogue.views(try await store.media(ids: ids), for: user, store: store))
            case .playlist(let number):
                let playlist = try await readable(number, user, store)
                let items = try await catalogue.views(
                    try await store.media(ids: try await store.playlistItems(number)), for: user, store: store)
                return PlaylistView(
                    id: String(number), name: playlist.name, kind: playlist.kind, isSystem: false, items: items,
                    isPublic: playlist.isPublic, mine: playlist.ownerID == user?.id)
            default:
                throw Refusal.notFound("There is no playlist {id}.", ["id": id])
            }
        }
    }

    func createPlaylist(name: String?, kind: MediaKind, for user: Account) async throws -> PlaylistView {
        let name = try Self.playlistName(name)
        let playlist = try await database.write { db in
            let store = ListenStore(db)
            guard try await store.playlistCount(userID: user.id) < ListenerLimits.playlists else {
                throw Refusal.conflict(
                    "You keep {limit} playlists already; delete some first.",
                    ["limit": String(ListenerLimits.playlists)])
            }
            return try await store.createPlaylist(userID: user.id, kind: kind, name: name, now: now())
        }
        return PlaylistView(id: String(playlist.id), name: playlist.name, kind: kind, isSystem: false, items: [])
    }

    static func playlistName(_ text: String?) throws -> String {
        do {
            return try Playlist.name(text)
        } catch {
            throw Refusal.invalid(error.fieldProblem)
        }
    }

    /// Renames the playlist and/or sets its items: every item must exist and be of the
    /// playlist's kind, each at most once.
    func updatePlaylist(
        _ id: String, name: String?, items: [Int64]?, isPublic: Bool? = nil, for user: Account
    ) async throws -> PlaylistView {
        guard case .playlist(let number) = try Self.playlistID(id) else {
            throw Refusal.notAllowed("System playlists are made by Campus and cannot be changed.")
        }
        let newName = try name.map { try Self.playlistName($0) }
        try await database.write { db in
            let store = ListenStore(db)
            let playlist = try await own(number, user, store)
            var list = try await store.playlistItems(number)
            if let items {
                guard items.count <= Playlist.capacity else {
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "items", detail: "A playlist holds at most {maximum} items.",
                            ["maximum": String(Playlist.capacity)]))
                }
                guard Set(items).count == items.count else {
                    throw Refusal.invalid(FieldProblem(field: "items", detail: "Each item is in a playlist once."))
                }
                let found = try await store.media(ids: items)
                if let wrong = items.first(where: { id in !found.contains { $0.id == id } }) {
                    throw Refusal.invalid(
                        FieldProblem(field: "items", detail: "There is no media item {id}.", ["id": String(wrong)]))
                }
                if let other = found.first(where: { $0.kind != playlist.kind }) {
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "items", detail: "“{title}” is a {kind}; this playlist holds {playlistKind} items.",
                            [
                                "title": other.title, "kind": other.kind.rawValue,
                                "playlistKind": playlist.kind.rawValue,
                            ]))
                }
                list = items
            }
            try await store.savePlaylist(
                number, name: newName ?? playlist.name, items: list, isPublic: isPublic ?? playlist.isPublic, now: now()
            )
        }
        return try await playlist(id, for: user)
    }

    func deletePlaylist(_ id: String, for user: Account) async throws {
        guard case .playlist(let number) = try Self.playlistID(id) else {
            throw Refusal.notAllowed("System playlists are made by Campus and cannot be deleted.")
        }
        try await database.write { db in
            let store = ListenStore(db)
            _ = try await own(number, user, store)
            try await store.deletePlaylist(number)
        }
    }

    /// Items of the playlist's kind not in it yet, matching `query` when given.
    func addable(_ id: String, query: String?, for user: Account) async throws -> [CatalogueService.MediaView] {
        guard case .playlist(let number) = try Self.playlistID(id) else {
            throw Refusal.notAllowed("System playlists are made by Campus and cannot be changed.")
        }
        return try await database.read { db in
            let store = ListenStore(db)
            let playlist = try await own(number, user, store)
            let present = Set(try await store.playlistItems(number))
            let candidates: [Int64]
            if let query, !query.trimmingCharacters(in: .whitespaces).isEmpty {
                candidates = try await store.search(words: query.searchWords, limit: 500).compactMap { hit in
                    if case .media(let kind) = hit.kind, kind == playlist.kind { return hit.id }
                    return nil
                }
            } else {
                candidates = try await store.mediaIDs(kind: playlist.kind, limit: 500)
            }
            let ids = candidates.filter { !present.contains($0) }.prefix(100)
            return try await catalogue.views(try await store.media(ids: Array(ids)), for: user, store: store)
        }
    }
}
