import Accounts
import Foundation
import InputRules
import Listen
import SharedHelpers
import Storage

/// The catalogue as players browse it (the Subsonic API): album lists, authors, random and
/// genre lists, likes with their dates, bookmarks and a paged search. What the listener hid is
/// left out, as in the web app.
extension CatalogueService {
    /// A page of albums in `order`, each with when the listener liked it.
    func albums(_ order: AlbumOrder, kinds: [ParentKind], for user: Account, limit: Int, offset: Int)
        async throws -> [(parent: Parent, likedAt: Date?)]
    {
        try await database.read { db in
            try await ListenStore(db).albums(order, kinds: kinds, userID: user.id, limit: limit, offset: offset)
        }
    }

    /// When the catalogue last changed (a player's `ifModifiedSince`).
    func catalogueVersion() async throws -> (updated: Int64, count: Int) {
        try await database.read { db in try await ListenStore(db).catalogueVersion() }
    }

    /// Of `parents`, those the listener has not hidden.
    func unhidden(_ parents: [Parent], for user: Account) async throws -> [Parent] {
        let marks = try await database.read { db in
            try await ListenStore(db).marks(userID: user.id, targets: parents.map { .parent($0.kind, $0.id) })
        }
        return parents.filter { marks[.parent($0.kind, $0.id)] != .hide }
    }

    func authors(kinds: [ParentKind], for user: Account) async throws -> [(author: Author, albumCount: Int)] {
        try await database.read { db in try await ListenStore(db).authors(kinds: kinds, userID: user.id) }
    }

    func randomMedia(
        kinds: [ParentKind], genre: String?, fromYear: Int?, toYear: Int?, limit: Int, for user: Account
    ) async throws -> [MediaView] {
        try await database.read { db in
            let store = ListenStore(db)
            let items = try await store.randomMedia(
                kinds: kinds, userID: user.id, genre: genre, fromYear: fromYear, toYear: toYear, limit: limit)
            return try await views(items, for: user, store: store).filter { !$0.hidden }
        }
    }

    func media(genre: String, limit: Int, offset: Int, for user: Account) async throws -> [MediaView] {
        try await database.read { db in
            let store = ListenStore(db)
            let items = try await store.media(genre: genre, userID: user.id, limit: limit, offset: offset)
            return try await views(items, for: user, store: store).filter { !$0.hidden }
        }
    }

    func genreCounts() async throws -> [(genre: Genre, items: Int, parents: Int)] {
        try await database.read { db in try await ListenStore(db).genreCounts() }
    }

    /// When the listener liked each of these.
    func likeDates(_ targets: [Reference], for user: Account) async throws -> [Reference: Date] {
        try await database.read { db in try await ListenStore(db).likeDates(userID: user.id, targets: targets) }
    }

    struct Liked: Sendable {
        var authors: [Author] = []
        var parents: [Parent] = []
        var items: [MediaView] = []
        var dates: [Reference: Date] = [:]
    }

    /// Everything the listener liked (what they hid since is left out).
    func liked(for user: Account) async throws -> Liked {
        try await database.read { db in
            let store = ListenStore(db)
            let likes = try await store.likes(userID: user.id, limit: 5000)
            var liked = Liked()
            var authorIDs: [Int64] = []
            var parentIDs: [Int64] = []
            var mediaIDs: [Int64] = []
            for (reference, _) in likes {
                switch reference {
                case .author(let id): authorIDs.append(id)
                case .parent(_, let id): parentIDs.append(id)
                case .media(let id): mediaIDs.append(id)
                case .playlist, .system: break
                }
            }
            liked.authors = try await store.authors(ids: authorIDs)
            liked.parents = try await store.parents(ids: parentIDs)
            liked.items = try await views(try await store.media(ids: mediaIDs), for: user, store: store)
                .filter { !$0.hidden }
            liked.dates = Dictionary(likes.map { ($0.target, $0.at) }, uniquingKeysWith: { first, _ in first })
            return liked
        }
    }

    /// The newest items of a kind the listener has not hidden (Subsonic's newest podcast
    /// episodes), read a page at a time until there are enough.
    func newest(_ kind: MediaKind, limit: Int, for user: Account) async throws -> [MediaView] {
        try await database.read { db in
            let store = ListenStore(db)
            var found: [MediaView] = []
            var offset = 0
            while found.count < limit {
                let ids = try await store.newestMediaIDs(kind: kind, limit: limit * 2, offset: offset)
                guard !ids.isEmpty else { break }
                found += try await views(try await store.media(ids: ids), for: user, store: store).filter { !$0.hidden }
                offset += ids.count
            }
            return Array(found.prefix(limit))
        }
    }

    /// Where the listener stopped in spoken items, with the items.
    func bookmarks(for user: Account) async throws -> [(item: MediaView, position: Double, at: Date)] {
        try await database.read { db in
            let store = ListenStore(db)
            let positions = try await store.resumePositions(userID: user.id, limit: 500)
            var items: [Int64: MediaView] = [:]
            for view in try await views(
                try await store.media(ids: positions.map(\.mediaID)), for: user, store: store)
            {
                items[view.item.id] = view
            }
            return positions.compactMap { entry in
                items[entry.mediaID].map { ($0, entry.position, entry.updatedAt) }
            }
        }
    }

    struct SearchPage: Sendable {
        var authors: [Author]
        var parents: [Parent]
        var items: [MediaView]
    }

    /// A page of each of authors, parents and items matching every word of `query` (all of
    /// them when it is empty, which is how players read the whole library).
    func search(
        _ query: String, kinds: [ParentKind], authors: (limit: Int, offset: Int), parents: (limit: Int, offset: Int),
        items: (limit: Int, offset: Int), for user: Account
    ) async throws -> SearchPage {
        let words = query.searchWords
        return try await database.read { db in
            let store = ListenStore(db)
            let authorIDs = try await store.search(
                .authors, words: words, kinds: kinds, userID: user.id, limit: authors.limit, offset: authors.offset)
            let parentIDs = try await store.search(
                .parents, words: words, kinds: kinds, userID: user.id, limit: parents.limit, offset: parents.offset)
            let mediaIDs = try await store.search(
                .media, words: words, kinds: kinds, userID: user.id, limit: items.limit, offset: items.offset)
            return SearchPage(
                authors: try await store.authors(ids: authorIDs), parents: try await store.parents(ids: parentIDs),
                items: try await views(try await store.media(ids: mediaIDs), for: user, store: store).filter {
                    !$0.hidden
                })
        }
    }
}
