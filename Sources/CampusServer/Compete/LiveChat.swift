import CampusAPI
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Storage

/// The live streams (Server-Sent Events) of competitions' chats: each message posted or deleted
/// goes to every subscriber of its competition as a `message` event (a deleted one with
/// `deleted: true` and no text), in the chat's version order, each once.
///
/// A change made by this server is sent at once. With PostgreSQL a change made by another
/// instance is heard at once too (``ChatChange``'s `NOTIFY`): what the chat gained after the
/// last version sent is read. After the notifications could not be heard for a while, every
/// followed chat is read again.
final class LiveChat: Service, Sendable {
    typealias Stream = AsyncStream<ArraySlice<UInt8>>

    private struct State {
        var subscribers: [Int64: [UUID: Stream.Continuation]] = [:]
        /// The last version of each followed chat sent to its subscribers.
        var sent: [Int64: Int64] = [:]
    }

    private let state = NIOLockedValueBox(State())
    let database: Database
    let logger: Logger
    static let heartbeatInterval: Duration = .seconds(15)
    /// How many changes a subscriber that comes back (`after`) gets at most; more are read
    /// with the history.
    static let catchUpLimit = 500

    init(database: Database, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    static func event(_ message: ChatMessage) -> ArraySlice<UInt8> {
        let json = (try? APIJSON.encoder().encode(message.api)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ServerSentEvent.text(name: "message", id: String(message.version), data: json)
    }

    /// Call after this server stored a change: tells the competition's subscribers.
    func changed(_ message: ChatMessage) {
        broadcast(message.competitionID, [message])
    }

    private func broadcast(_ competition: Int64, _ messages: [ChatMessage]) {
        let (continuations, news) = state.withLockedValue { state -> ([Stream.Continuation], [ChatMessage]) in
            guard let subscribers = state.subscribers[competition], !subscribers.isEmpty else { return ([], []) }
            let sent = state.sent[competition] ?? 0
            let news = messages.filter { $0.version > sent }.sorted { $0.version < $1.version }
            if let last = news.last { state.sent[competition] = last.version }
            return (Array(subscribers.values), news)
        }
        for message in news {
            let event = Self.event(message)
            for continuation in continuations { continuation.yield(event) }
        }
    }

    /// A stream of SSE bytes for one chat: what changed after `version` (`missed`, read by the
    /// caller), then each change as it comes.
    func subscribe(competitionID id: Int64, version: Int64, missed: [ChatMessage]) -> Stream {
        let key = UUID()
        let (stream, continuation) = Stream.makeStream(bufferingPolicy: .bufferingNewest(256))
        continuation.yield(ServerSentEvent.text(name: nil, id: nil, data: nil, retry: 2000))
        for message in missed { continuation.yield(Self.event(message)) }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { state in
                state.subscribers[id]?.removeValue(forKey: key)
                if state.subscribers[id]?.isEmpty == true {
                    state.subscribers.removeValue(forKey: id)
                    state.sent.removeValue(forKey: id)
                }
            }
        }
        // The first subscriber sets where the chat's stream is; a later one may get a change
        // twice (its `id`, the version, tells), but none that the others wait for is skipped.
        let last = max(version, missed.last?.version ?? 0)
        state.withLockedValue { state in
            state.subscribers[id, default: [:]][key] = continuation
            if state.sent[id] == nil { state.sent[id] = last }
        }
        return stream
    }

    var subscriberCount: Int { state.withLockedValue { $0.subscribers.values.reduce(0) { $0 + $1.count } } }

    // MARK: Service

    /// Hears other instances' changes, sends heartbeats, and ends every stream at shutdown.
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

    private func hearChanges() async {
        let (changes, heard) = AsyncStream<ChatChange?>.makeStream()
        let listening = Task {
            await database.followChatChanges(following: { heard.yield(nil) }) { heard.yield($0) }
        }
        defer { listening.cancel() }
        for await change in changes {
            if let change {
                await catchUp(change.competitionID, version: change.version)
            } else {
                for competition in state.withLockedValue({ Array($0.subscribers.keys) }) {
                    await catchUp(competition, version: .max)
                }
            }
        }
    }

    /// Sends what the chat gained after the last version sent, if anybody follows it.
    private func catchUp(_ competition: Int64, version: Int64) async {
        let sent = state.withLockedValue { state -> Int64? in
            guard state.subscribers[competition]?.isEmpty == false else { return nil }
            return state.sent[competition] ?? 0
        }
        guard let sent, sent < version else { return }
        do {
            let news = try await database.read { db in
                try await ChatStore(db).changes(competitionID: competition, after: sent, limit: Self.catchUpLimit)
            }
            broadcast(competition, news)
        } catch {
            logger.warning(
                "chat could not be read",
                metadata: ["competition": "\(competition)", "error": "\(ErrorLog.text(error))"])
        }
    }
}
