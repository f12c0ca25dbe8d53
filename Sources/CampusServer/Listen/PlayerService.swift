import Accounts
import Foundation
import InputRules
import Listen
import Storage

/// The player kept on the server for each listener (queue, position, history, settings), as the
/// web app and other players (Subsonic's scrobbles, bookmarks, play queue) drive it.
struct PlayerService: Sendable {
    let database: Database
    let catalogue: CatalogueService
    let now: @Sendable () -> Date
}

/// The player kept on the server: what the listener's devices share (queue, position, mode),
/// what they heard, where they stopped, and how they like to listen (settings).
extension PlayerService {
    // MARK: Player

    /// What the API sends: the action and its payload, before the references are resolved.
    struct PlayerRequest: Sendable {
        var action: String
        var ids: [String]?
        var contextID: String?
        /// The field that named the context (`payload.contextId`, or the seed's `payload.context_id`).
        var contextField = "payload.contextId"
        var position: Double?
        var places: [Int]?
        var from: Int?
        var to: Int?
        var place: Int?
        /// With `play`: shuffle on or off (seed 001's Listing 9 sends it); nil keeps the mode.
        var shuffle: Bool?
        /// With `play`: the repeat mode to take; nil keeps the mode.
        var repeatMode: RepeatMode?
    }

    struct PlayerView: Sendable {
        var state: PlayerState
        var version: Int64
        var items: [Int64: CatalogueService.MediaView]
    }

    func player(for user: Account) async throws -> PlayerView {
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

    private func view(_ state: PlayerState, version: Int64?, for user: Account, store: ListenStore) async throws
        -> PlayerView
    {
        let ids = Array(Set(state.queue.map(\.mediaID)))
        var items: [Int64: CatalogueService.MediaView] = [:]
        for view in try await catalogue.views(try await store.media(ids: ids), for: user, store: store) {
            items[view.item.id] = view
        }
        return PlayerView(state: state, version: version ?? 0, items: items)
    }

    /// Applies one action to the listener's player and stores it, with the listening history
    /// and resume positions it causes. Two devices acting at once both succeed, one after the
    /// other: a write that finds the state changed reads it again and applies its action anew.
    func act(_ request: PlayerRequest, for user: Account) async throws -> PlayerView {
        try await perform(for: user) { store in try await action(request, for: user, store: store) }
    }

    /// Takes the queue another player saved (the Subsonic API's savePlayQueue): the items, the
    /// current one and the position in it, paused; an empty list clears the queue.
    func restoreQueue(_ mediaIDs: [Int64], current: Int64?, position: Double, for user: Account) async throws
        -> PlayerView
    {
        try await perform(for: user) { store in
            let found = Set(try await store.media(ids: Array(Set(mediaIDs))).map(\.id))
            if let missing = mediaIDs.first(where: { !found.contains($0) }) {
                throw Refusal.notFound("There is no media item {id}.", ["id": String(missing)])
            }
            return .restore(items: mediaIDs.map { QueueItem(mediaID: $0) }, current: current, position: position)
        }
    }

    /// Applies the action `makeAction` makes (inside the transaction) to the listener's player.
    private func perform(
        for user: Account, _ makeAction: @escaping @Sendable (ListenStore) async throws -> PlayerAction
    ) async throws -> PlayerView {
        for _ in 0..<5 {
            do {
                return try await database.write { db in
                    let store = ListenStore(db)
                    var (state, version) = try await Self.load(store, user.id)
                    let action = try await makeAction(store)
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
                            events += try await continueEndlessly(
                                &state, userID: user.id, store: store, random: &generator)
                        }
                    } catch let error as PlayerError {
                        throw Refusal.invalid(error.fieldProblem)
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
        throw Refusal.conflict("The player is changing on another device right now; try again.")
    }

    /// When the queue ends and the listener asked for an endless queue: similar items (and items
    /// of the listener's picks) are added and the first of them plays.
    private func continueEndlessly<R: RandomNumberGenerator>(
        _ state: inout PlayerState, userID: Int64, store: ListenStore, random: inout R
    ) async throws -> [ListeningEvent] {
        let queued = state.queue.map(\.mediaID)
        let similar = try await store.similar(to: queued, userID: userID, limit: 20)
        guard !similar.isEmpty, queued.count + similar.count <= PlayerState.capacity, let current = state.current
        else { return [] }
        try state.apply(.enqueueNext(similar.map { QueueItem(mediaID: $0) }), random: &random)
        return try state.apply(.trackChange(place: current + 1), random: &random)
    }

    /// The domain action for a request, with references resolved to items.
    private func action(_ request: PlayerRequest, for user: Account, store: ListenStore) async throws
        -> PlayerAction
    {
        func position() throws -> Double {
            guard let position = request.position else {
                throw Refusal.invalid(
                    FieldProblem(field: "payload.position", detail: "Say where playback is (seconds)."))
            }
            return position
        }
        func number(_ value: Int?, _ name: String) throws -> Int {
            guard let value else {
                throw Refusal.invalid(
                    FieldProblem(
                        field: "payload.\(name)", detail: "{field} is needed for this action.", ["field": name]))
            }
            return value
        }
        func resolved(_ references: [String]?) async throws -> [QueueItem] {
            guard let references, !references.isEmpty else {
                throw Refusal.invalid(FieldProblem(field: "payload.ids", detail: "Say what to play in ids."))
            }
            var items: [QueueItem] = []
            for text in references {
                let reference = try CatalogueService.playerReference(text, field: "payload.ids", bareIDIsItem: true)
                items += try await catalogue.items(of: reference, for: user, store: store).map {
                    QueueItem(mediaID: $0)
                }
                guard items.count <= PlayerState.capacity else {
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "payload.ids", detail: "A queue holds at most {maximum} items.",
                            ["maximum": String(PlayerState.capacity)]))
                }
            }
            return items
        }
        switch request.action {
        case "initialize": return .initialize
        case "play":
            if let context = request.contextID {
                let reference = try CatalogueService.playerReference(
                    context, field: request.contextField, bareIDIsItem: false)
                let items = try await catalogue.items(of: reference, for: user, store: store).map {
                    QueueItem(mediaID: $0)
                }
                var start: Int64?
                if let first = request.ids?.first {
                    guard
                        case .media(let id) = try CatalogueService.playerReference(
                            first, field: "payload.ids", bareIDIsItem: true)
                    else {
                        throw Refusal.invalid(
                            FieldProblem(
                                field: "payload.ids", detail: "With a context, ids names the item to start with."))
                    }
                    start = id
                }
                return .play(
                    items: items, startAt: start, contextID: reference.description, shuffle: request.shuffle,
                    repeatMode: request.repeatMode)
            }
            return .play(
                items: try await resolved(request.ids), startAt: nil, contextID: nil, shuffle: request.shuffle,
                repeatMode: request.repeatMode)
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
                throw Refusal.invalid(FieldProblem(field: "payload.places", detail: "Say which places to delete."))
            }
            return .trackDelete(places: places)
        case "track_reorder":
            return .trackReorder(from: try number(request.from, "from"), to: try number(request.to, "to"))
        case "track_change": return .trackChange(place: try number(request.place, "place"))
        case "clear_queue": return .clearQueue
        case "queue_ended": return .queueEnded
        default:
            throw Refusal.malformed(
                "“{action}” is not a player action.", ["action": String(request.action.prefix(40))])
        }
    }

