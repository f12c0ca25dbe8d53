import Accounts
import CampusHTTP
import Formats
import Foundation
import InputRules
import Listen
import Logging
import Storage

/// Listening: the catalogue as each listener sees it (their marks, resume positions, sound
/// quality), the player kept on the server, playlists and settings. The API and the web app
/// share it; every permission is checked here.
struct ListenService: Sendable {
    let database: Database
    let dataDirectory: String
    let links: LinkSigner
    let outbound: OutboundSettings
    let now: @Sendable () -> Date
    let logger: Logger

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
    }

    static func notFound(_ what: String) -> Problem { Problem.notFound("There is no \(what).") }

    // MARK: Catalogue

    /// These items as the listener sees them, in the order given.
    func views(_ items: [MediaItem], for user: UserRecord, store: ListenStore) async throws -> [MediaView] {
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

    func media(_ id: Int64, for user: UserRecord) async throws -> MediaView {
        try await database.read { db in
            let store = ListenStore(db)
            guard let item = try await store.media(id: id) else { throw Self.notFound("media item \(id)") }
            return try await views([item], for: user, store: store)[0]
        }
    }

    func mediaViews(_ ids: [Int64], for user: UserRecord) async throws -> [MediaView] {
        try await database.read { db in
            let store = ListenStore(db)
            return try await views(try await store.media(ids: ids), for: user, store: store)
        }
    }

    /// An album, podcast, audiobook or programme, if it is of `kind` (any kind when nil).
    func parent(_ id: Int64, kind: ParentKind?, for user: UserRecord) async throws -> ParentView {
        try await database.read { db in
            let store = ListenStore(db)
            guard let parent = try await store.parent(id: id), kind == nil || parent.kind == kind else {
                throw Self.notFound("\(kind?.rawValue ?? "album, podcast, audiobook or programme") \(id)")
            }
            let items = try await views(try await store.children(of: id, kind: parent.kind), for: user, store: store)
            let marks = try await store.marks(userID: user.id, targets: [.parent(parent.kind, id)])
            let hasFeed = parent.kind == .podcast || parent.kind == .programme
            return ParentView(
                parent: parent, items: items, rating: try await store.rating(parentID: id, userID: user.id),
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

    func genre(_ id: Int64) async throws -> Genre {
        guard let genre = try await genres().first(where: { $0.id == id }) else { throw Self.notFound("genre \(id)") }
        return genre
    }

    /// How many items the catalogue holds.
    func mediaCount() async throws -> Int {
        try await database.read { db in try await ListenStore(db).mediaCount() }
    }

    func author(_ id: Int64, for user: UserRecord) async throws -> AuthorView {
        try await database.read { db in
            let store = ListenStore(db)
            guard let author = try await store.author(id: id) else { throw Self.notFound("author \(id)") }
            let parents = try await store.parents(kind: nil, authorID: id, limit: 200)
            let items = try await views(try await store.media(byAuthor: id, limit: 500), for: user, store: store)
            let mark = try await store.marks(userID: user.id, targets: [.author(id)])[.author(id)]
            return AuthorView(
                author: author, parents: parents, items: items, liked: mark == .like, hidden: mark == .hide)
        }
    }

    func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else {
            throw Problem.invalid(FieldProblem(field: "q", detail: "Say what to look for."))
        }
        guard query.unicodeScalars.count <= 100 else {
            throw Problem.invalid(FieldProblem(field: "q", detail: "A search has at most 100 characters."))
        }
        return try await database.read { db in try await ListenStore(db).search(query, limit: limit) }
    }

    // MARK: References

    /// The items a reference stands for, in playing order: an item itself, a parent's children,
    /// an author's items, a playlist's items (the listener's own) or a system playlist.
    func items(of reference: Reference, for user: UserRecord, store: ListenStore) async throws -> [Int64] {
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
            guard let playlist = try await store.playlist(id: id), playlist.ownerID == user.id else {
                throw Self.unknown(reference)
            }
            return try await store.playlistItems(id)
        case .system(let playlist):
            return try await store.systemPlaylist(playlist, userID: user.id, limit: 100)
        }
    }

    static func unknown(_ reference: Reference) -> Problem {
        Problem.invalid(FieldProblem(field: "ids", detail: "There is no \(reference) to play."))
    }

    static func reference(_ text: String, field: String) throws -> Reference {
        guard let reference = Reference(text) else {
            throw Problem.invalid(
                FieldProblem(
                    field: field,
                    detail:
                        "“\(text.prefix(40))” is not an item such as track:12, album:3, playlist:5 or recently_played."
                ))
        }
        return reference
    }

    // MARK: Player

    /// What the API sends: the action and its payload, before the references are resolved.
    struct PlayerRequest: Sendable {
        var action: String
        var ids: [String]?
        var contextID: String?
        var position: Double?
        var places: [Int]?
        var from: Int?
        var to: Int?
        var place: Int?
    }

    struct PlayerView: Sendable {
        var state: PlayerState
        var version: Int64
        var items: [Int64: MediaView]
    }

    func player(for user: UserRecord) async throws -> PlayerView {
        try await database.read { db in
            let store = ListenStore(db)
            let (state, version) = try await Self.load(store, user.id)
            return try await view(state, version: version, for: user, store: store)
        }
    }

    static func load(_ store: ListenStore, _ userID: Int64) async throws -> (PlayerState, Int64?) {
        guard let stored = try await store.playerState(userID: userID) else { return (PlayerState(), nil) }
        let state = (try? JSONDecoder().decode(PlayerState.self, from: Data(stored.state.utf8))) ?? PlayerState()
        return (state, stored.version)
    }

    private func view(_ state: PlayerState, version: Int64?, for user: UserRecord, store: ListenStore) async throws
        -> PlayerView
    {
        let ids = Array(Set(state.queue.map(\.mediaID)))
        var items: [Int64: MediaView] = [:]
        for view in try await views(try await store.media(ids: ids), for: user, store: store) {
            items[view.item.id] = view
        }
        return PlayerView(state: state, version: version ?? 0, items: items)
    }

    /// Applies one action to the listener's player and stores it, with the listening history
    /// and resume positions it causes. Two devices acting at once both succeed, one after the
    /// other: a write that finds the state changed reads it again and applies its action anew.
    func act(_ request: PlayerRequest, for user: UserRecord) async throws -> PlayerView {
        for _ in 0..<5 {
            do {
                return try await database.write { db in
                    let store = ListenStore(db)
                    var (state, version) = try await Self.load(store, user.id)
                    let action = try await action(request, for: user, store: store)
                    let settings = try await store.settings(userID: user.id)
                    var generator = SystemRandomNumberGenerator()
                    // Hidden (and, for listeners who skip it, explicit) items are skipped.
                    let queued = Array(Set(state.queue.map(\.mediaID) + action.mediaIDs))
                    var hidden = try await store.hiddenMedia(userID: user.id, among: queued)
                    if settings.skipExplicit {
                        hidden.formUnion(try await store.media(ids: queued).filter(\.isExplicit).map(\.id))
                    }
                    state.setHidden(hidden)
                    let hiddenAction = action.markingHidden(hidden)
                    var events: [ListeningEvent]
                    do {
                        events = try state.apply(hiddenAction, random: &generator)
                        if case .queueEnded = hiddenAction, settings.endlessQueue {
                            events += try await continueEndlessly(&state, store: store, random: &generator)
                        }
                    } catch let error as PlayerError {
                        throw Problem.invalid(FieldProblem(field: error.field, detail: error.reason))
                    }
                    let now = now()
                    let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
                    try await store.savePlayerState(userID: user.id, json, replacing: version, now: now)
                    try await store.recordListening(userID: user.id, events, now: now)
                    let spoken = Set(
                        try await store.media(ids: events.map(\.mediaID)).filter(\.kind.isSpoken).map(\.id))
                    for event in events where spoken.contains(event.mediaID) {
                        try await store.saveResumePosition(
                            userID: user.id, mediaID: event.mediaID,
                            position: event.outcome == .ended ? nil : event.position, now: now)
                    }
                    return try await view(state, version: (version ?? 0) + 1, for: user, store: store)
                }
            } catch ListenStoreError.playerChanged {
                continue
            }
        }
        throw Problem.conflict("The player is changing on another device right now; try again.")
    }

    /// When the queue ends and the listener asked for an endless queue: similar items are
    /// added and the first of them plays.
    private func continueEndlessly<R: RandomNumberGenerator>(
        _ state: inout PlayerState, store: ListenStore, random: inout R
    ) async throws -> [ListeningEvent] {
        let queued = state.queue.map(\.mediaID)
        let similar = try await store.similar(to: queued, limit: 20)
        guard !similar.isEmpty, queued.count + similar.count <= PlayerState.capacity, let current = state.current
        else { return [] }
        try state.apply(.enqueueNext(similar.map { QueueItem(mediaID: $0) }), random: &random)
        return try state.apply(.trackChange(place: current + 1), random: &random)
    }

    /// The domain action for a request, with references resolved to items.
    private func action(_ request: PlayerRequest, for user: UserRecord, store: ListenStore) async throws
        -> PlayerAction
    {
        func position() throws -> Double {
            guard let position = request.position else {
                throw Problem.invalid(
                    FieldProblem(field: "payload.position", detail: "Say where playback is (seconds)."))
            }
            return position
        }
        func number(_ value: Int?, _ name: String) throws -> Int {
            guard let value else {
                throw Problem.invalid(
                    FieldProblem(field: "payload.\(name)", detail: "\(name) is needed for this action."))
            }
            return value
        }
        func resolved(_ references: [String]?) async throws -> [QueueItem] {
            guard let references, !references.isEmpty else {
                throw Problem.invalid(FieldProblem(field: "payload.ids", detail: "Say what to play in ids."))
            }
            var items: [QueueItem] = []
            for text in references {
                let reference = try Self.reference(text, field: "payload.ids")
                items += try await self.items(of: reference, for: user, store: store).map { QueueItem(mediaID: $0) }
                guard items.count <= PlayerState.capacity else {
                    throw Problem.invalid(
                        FieldProblem(
                            field: "payload.ids", detail: "A queue holds at most \(PlayerState.capacity) items."))
                }
            }
            return items
        }
        switch request.action {
        case "initialize": return .initialize
        case "play":
            if let context = request.contextID {
                let reference = try Self.reference(context, field: "payload.contextId")
                let items = try await self.items(of: reference, for: user, store: store).map { QueueItem(mediaID: $0) }
                var start: Int64?
                if let first = request.ids?.first {
                    guard case .media(let id) = try Self.reference(first, field: "payload.ids") else {
                        throw Problem.invalid(
                            FieldProblem(
                                field: "payload.ids", detail: "With a context, ids names the item to start with."))
                    }
                    start = id
                }
                return .play(items: items, startAt: start, contextID: reference.description)
            }
            return .play(items: try await resolved(request.ids), startAt: nil, contextID: nil)
        case "playback_started": return .playbackStarted
        case "enqueue_next": return .enqueueNext(try await resolved(request.ids))
        case "playback_resume": return .playbackResume
        case "playback_pause": return .playbackPause(position: try position())
        case "background_pause": return .backgroundPause(position: try position())
        case "track_next": return .trackNext
        case "track_skip": return .trackSkip(position: request.position ?? 0)
        case "track_prev": return .trackPrev(position: request.position ?? 0)
        case "shuffle_enable": return .shuffleEnable
        case "shuffle_disable": return .shuffleDisable
        case "repeat_one_enable": return .repeatOneEnable
        case "repeat_all_enable": return .repeatAllEnable
        case "repeat_disable": return .repeatDisable
        case "track_delete":
            guard let places = request.places, !places.isEmpty else {
                throw Problem.invalid(FieldProblem(field: "payload.places", detail: "Say which places to delete."))
            }
            return .trackDelete(places: places)
        case "track_reorder":
            return .trackReorder(from: try number(request.from, "from"), to: try number(request.to, "to"))
        case "track_change": return .trackChange(place: try number(request.place, "place"))
        case "clear_queue": return .clearQueue
        case "queue_ended": return .queueEnded
        default:
            throw Problem.badRequest("“\(request.action.prefix(40))” is not a player action.")
        }
    }

    /// The listener's history with its items.
    func history(for user: UserRecord, limit: Int) async throws -> [(MediaView, ListeningEvent, Date)] {
        try await database.read { db in
            let store = ListenStore(db)
            let entries = try await store.history(userID: user.id, limit: limit)
            var items: [Int64: MediaView] = [:]
            for view in try await views(
                try await store.media(ids: Array(Set(entries.map(\.event.mediaID)))), for: user, store: store)
            {
                items[view.item.id] = view
            }
            return entries.compactMap { entry in items[entry.event.mediaID].map { ($0, entry.event, entry.at) } }
        }
    }

    // MARK: Marks and ratings

    func mark(_ target: Reference, _ mark: ListenStore.Mark?, for user: UserRecord) async throws {
        try await database.write { db in
            let store = ListenStore(db)
            if mark != nil {
                switch target {
                case .media(let id):
                    guard try await store.media(id: id) != nil else { throw Self.notFound("\(target)") }
                case .parent(let kind, let id):
                    guard let parent = try await store.parent(id: id), parent.kind == kind else {
                        throw Self.notFound("\(target)")
                    }
                case .author(let id):
                    guard try await store.author(id: id) != nil else { throw Self.notFound("\(target)") }
                case .playlist, .system:
                    throw Problem.invalid(FieldProblem(field: "target", detail: "Playlists are not liked or hidden."))
                }
            }
            try await store.setMark(userID: user.id, target: target, mark, now: now())
        }
    }

    func likes(for user: UserRecord) async throws -> [MediaView] {
        let ids = try await database.read { db in
            try await ListenStore(db).marked(userID: user.id, .like, limit: 1000).compactMap { reference -> Int64? in
                if case .media(let id) = reference { return id }
                return nil
            }
        }
        return try await mediaViews(ids, for: user)
    }

    func rate(_ parentID: Int64, stars: Int, for user: UserRecord) async throws -> RatingSummary {
        guard RatingSummary.stars.contains(stars) else {
            throw Problem.invalid(FieldProblem(field: "stars", detail: "A rating is 1 to 5 stars."))
        }
        return try await database.write { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Self.notFound("album or podcast \(parentID)")
            }
            try await store.rate(parentID: parentID, userID: user.id, stars: stars, now: now())
            return try await store.rating(parentID: parentID, userID: user.id)
        }
    }

    // MARK: Comments

    func comments(on parentID: Int64, for user: UserRecord) async throws -> [(Comment, canDelete: Bool)] {
        try await database.read { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Self.notFound("album or podcast \(parentID)")
            }
            return try await store.comments(parentID: parentID, limit: 200).map {
                ($0, $0.authorID == user.id || user.role == .admin)
            }
        }
    }

    func comment(on parentID: Int64, _ text: String, by user: UserRecord) async throws -> Comment {
        let body: String
        do {
            body = try Comment.body(text)
        } catch {
            throw Problem.invalid(FieldProblem(field: error.field, detail: error.reason))
        }
        return try await database.write { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Self.notFound("album or podcast \(parentID)")
            }
            let id = try await store.addComment(parentID: parentID, userID: user.id, body: body, now: now())
            guard let comment = try await store.comment(id: id) else { throw Self.notFound("comment \(id)") }
            return comment
        }
    }

    /// Deletes a comment: its writer or an admin may.
    func deleteComment(_ id: Int64, by user: UserRecord) async throws -> Comment {
        try await database.write { db in
            let store = ListenStore(db)
            guard let comment = try await store.comment(id: id) else { throw Self.notFound("comment \(id)") }
            guard comment.authorID == user.id || user.role == .admin else {
                throw Problem.forbidden("Only the comment's writer or an admin may delete it.")
            }
            try await store.deleteComment(id: id)
            return comment
        }
    }

    // MARK: The home feed's blocks (admins)

    func feedBlocks() async throws -> (configured: Bool, blocks: [FeedBlockConfiguration]) {
        let blocks = try await database.read { db in try await ListenStore(db).feedBlocks() }
        return (!blocks.isEmpty, blocks.isEmpty ? HomeFeed.defaultBlocks : blocks)
    }

    func saveFeedBlocks(_ blocks: [FeedBlockConfiguration], by user: UserRecord) async throws
        -> (configured: Bool, blocks: [FeedBlockConfiguration])
    {
        guard user.role == .admin else { throw Problem.forbidden("Only admins configure the home feed.") }
        guard blocks.count <= FeedBlockConfiguration.blockLimit else {
            throw Problem.invalid(
                FieldProblem(
                    field: "blocks", detail: "The feed has at most \(FeedBlockConfiguration.blockLimit) blocks."))
        }
        var checked: [FeedBlockConfiguration] = []
        for (index, block) in blocks.enumerated() {
            do {
                checked.append(try block.validated())
            } catch {
                throw Problem.invalid(FieldProblem(field: "blocks[\(index)].\(error.field)", detail: error.reason))
            }
        }
        let saved = checked
        try await database.write { db in
            let store = ListenStore(db)
            for (index, block) in saved.enumerated() {
                if case .genre(let id) = FeedBlockConfiguration.Source(block.source),
                    try await store.genre(id: id) == nil
                {
                    throw Problem.invalid(
                        FieldProblem(field: "blocks[\(index)].source", detail: "There is no genre \(id)."))
                }
            }
            try await store.saveFeedBlocks(saved, now: now())
        }
        return try await feedBlocks()
    }

    // MARK: Playlists

    struct PlaylistView: Sendable {
        /// The id, or a system playlist's name.
        var id: String
        var name: String
        var kind: MediaKind
        var isSystem: Bool
        var items: [MediaView]
    }

    func playlists(for user: UserRecord) async throws -> [(playlist: Playlist?, system: SystemPlaylist?, count: Int)] {
        try await database.read { db in
            let store = ListenStore(db)
            var result: [(Playlist?, SystemPlaylist?, Int)] = try await store.playlists(userID: user.id).map {
                ($0, nil, $0.itemCount)
            }
            for system in SystemPlaylist.allCases {
                result.append(
                    (nil, system, try await store.systemPlaylist(system, userID: user.id, limit: 100).count))
            }
            return result
        }
    }

    /// The listener's own playlist: 404 when there is none, 403 when it is someone else's.
    private func own(_ id: Int64, _ user: UserRecord, _ store: ListenStore) async throws -> Playlist {
        guard let playlist = try await store.playlist(id: id) else { throw Self.notFound("playlist \(id)") }
        guard playlist.ownerID == user.id else { throw Problem.forbidden("This playlist is someone else's.") }
        return playlist
    }

    static func playlistID(_ text: String) throws -> Reference {
        if let system = SystemPlaylist(rawValue: text) { return .system(system) }
        guard let id = Int64(text), id > 0 else { throw Self.notFound("playlist \(text.prefix(20))") }
        return .playlist(id)
    }

    func playlist(_ id: String, for user: UserRecord) async throws -> PlaylistView {
        try await database.read { db in
            let store = ListenStore(db)
            switch try Self.playlistID(id) {
            case .system(let system):
                let ids = try await store.systemPlaylist(system, userID: user.id, limit: 100)
                return PlaylistView(
                    id: system.rawValue, name: system.title, kind: .track, isSystem: true,
                    items: try await views(try await store.media(ids: ids), for: user, store: store))
            case .playlist(let number):
                let playlist = try await own(number, user, store)
                let items = try await views(
                    try await store.media(ids: try await store.playlistItems(number)), for: user, store: store)
                return PlaylistView(
                    id: String(number), name: playlist.name, kind: playlist.kind, isSystem: false, items: items)
            default:
                throw Self.notFound("playlist \(id)")
            }
        }
    }

    func createPlaylist(name: String?, kind: MediaKind, for user: UserRecord) async throws -> PlaylistView {
        let name = try Self.playlistName(name)
        let playlist = try await database.write { db in
            try await ListenStore(db).createPlaylist(userID: user.id, kind: kind, name: name, now: now())
        }
        return PlaylistView(id: String(playlist.id), name: playlist.name, kind: kind, isSystem: false, items: [])
    }

    static func playlistName(_ text: String?) throws -> String {
        do {
            return try Playlist.name(text)
        } catch {
            throw Problem.invalid(FieldProblem(field: error.field, detail: error.reason))
        }
    }

    /// Renames the playlist and/or sets its items: every item must exist and be of the
    /// playlist's kind, each at most once.
    func updatePlaylist(_ id: String, name: String?, items: [Int64]?, for user: UserRecord) async throws
        -> PlaylistView
    {
        guard case .playlist(let number) = try Self.playlistID(id) else {
            throw Problem.forbidden("System playlists are made by Campus and cannot be changed.")
        }
        let newName = try name.map { try Self.playlistName($0) }
        try await database.write { db in
            let store = ListenStore(db)
            let playlist = try await own(number, user, store)
            var list = try await store.playlistItems(number)
            if let items {
                guard items.count <= Playlist.capacity else {
                    throw Problem.invalid(
                        FieldProblem(field: "items", detail: "A playlist holds at most \(Playlist.capacity) items."))
                }
                guard Set(items).count == items.count else {
                    throw Problem.invalid(FieldProblem(field: "items", detail: "Each item is in a playlist once."))
                }
                let found = try await store.media(ids: items)
                if let wrong = items.first(where: { id in !found.contains { $0.id == id } }) {
                    throw Problem.invalid(FieldProblem(field: "items", detail: "There is no media item \(wrong)."))
                }
                if let other = found.first(where: { $0.kind != playlist.kind }) {
                    throw Problem.invalid(
                        FieldProblem(
                            field: "items",
                            detail:
                                "“\(other.title)” is a \(other.kind.rawValue); this playlist holds \(playlist.kind.rawValue) items."
                        ))
                }
                list = items
            }
            try await store.savePlaylist(number, name: newName ?? playlist.name, items: list, now: now())
        }
        return try await playlist(id, for: user)
    }

    func deletePlaylist(_ id: String, for user: UserRecord) async throws {
        guard case .playlist(let number) = try Self.playlistID(id) else {
            throw Problem.forbidden("System playlists are made by Campus and cannot be deleted.")
        }
        try await database.write { db in
            let store = ListenStore(db)
            _ = try await own(number, user, store)
            try await store.deletePlaylist(number)
        }
    }

    /// Items of the playlist's kind not in it yet, matching `query` when given.
    func addable(_ id: String, query: String?, for user: UserRecord) async throws -> [MediaView] {
        guard case .playlist(let number) = try Self.playlistID(id) else {
            throw Problem.forbidden("System playlists are made by Campus and cannot be changed.")
        }
        return try await database.read { db in
            let store = ListenStore(db)
            let playlist = try await own(number, user, store)
            let present = Set(try await store.playlistItems(number))
            let candidates: [Int64]
            if let query, !query.trimmingCharacters(in: .whitespaces).isEmpty {
                candidates = try await store.search(query, limit: 500).compactMap { hit in
                    if case .media(let kind) = hit.kind, kind == playlist.kind { return hit.id }
                    return nil
                }
            } else {
                candidates = try await store.mediaIDs(kind: playlist.kind, limit: 500)
            }
            let ids = candidates.filter { !present.contains($0) }.prefix(100)
            return try await views(try await store.media(ids: Array(ids)), for: user, store: store)
        }
    }

    // MARK: Settings

    func settings(for user: UserRecord) async throws -> ListenSettings {
        try await database.read { db in try await ListenStore(db).settings(userID: user.id) }
    }

    func saveSettings(_ settings: ListenSettings, for user: UserRecord) async throws -> ListenSettings {
        var settings = settings
        settings.radioRegion = settings.radioRegion.trimmingCharacters(in: .whitespacesAndNewlines)
        guard settings.radioRegion.count <= 100 else {
            throw Problem.invalid(FieldProblem(field: "radioRegion", detail: "A region has at most 100 characters."))
        }
        let saved = settings
        try await database.write { db in try await ListenStore(db).saveSettings(userID: user.id, saved, now: now()) }
        return saved
    }

    // MARK: Library

    func scan(_ folder: String) async throws -> LibraryScanSummary {
        do {
            return try await LibraryScanner(database: database, dataDirectory: dataDirectory, logger: logger, now: now)
                .scan(folder)
        } catch let error as LibraryScanner.NotAFolder {
            throw Problem.invalid(FieldProblem(field: "folder", detail: error.description))
        }
    }

    func importPodcast(_ source: String) async throws -> PodcastImportSummary {
        do {
            return try await Podcasts(
                database: database, dataDirectory: dataDirectory, logger: logger, now: now,
                allowPrivateAddresses: outbound.allowPrivateAddresses, deadline: outbound.deadline
            ).add(source)
        } catch let error as Podcasts.Failed {
            throw Problem.invalid(FieldProblem(field: "url", detail: error.description))
        }
    }

    /// The longest upload.
    static let uploadLimit = 200 << 20

    /// Keeps an uploaded file in `uploads/FOLDER/NAME` of the data directory and reads it into
    /// the catalogue (scanning the uploads folder, which leaves everything else as it is).
    func upload<Bytes: AsyncSequence & Sendable>(_ body: Bytes, name: String, folder: String?, for user: UserRecord)
        async throws -> MediaView where Bytes.Element == ArraySlice<UInt8>
    {
        let name = name.trimmingCharacters(in: .whitespaces)
        let ext = (name as NSString).pathExtension.lowercased()
        guard !name.contains("/"), !name.contains("\\"), !name.hasPrefix("."), !name.containsControlCharacters,
            name.utf8.count <= 200, ScannedAudio.extensions[ext] != nil
        else {
            throw Problem.invalid(
                FieldProblem(
                    field: "name",
                    detail:
                        "Name an audio file: mp3, m4a, m4b, aac, ogg, oga, opus, flac, wav or webm, without folders."))
        }
        let parts = (folder ?? "").split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
        guard
            parts.count <= 10,
            parts.allSatisfy({
                !$0.isEmpty && $0.utf8.count <= 100 && $0 != "." && $0 != ".." && !$0.hasPrefix(".")
                    && !$0.contains("\\") && !$0.containsControlCharacters
            })
        else {
            throw Problem.invalid(
                FieldProblem(
                    field: "folder",
                    detail:
                        "Folders are up to 10 names of up to 100 bytes, separated by /, not starting with a dot, "
                        + "without backslashes or control characters."
                ))
        }
        let uploads = URL(fileURLWithPath: dataDirectory).appendingPathComponent("uploads")
        var directory = uploads
        for part in parts { directory.appendPathComponent(part) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = directory.appendingPathComponent(name)
        let partial = directory.appendingPathComponent(".\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw ExternalTool.Failed(description: "Cannot write in \(directory.path).")
        }
        let handle = try FileHandle(forWritingTo: partial)
        var written = 0
        do {
            for try await chunk in body {
                written += chunk.count
                guard written <= Self.uploadLimit else { throw Problem.tooLarge(limit: Self.uploadLimit) }
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
            guard written > 0 else { throw Problem.invalid(FieldProblem(field: "body", detail: "The file is empty.")) }
            if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
            try FileManager.default.moveItem(at: partial, to: target)
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        let summary = try await scan(uploads.path)
        let path = target.standardizedFileURL.resolvingSymlinksInPath().path
        guard let id = try await database.read({ db in try await ListenStore(db).mediaID(path: path) }) else {
            try? FileManager.default.removeItem(at: target)
            throw Problem.invalid(
                FieldProblem(
                    field: "body",
                    detail: "ffprobe cannot read it as audio: \(summary.failed.first ?? "no audio stream")."))
        }
        return try await media(id, for: user)
    }

    /// The cover file of a parent in a size, if it has one.
    func coverPath(_ parentID: Int64, size: ImageSize) async throws -> String {
        guard try await database.read({ db in try await ListenStore(db).cover(parentID: parentID) }) != nil else {
            throw Self.notFound("cover for \(parentID)")
        }
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("covers")
            .appendingPathComponent(LibraryScanner.coverName(parentID: parentID, size: size)).path
        guard FileManager.default.fileExists(atPath: path) else { throw Self.notFound("cover for \(parentID)") }
        return path
    }
}

extension PlayerAction {
    /// The items this action adds to the queue.
    var mediaIDs: [Int64] {
        switch self {
        case .play(let items, _, _), .enqueueNext(let items): items.map(\.mediaID)
        default: []
        }
    }

    /// The action with its new items marked hidden or not.
    func markingHidden(_ hidden: Set<Int64>) -> PlayerAction {
        func marked(_ items: [QueueItem]) -> [QueueItem] {
            items.map { QueueItem(mediaID: $0.mediaID, isHidden: hidden.contains($0.mediaID)) }
        }
        switch self {
        case .play(let items, let startAt, let contextID):
            return .play(items: marked(items), startAt: startAt, contextID: contextID)
        case .enqueueNext(let items): return .enqueueNext(marked(items))
        default: return self
        }
    }
}
