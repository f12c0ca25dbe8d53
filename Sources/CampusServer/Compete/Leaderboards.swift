import Compete
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Storage

/// The rankings of competitions, computed once per change and kept in memory, and the live
/// streams (Server-Sent Events) that send a new ranking to every subscriber when a result
/// changes.
///
/// A change made by this server is sent at once. With PostgreSQL a change made by another
/// instance or the CLI is heard at once too (``ResultsChange``'s `NOTIFY`); the poll, which
/// compares the competitions' `results_version` once a second, catches what was missed while
/// the notifications could not be heard, and SQLite's changes made by the CLI.
final class Leaderboards: Service, Sendable {
    /// A competition's ranking at one version.
    struct Snapshot: Sendable {
        var version: Int64
        var competition: Competition
        var ranked: [RankedEntry]
        /// The `ranking` event that live streams send, encoded once for every subscriber.
        var event: ArraySlice<UInt8>
        /// Participants with a result.
        var rankedCount: Int
        /// Everyone in the competition, to check who may see a deactivated one.
        var participants: Set<Int64>
        /// The categories its participants are in (Ranking.categories).
        var categories: [String]
        /// Pages of this ranking as JSON, encoded once when first asked for.
        let pages = PageCache()

        init(version: Int64, competition: Competition, ranked: [RankedEntry], event: ArraySlice<UInt8>) {
            self.version = version
            self.competition = competition
            self.ranked = ranked
            self.event = event
            self.rankedCount = ranked.lazy.filter { $0.rank != nil }.count
            self.participants = Set(ranked.lazy.map(\.entry.participantID))
            self.categories = Ranking.categories(of: ranked.map(\.entry), listed: competition.categories)
        }
    }

    typealias Stream = AsyncStream<ArraySlice<UInt8>>

    private struct State {
        var snapshots: [Int64: Snapshot] = [:]
        var subscribers: [Int64: [UUID: Stream.Continuation]] = [:]
        var sentVersion: [Int64: Int64] = [:]
        /// When each kept ranking's version was last compared with the database.
        var checked: [Int64: ContinuousClock.Instant] = [:]
    }

    private let state = NIOLockedValueBox(State())
    let database: Database
    let logger: Logger
    /// Turns a snapshot into the bytes of its SSE event (the API's Ranking document).
    let encodeEvent: @Sendable (_ version: Int64, _ competition: Competition, _ ranked: [RankedEntry]) -> [UInt8]
    static let pollInterval: Duration = .seconds(1)
    static let heartbeatInterval: Duration = .seconds(15)
    /// Rankings kept in memory; more are computed again when asked for.
    static let capacity = 256

    init(
        database: Database, logger: Logger,
        encodeEvent: @escaping @Sendable (Int64, Competition, [RankedEntry]) -> [UInt8]
    ) {
        self.database = database
        self.logger = logger
        self.encodeEvent = encodeEvent
    }

    // MARK: Rankings

    /// The current ranking; nil when the competition does not exist. Changes made by this server
    /// replace the ranking at once (``changed(_:)``); for changes made elsewhere the version in
    /// the database is compared at most once per ``recheckInterval``.
    func snapshot(_ id: Int64) async throws -> Snapshot? {
        let now = ContinuousClock.now
        // One request checks the version; the others meanwhile take the kept ranking.
        let (cached, fresh) = state.withLockedValue { state -> (Snapshot?, Bool) in
            guard let cached = state.snapshots[id] else { return (nil, false) }
            if let checked = state.checked[id], now - checked < Self.recheckInterval { return (cached, true) }
            state.checked[id] = now
            return (cached, false)
        }
        if let cached, fresh { return cached }
        let version = try await database.read { db in try await CompeteStore(db).resultsVersion(id: id) }
        guard let version else {
            state.withLockedValue { _ = $0.snapshots.removeValue(forKey: id) }
            return nil
        }
        if let cached, cached.version == version {
            state.withLockedValue { $0.checked[id] = now }
            return cached
        }
        return try await load(id)
    }

    static let recheckInterval: Duration = .seconds(1)

    /// Makes the next read of every ranking compare its version with the database (after a
    /// change this server made outside ``CompeteService``, such as deleting an account).
    func invalidate() {
        state.withLockedValue { $0.checked.removeAll() }
    }