    /// The listener's history with its items.
    func history(for user: Account, limit: Int) async throws -> [(CatalogueService.MediaView, ListeningEvent, Date)] {
        try await database.read { db in
            let store = ListenStore(db)
            let entries = try await store.history(userID: user.id, limit: limit)
            var items: [Int64: CatalogueService.MediaView] = [:]
            for view in try await catalogue.views(
                try await store.media(ids: Array(Set(entries.map(\.event.mediaID)))), for: user, store: store)
            {
                items[view.item.id] = view
            }
            return entries.compactMap { entry in items[entry.event.mediaID].map { ($0, entry.event, entry.at) } }
        }
    }

    // MARK: Settings

    func settings(for user: Account) async throws -> ListenSettings {
        try await database.read { db in try await ListenStore(db).settings(userID: user.id) }
    }

    func saveSettings(_ settings: ListenSettings, for user: Account) async throws -> ListenSettings {
        var settings = settings
        settings.radioRegion = TextRules.trimmed(settings.radioRegion)
        guard settings.radioRegion.count <= 100 else {
            throw Refusal.invalid(FieldProblem(field: "radioRegion", detail: "A region has at most 100 characters."))
        }
        let saved = settings
        try await database.write { db in try await ListenStore(db).saveSettings(userID: user.id, saved, now: now()) }
        return saved
    }
}

extension PlayerAction {
    /// The items this action adds to the queue.
    var mediaIDs: [Int64] {
        switch self {
        case .play(let items, _, _, _, _), .enqueueNext(let items), .restore(let items, _, _): items.map(\.mediaID)
        default: []
        }
    }

    /// The action with its new items marked hidden or not.
    func markingHidden(_ hidden: Set<Int64>) -> PlayerAction {
        func marked(_ items: [QueueItem]) -> [QueueItem] {
            items.map { QueueItem(mediaID: $0.mediaID, isHidden: hidden.contains($0.mediaID)) }
        }
        switch self {
        case .play(let items, let startAt, let contextID, let shuffle, let repeatMode):
            return .play(
                items: marked(items), startAt: startAt, contextID: contextID, shuffle: shuffle, repeatMode: repeatMode)
        case .enqueueNext(let items): return .enqueueNext(marked(items))
        case .restore(let items, let current, let position):
            return .restore(items: marked(items), current: current, position: position)
        default: return self
        }
    }
}
