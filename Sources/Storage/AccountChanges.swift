import Foundation
import Logging
import PostgresKit
import SQLKit
import Synchronization

/// A change to an account or a session that copies kept in memory must forget. Every write of
/// `AccountStore` that changes what a session's check answers tells of itself in its
/// transaction: with PostgreSQL a `NOTIFY` (delivered to every instance when the transaction
/// commits), with SQLite a raised counter (`change_counters`), which instances poll.
public enum AccountChange: Sendable, Equatable {
    /// Anything of the user: name, group, role, language, password, avatar, or the whole account.
    case user(Int64)
    /// The session with this token hash ended.
    case session(tokenHash: String)

    static let channel = "campus_accounts"

    var payload: String {
        switch self {
        case .user(let id): "user:\(id)"
        case .session(let hash): "session:\(hash)"
        }
    }

    init?(payload: String) {
        if payload.hasPrefix("user:"), let id = Int64(payload.dropFirst(5)) {
            self = .user(id)
        } else if payload.hasPrefix("session:") {
            self = .session(tokenHash: String(payload.dropFirst(8)))
        } else {
            return nil
        }
    }

    /// Tells of the change in the transaction `db` is in.
    func announce(in db: any SQLDatabase) async throws {
        if db.dialect.name == "postgresql" {
            try await db.raw("SELECT pg_notify(\(bind: Self.channel), \(bind: payload))").run()
        } else {
            try await db.raw("UPDATE change_counters SET version = version + 1 WHERE name = 'accounts'").run()
        }
    }
}

/// What a follower of account changes hears.
public enum AccountChangeEvent: Sendable, Equatable {
    /// Following from now on: anything before may have been missed, so forget everything.
    case following
    /// These changes were made (by this instance or another).
    case changed(AccountChange)
    /// Something changed, it is not known what (SQLite's counter): forget everything.
    case somethingChanged
    /// Changes can no longer be heard (the connection was lost): forget everything and keep
    /// nothing until `following` comes again.
    case lost
}

extension Database {
    /// Hears the account changes every instance and process makes, until the task is cancelled.
    /// PostgreSQL: `LISTEN` on a connection of its own, again a second after it is lost. SQLite:
    /// the counter, read every `pollInterval`.
    public func followAccountChanges(
        pollInterval: Duration = .milliseconds(50), _ event: @escaping @Sendable (AccountChangeEvent) -> Void
    ) async {
        // Said once per loss: while the database is down, each attempt a second fails again.
        let warned = Flag()
        while !Task.isCancelled {
            do {
                switch backend {
                case .postgres(let backend):
                    try await backend.listen(AccountChange.channel) { payload in
                        if let payload {
                            if let change = AccountChange(payload: payload) { event(.changed(change)) }
                        } else {
                            event(.following)
                            warned.set(false)
                        }
                    }
                case .sqlite:
                    var seen: Int64?
                    while !Task.isCancelled {
                        let version = try await read { db in
                            try await db.raw("SELECT version FROM change_counters WHERE name = 'accounts'")
                                .first(decodingColumn: "version", as: Int64.self)
                        }
                        if seen == nil {
                            event(.following)
                            warned.set(false)
                        } else if version != seen {
                            event(.somethingChanged)
                        }
                        seen = version ?? 0
                        try await Task.sleep(for: pollInterval)
                    }
                }
            } catch {
                if Task.isCancelled { break }
                if !warned.set(true) {
                    logger.warning(
                        "account changes cannot be heard; sessions are read from the database until they can",
                        metadata: ["error": "\(LoggedError.text(error))"])
                }
            }
            event(.lost)
            try? await Task.sleep(for: .seconds(1))
        }
    }
}

/// A flag that tasks share.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Sets the flag; returns what it was.
    @discardableResult
    func set(_ new: Bool) -> Bool { value.exchange(new, ordering: .relaxed) }
}

extension Database {
    /// Hears every instance's notifications on `channel` until the task is cancelled
    /// (PostgreSQL: `LISTEN` on a connection of its own, again a second after it is lost); with
    /// SQLite, one instance, it returns at once. `following` is told each time it listens again:
    /// notifications before may have been missed.
    func followNotifications(
        _ channel: String, following: @escaping @Sendable () -> Void, _ heard: @escaping @Sendable (String) -> Void
    ) async {
        guard case .postgres(let backend) = backend else { return }
        while !Task.isCancelled {
            do {
                try await backend.listen(channel) { payload in
                    if let payload { heard(payload) } else { following() }
                }
            } catch {
                if Task.isCancelled { break }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}

extension PostgresBackend {
    /// `LISTEN`s on `channel` on a connection of its own: `heard(nil)` once listening, then each
    /// notification's payload; returns (or throws) when the connection ends. The wait for the
    /// connection is bounded like any other; the listening is not (it lasts).
    func listen(_ channel: String, _ heard: @escaping @Sendable (String?) -> Void) async throws {
        try await withConnection(wait: Self.connectionWait, watched: false) { connection in
            try await connection.listen(on: channel) { notifications in
                heard(nil)
                for try await notification in notifications { heard(notification.payload) }
            }
        }
    }
}
