import Accounts
import Formats
import Foundation
import InputRules
import Listen
import SharedHelpers
import Storage

/// Listening's catalogue as each listener sees it (their marks, resume positions, sound quality):
/// items, albums, podcasts, audiobooks and programmes, authors, genres, search, what players
/// browse, and what listeners say of it (likes, ratings, comments). The API, the web app and the
/// Subsonic API share it, and so do the other listening services (library, player, playlists,
/// feed, reports), which make their views with it; every permission is checked here.
struct CatalogueService: Sendable {
    let database: Database
    let links: LinkSigner
    let now: @Sendable () -> Date

    /// An item with what the listener has to do with it.
    struct MediaView: Sendable {
        var item: MediaItem
        var liked: Bool
        var hidden: Bool
        var resumePosition: Double?
        var streamURL: String
    }

    struct ParentView: Sendable {
        var parent: Parent
        var items: [MediaView]
        var rating: RatingSummary
        var liked: Bool
        var hidden: Bool
        /// Campus's RSS feed of a podcast or programme, with its key.
        var rssPath: String?
    }

    struct AuthorView: Sendable {
        var author: Author
        var parents: [Parent]
        var items: [MediaView]
        var liked: Bool
        var hidden: Bool
        /// The author's picture, or the cover of their newest parent with one.
        var picture: Picture?
    }

    /// 404 for an album, podcast, audiobook or programme, of `kind` (any kind when nil): a
    /// sentence for each, as a translator needs them.
    static func noParent(_ kind: ParentKind?, _ id: Int64) -> Refusal {
        let values = ["id": String(id)]
        switch kind {
        case .album: return Refusal.notFound("There is no album {id}.", values)
        case .podcast: return Refusal.notFound("There is no podcast {id}.", values)
        case .audiobook: return Refusal.notFound("There is no audiobook {id}.", values)
        case .programme: return Refusal.notFound("There is no programme {id}.", values)
        case nil: return Refusal.notFound("There is no album, podcast, audiobook or programme {id}.", values)
        }
    }

    // MARK: Catalogue

    /// These items as the listener sees them, in the order given.
    /// What the listener sees of these items; a visitor without an account (`user` nil) sees
    /// them unmarked, with the original stream.
    func views(_ items: [MediaItem], for user: Account?, store: ListenStore) async throws -> [MediaView] {
        guard let user else {
            return items.map { item in
                MediaView(
                    item: item, liked: false, hidden: false, resumePosition: nil,
                    streamURL: Self.streamURL(item.id, ListenSettings()))
            }
        }
        let ids = items.map(\.id)
        let marks = try await store.marks(userID: user.id, targets: ids.map { .media($0) })
        let hidden = try await store.hiddenMedia(userID: user.id, among: ids)
        let spoken = items.filter(\.kind.isSpoken).map(\.id)
        let positions = try await store.resumePositions(userID: user.id, mediaIDs: spoken)
        let settings = try await store.settings(userID: user.id)
        return items.map { item in
            MediaView(
                item: item, liked: marks[.media(item.id)] == .like,
                hidden: hidden.contains(item.id) || (settings.skipExplicit && item.isExplicit),
                resumePosition: positions[item.id], streamURL: Self.streamURL(item.id, settings))
        }
    }

    static func streamURL(_ id: Int64, _ settings: ListenSettings) -> String {
        guard let bitrate = settings.soundQuality.bitrate else { return APIRoutes.mediaStream.path(id) }
        return APIRoutes.mediaStream.path(id, query: [("format", "mp3"), ("bitrate", String(bitrate))])
    }

    func media(_ id: Int64, for user: Account) async throws -> MediaView {
        try await database.read { db in
            let store = ListenStore(db)
            guard let item = try await store.media(id: id) else {
                throw Refusal.notFound("There is no media item {id}.", ["id": String(id)])
            }
            return try await views([item], for: user, store: store)[0]
        }
    }

    func mediaViews(_ ids: [Int64], for user: Account) async throws -> [MediaView] {
        try await database.read { db in
            let store = ListenStore(db)
            return try await views(try await store.media(ids: ids), for: user, store: store)
        }
    }

    /// An album, podcast, audiobook or programme, if it is of `kind` (any kind when nil); to a
    /// visitor without an account (`user` nil, a shared link) unmarked.
    func parent(_ id: Int64, kind: ParentKind?, for user: Account?) async throws -> ParentView {
        try await database.read { db in
            let store = ListenStore(db)
            guard let parent = try await store.parent(id: id), kind == nil || parent.kind == kind else {
                throw Self.noParent(kind, id)
            }
            let items = try await views(try await store.children(of: id, kind: parent.kind), for: user, store: store)
            var marks: [Reference: ListenStore.Mark] = [:]
            if let user { marks = try await store.marks(userID: user.id, targets: [.parent(parent.kind, id)]) }
            let hasFeed = (parent.kind == .podcast || parent.kind == .programme) && user != nil
            return ParentView(
                parent: parent, items: items, rating: try await store.rating(parentID: id, userID: user?.id),
                liked: marks[.parent(parent.kind, id)] == .like, hidden: marks[.parent(parent.kind, id)] == .hide,
                rssPath: hasFeed ? Podcasts.feedPath(parent, links: links) : nil)
        }
    }

    /// Albums, podcasts, audiobooks or programmes, of a genre if one is given.
    func parents(kind: ParentKind, genre: Int64? = nil, limit: Int, offset: Int = 0) async throws -> [Parent] {
        try await database.read { db in
            try await ListenStore(db).parents(kind: kind, genreID: genre, limit: limit, offset: offset)
        }
    }