    /// Reads the competition and its entries and ranks them.
    private func load(_ id: Int64) async throws -> Snapshot? {
        let started = ContinuousClock.now
        let loaded = try await database.read { db -> (Int64, Competition, [Entry])? in
            let store = CompeteStore(db)
            // The version is read first: if a change lands in between, the next request sees a
            // newer version and ranks again.
            guard let version = try await store.resultsVersion(id: id),
                let competition = try await store.competition(id: id)
            else { return nil }
            return (version, competition, try await store.rankingEntries(competitionID: id))
        }
        guard let (version, competition, entries) = loaded else {
            state.withLockedValue { _ = $0.snapshots.removeValue(forKey: id) }
            return nil
        }
        let ranked = Ranking.rank(entries, by: competition.ranksBy)
        let snapshot = Snapshot(
            version: version, competition: competition, ranked: ranked,
            event: ArraySlice(encodeEvent(version, competition, ranked)))
        state.withLockedValue { state in
            if let current = state.snapshots[id], current.version > version { return }
            if state.snapshots.count >= Self.capacity, state.snapshots[id] == nil {
                // Forget rankings nobody follows live.
                for key in state.snapshots.keys where state.subscribers[key]?.isEmpty ?? true {
                    state.snapshots.removeValue(forKey: key)
                    state.checked.removeValue(forKey: key)
                    if state.snapshots.count < Self.capacity / 2 { break }
                }
            }
            state.snapshots[id] = snapshot
            state.checked[id] = started
        }
        return snapshot
    }

