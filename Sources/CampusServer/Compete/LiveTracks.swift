import Compete
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Storage

/// The live streams (Server-Sent Events) of competitions' tracks: each stored batch of positions
/// goes to every subscriber of its competition as a `position` event.
///
/// A batch stored by this server is sent at once. With PostgreSQL a batch stored by another
/// instance is heard at once too (``TrackingChange``'s `NOTIFY`): its new positions are read by
/// batch number, so that each reaches a subscriber once. After the notifications could not be
/// heard for a while, every followed track is read again.
final class LiveTracks: Service, Sendable {
    typealias Stream = AsyncStream<ArraySlice<UInt8>>

    private struct Key: Hashable {
        var competition: Int64
        var user: Int64
    }

    private struct State {
        var subscribers: [Int64: [UUID: Stream.Continuation]] = [:]
        /// The last batch of each track sent to this competition's subscribers.
        var sent: [Key: Int64] = [:]
    }

    private let state = NIOLockedValueBox(State())
    let database: Database
    let logger: Logger
    static let heartbeatInterval: Duration = .seconds(15)

    init(database: Database, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// The `position` event of a stored batch: the participant's figures and their new positions
    /// (`[latitude, longitude, milliseconds since 1970]` each, in time order).
    static func event(_ tracking: Tracking, added: [TrackPoint]) -> ArraySlice<UInt8> {
        ServerSentEvent.text(
            name: "position", id: "\(tracking.userID):\(tracking.batch)", data: TrackingJSON.position(tracking, added))
    }

    /// Call after this server stored a batch: tells the competition's subscribers.
    func stored(_ batch: TrackingBatch) {
        broadcast(batch.tracking, added: batch.added)
    }

    /// Call after a track finished or was removed: its figures, with no new positions.
    func changed(_ tracking: Tracking) {
        let continuations = state.withLockedValue { state in
            Array(state.subscribers[tracking.competitionID]?.values ?? [:].values)
        }
        let event = Self.event(tracking, added: [])
        for continuation in continuations { continuation.yield(event) }
    }

    private func broadcast(_ tracking: Tracking, added: [TrackPoint]) {
        let key = Key(competition: tracking.competitionID, user: tracking.userID)
        let continuations = state.withLockedValue { state -> [Stream.Continuation] in
            guard let subscribers = state.subscribers[key.competition], !subscribers.isEmpty else { return [] }
            if let sent = state.sent[key], sent >= tracking.batch { return [] }
            state.sent[key] = tracking.batch
            return Array(subscribers.values)
        }
        guard !continuations.isEmpty else { return }
        let event = Self.event(tracking, added: added)
        for continuation in continuations { continuation.yield(event) }
    }

    /// A stream of SSE bytes for one competition: first a `tracks` event with every track's
    /// figures and last position, then a `position` event for each stored batch.
    func subscribe(competitionID id: Int64, current: [Tracking]) -> Stream {
        let key = UUID()
        let (stream, continuation) = Stream.makeStream(bufferingPolicy: .bufferingNewest(256))
        continuation.yield(ServerSentEvent.text(name: nil, id: nil, data: nil, retry: 2000))
        continuation.yield(ServerSentEvent.text(name: "tracks", id: nil, data: TrackingJSON.tracks(current)))
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { state in
                state.subscribers[id]?.removeValue(forKey: key)
                if state.subscribers[id]?.isEmpty == true {
                    state.subscribers.removeValue(forKey: id)
                    state.sent = state.sent.filter { $0.key.competition != id }
                }
            }
        }
        state.withLockedValue { state in
            state.subscribers[id, default: [:]][key] = continuation
            for tracking in current {
                let key = Key(competition: id, user: tracking.userID)
                state.sent[key] = max(state.sent[key] ?? 0, tracking.batch)
            }
        }
        return stream
    }

    var subscriberCount: Int { state.withLockedValue { $0.subscribers.values.reduce(0) { $0 + $1.count } } }

    // MARK: Service

    /// Hears other instances' batches, sends heartbeats, and ends every stream at shutdown.
    func run() async throws {
        let hearing = Task { await hearChanges() }
        defer { hearing.cancel() }
        await ServerSentEvent.keepAlive(
            every: Self.heartbeatInterval,
            streams: { state.withLockedValue { $0.subscribers.values.flatMap(\.values) } },
            removeAll: {
                state.withLockedValue { state in
                    defer { state.subscribers.removeAll() }
                    return state.subscribers.values.flatMap(\.values)
                }
            })
    }

    /// Reads and sends, in order, the batches other instances stored for followed competitions.
    private func hearChanges() async {
        let (changes, heard) = AsyncStream<TrackingChange?>.makeStream()
        let listening = Task {
            await database.followTrackingChanges(following: { heard.yield(nil) }) { heard.yield($0) }
        }
        defer { listening.cancel() }
        for await change in changes {
            if let change {
                await catchUp(competition: change.competitionID, user: change.userID, batch: change.batch)
            } else {
                await catchUpAll()
            }
        }
    }

    /// Sends what a track gained after the last batch sent, if anybody follows its competition.
    private func catchUp(competition: Int64, user: Int64, batch: Int64) async {
        let key = Key(competition: competition, user: user)
        let sent = state.withLockedValue { state -> Int64? in
            guard state.subscribers[competition]?.isEmpty == false else { return nil }
            return state.sent[key] ?? 0
        }
        guard let sent, sent < batch else { return }
        do {
            let read = try await database.read { db -> (Tracking, [TrackPoint])? in
                let store = CompeteStore(db)
                guard let tracking = try await store.tracking(competitionID: competition, userID: user) else {
                    return nil
                }
                let added = try await store.trackingPoints(competitionID: competition, userID: user, afterBatch: sent)
                return (tracking, added)
            }
            if let (tracking, added) = read { broadcast(tracking, added: added) }
        } catch {
            logger.warning(
                "live track could not be read",
                metadata: ["competition": "\(competition)", "error": "\(ErrorLog.text(error))"])
        }
    }

    /// After listening again: every followed track, from the last batch each subscriber got.
    private func catchUpAll() async {
        let followed = state.withLockedValue { Array($0.subscribers.keys) }
        for competition in followed {
            let trackings =
                (try? await database.read { db in try await CompeteStore(db).trackings(competitionID: competition) })
                ?? []
            for tracking in trackings {
                await catchUp(competition: competition, user: tracking.userID, batch: tracking.batch)
            }
        }
    }
}