    func genres() async throws -> [Genre] {
        try await database.read { db in try await ListenStore(db).genres() }
    }

    /// What stands for each genre: its uploaded picture, or a cover of an album in it.
    func pictures(genreIDs: [Int64]) async throws -> [Int64: Picture] {
        try await database.read { db in try await ListenStore(db).pictures(genreIDs: genreIDs) }
    }

    func genre(_ id: Int64) async throws -> Genre {
        guard let genre = try await genres().first(where: { $0.id == id }) else {
            throw Refusal.notFound("There is no genre {id}.", ["id": String(id)])
        }
        return genre
    }

    /// How many items the catalogue holds.
    func mediaCount() async throws -> Int {
        try await database.read { db in try await ListenStore(db).mediaCount() }
    }

    /// An author with their parents and items; to a visitor without an account unmarked.
    func author(_ id: Int64, for user: Account?) async throws -> AuthorView {
        try await database.read { db in
            let store = ListenStore(db)
            guard let author = try await store.author(id: id) else {
                throw Refusal.notFound("There is no author {id}.", ["id": String(id)])
            }
            let parents = try await store.parents(kind: nil, authorID: id, limit: 200)
            let items = try await views(try await store.media(byAuthor: id, limit: 500), for: user, store: store)
            var mark: ListenStore.Mark?
            if let user { mark = try await store.marks(userID: user.id, targets: [.author(id)])[.author(id)] }
            return AuthorView(
                author: author, parents: parents, items: items, liked: mark == .like, hidden: mark == .hide,
                picture: try await store.pictures(authorIDs: [id])[id])
        }
    }

    /// Stations, authors, parents and items matching every word of `query`; explicit items are
    /// left out for a listener who skips them.
    func search(_ query: String, limit: Int, for user: Account) async throws -> [SearchHit] {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else {
            throw Refusal.invalid(FieldProblem(field: "q", detail: "Say what to look for."))
        }
        guard query.unicodeScalars.count <= 100 else {
            throw Refusal.invalid(FieldProblem(field: "q", detail: "A search has at most 100 characters."))
        }
        let words = query.searchWords
        guard !words.isEmpty else { return [] }  // only quotes: nothing to look for
        return try await database.read { db in
            // Stations are few: matched here, where lower case is lower case in every alphabet.
            let stations = try await RadioStore(db).stations().filter { station in
                let name = station.name.lowercased()
                return words.allSatisfy { name.contains($0) }
            }
            let hits = stations.map {
                SearchHit(kind: .station(mount: $0.mount), id: $0.id, title: $0.name, subtitle: $0.genre)
            }
            let store = ListenStore(db)
            var found = try await store.search(words: words, limit: limit)
            if try await store.settings(userID: user.id).skipExplicit {
                let items = found.compactMap { hit -> Int64? in if case .media = hit.kind { hit.id } else { nil } }
                let explicit = Set(try await store.media(ids: items).filter(\.isExplicit).map(\.id))
                found.removeAll { hit in
                    if case .media = hit.kind { explicit.contains(hit.id) } else { false }
                }
            }
            return Array((hits + found).prefix(limit))
        }
    }

    // MARK: References

    /// The items a reference stands for, in playing order: an item itself, a parent's children,
    /// an author's items, a playlist's items (the listener's own) or a system playlist.
    func items(of reference: Reference, for user: Account, store: ListenStore) async throws -> [Int64] {
        switch reference {
        case .media(let id):
            guard try await store.media(id: id) != nil else { throw Self.unknown(reference) }
            return [id]
        case .parent(let kind, let id):
            guard let parent = try await store.parent(id: id), parent.kind == kind else {
                throw Self.unknown(reference)
            }
            return try await store.children(of: id, kind: kind).map(\.id)
        case .author(let id):
            guard try await store.author(id: id) != nil else { throw Self.unknown(reference) }
            return try await store.media(byAuthor: id, limit: PlayerState.capacity).map(\.id)
        case .playlist(let id):
            guard let playlist = try await store.playlist(id: id), playlist.ownerID == user.id || playlist.isPublic
            else {
                throw Self.unknown(reference)
            }
            return try await store.playlistItems(id)
        case .system(let playlist):
            return try await store.systemPlaylist(playlist, userID: user.id, limit: 100)
        }
    }

    static func unknown(_ reference: Reference) -> Refusal {
        Refusal.invalid(
            FieldProblem(
                field: "ids", detail: "There is no {reference} to play.", ["reference": reference.description]))
    }

    static func reference(_ text: String, field: String) throws -> Reference {
        try read(Reference(text), from: text, field: field)
    }

    /// A reference in a player request: Campus's own, or as seed 001's client names it
    /// (``Reference/init(player:bareIDIsItem:)``).
    static func playerReference(_ text: String, field: String, bareIDIsItem: Bool) throws -> Reference {
        try read(Reference(player: text, bareIDIsItem: bareIDIsItem), from: text, field: field)
    }

    /// The reference read from `text`, or 422 on `field` when there is none.
    private static func read(_ reference: Reference?, from text: String, field: String) throws -> Reference {
        guard let reference else {
            throw Refusal.invalid(
                FieldProblem(
                    field: field,
                    detail: "“{text}” is not an item such as track:12, album:3, playlist:5 or recently_played.",
                    ["text": String(text.prefix(40))]))
        }
        return reference
    }
}