    /// Call after this server changed a competition's ranking: ranks again and tells every
    /// live subscriber.
    func changed(_ id: Int64) async {
        do {
            if let snapshot = try await load(id) {
                broadcast(snapshot)
            } else {
                finish(id, with: ServerSentEvent.text(name: "deleted", id: nil, data: #"{"competitionId":\#(id)}"#))
            }
        } catch {
            logger.warning(
                "ranking could not be updated", metadata: ["competition": "\(id)", "error": "\(ErrorLog.text(error))"])
        }
    }

    /// Call after this server changed one participant's entry (a result, a join, a leave):
    /// when the kept ranking is the version just before, it is updated in memory instead of
    /// being read and ranked again.
    func changed(_ id: Int64, version: Int64, participant: Int64, entry: Entry?) async {
        guard let current = state.withLockedValue({ $0.snapshots[id] }), current.version == version - 1 else {
            await changed(id)
            return
        }
        let competition = current.competition
        let ranked = Ranking.updating(current.ranked, participant: participant, to: entry, by: competition.ranksBy)
        let snapshot = Snapshot(
            version: version, competition: competition, ranked: ranked,
            event: ArraySlice(encodeEvent(version, competition, ranked)))
        let stored = state.withLockedValue { state -> Bool in
            if let kept = state.snapshots[id], kept.version >= version { return false }
            state.snapshots[id] = snapshot
            state.checked[id] = ContinuousClock.now
            return true
        }
        if stored { broadcast(snapshot) } else { await changed(id) }
    }

    private func broadcast(_ snapshot: Snapshot) {
        let id = snapshot.competition.id
        let continuations = state.withLockedValue { state -> [Stream.Continuation] in
            guard let subscribers = state.subscribers[id], !subscribers.isEmpty else { return [] }
            if let sent = state.sentVersion[id], sent >= snapshot.version { return [] }
            state.sentVersion[id] = snapshot.version
            return Array(subscribers.values)
        }
        for continuation in continuations { continuation.yield(snapshot.event) }
    }

    private func finish(_ id: Int64, with event: ArraySlice<UInt8>) {
        let continuations = state.withLockedValue { state in
            let subscribers = state.subscribers.removeValue(forKey: id) ?? [:]
            state.sentVersion.removeValue(forKey: id)
            state.snapshots.removeValue(forKey: id)
            state.checked.removeValue(forKey: id)
            return Array(subscribers.values)
        }
        for continuation in continuations {
            continuation.yield(event)
            continuation.finish()
        }
    }

    // MARK: Live streams

    /// A stream of SSE bytes for one competition: first the current ranking, then each new one.
    func subscribe(_ snapshot: Snapshot) -> Stream {
        let id = snapshot.competition.id
        let key = UUID()
        let (stream, continuation) = Stream.makeStream(bufferingPolicy: .bufferingNewest(8))
        continuation.yield(ServerSentEvent.text(name: nil, id: nil, data: nil, retry: 2000))
        continuation.yield(snapshot.event)
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { state in
                state.subscribers[id]?.removeValue(forKey: key)
                if state.subscribers[id]?.isEmpty == true {
                    state.subscribers.removeValue(forKey: id)
                    state.sentVersion.removeValue(forKey: id)
                }
            }
        }
        state.withLockedValue { state in
            state.subscribers[id, default: [:]][key] = continuation
            state.sentVersion[id] = max(state.sentVersion[id] ?? 0, snapshot.version)
        }
        return stream
    }

    var subscriberCount: Int { state.withLockedValue { $0.subscribers.values.reduce(0) { $0 + $1.count } } }

    // MARK: Service

    /// Hears and polls for changes made elsewhere, sends heartbeats, and ends every stream at
    /// shutdown.
    func run() async throws {
        let hearing = Task { await hearChanges() }
        defer { hearing.cancel() }
        var sinceHeartbeat: Duration = .zero
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.pollInterval) }
            sinceHeartbeat += Self.pollInterval
            await poll()
            if sinceHeartbeat >= Self.heartbeatInterval {
                sinceHeartbeat = .zero
                let all = state.withLockedValue { $0.subscribers.values.flatMap(\.values) }
                for continuation in all { continuation.yield(ServerSentEvent.heartbeat) }
            }
        }
        let all = state.withLockedValue { state in
            let all = state.subscribers.values.flatMap(\.values)
            state.subscribers.removeAll()
            return all
        }
        for continuation in all { continuation.finish() }
    }

    /// Ranks again, at once, the followed competitions another instance changed: changes heard
    /// while a ranking is made are ranked together after it.
    private func hearChanges() async {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let pending = NIOLockedValueBox<Set<Int64>>([])
        let listening = Task {
            await database.followResultsChanges(following: { wake.yield() }) { [weak self] changes in
                guard let self else { return }
                let newer = self.state.withLockedValue { state in
                    changes.filter { change in
                        guard state.subscribers[change.competitionID]?.isEmpty == false else { return false }
                        return (state.sentVersion[change.competitionID] ?? -1) < change.version
                    }.map(\.competitionID)
                }
                guard !newer.isEmpty else { return }
                pending.withLockedValue { $0.formUnion(newer) }
                wake.yield()
            }
        }
        defer { listening.cancel() }
        for await _ in wakes {
            let ids = pending.withLockedValue { pending in
                defer { pending.removeAll() }
                return pending
            }
            for id in ids { await changed(id) }
        }
    }

    func poll() async {
        let watched = state.withLockedValue { state in
            state.subscribers.filter { !$0.value.isEmpty }.map { ($0.key, state.sentVersion[$0.key] ?? -1) }
        }
        guard !watched.isEmpty else { return }
        do {
            let versions = try await database.read { db in
                try await CompeteStore(db).resultsVersions(ids: watched.map(\.0))
            }
            for (id, sent) in watched {
                if let version = versions[id] {
                    if version > sent { await changed(id) }
                } else {
                    await changed(id)
                }
            }
        } catch  where DatabaseUnavailable.of(error) == nil {
            logger.warning("live rankings could not be polled", metadata: ["error": "\(ErrorLog.text(error))"])
        } catch {
            // The database is down: it says so once; polled again in a second.
        }
    }
}

/// The encoded pages of one ranking version (JSON encoding costs more than everything else of a
/// ranking request), by limit and offset; at most ``capacity`` pages are kept.
final class PageCache: Sendable {
    static let capacity = 256
    private let pages = NIOLockedValueBox<[Int: [UInt8]]>([:])

    func page(limit: Int, offset: Int, make: () -> [UInt8]) -> [UInt8] {
        let key = offset &* 256 &+ limit
        if let page = pages.withLockedValue({ $0[key] }) { return page }
        let page = make()
        pages.withLockedValue { pages in
            if pages.count >= Self.capacity { pages.removeAll() }
            pages[key] = page
        }
        return page
    }
}
