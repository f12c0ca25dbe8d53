import Foundation
import SQLKit
import SharedHelpers

/// A message of a competition's chat; a deleted one has no text left.
public struct ChatMessage: Sendable, Equatable {
    public var id: Int64
    public var competitionID: Int64
    public var userID: Int64
    public var authorName: String
    public var text: String
    public var createdAt: Date
    /// The competition's chat version of the message's last change (posting or deleting it).
    public var version: Int64
    public var deletedAt: Date?
}

/// A competition's chat changed (a message posted or deleted): at which version. With PostgreSQL
/// every change says so with a `NOTIFY` in its transaction, so that live pages on every instance
/// follow (issue 41).
public struct ChatChange: Sendable, Equatable {
    public var competitionID: Int64
    public var version: Int64

    static let channel = "campus_chat"

    static func parse(_ payload: String) -> ChatChange? {
        let fields = payload.split(separator: ":")
        guard fields.count == 2, let competition = Int64(fields[0]), let version = Int64(fields[1]) else { return nil }
        return ChatChange(competitionID: competition, version: version)
    }
}

/// Competitions' chats (issue 41).
public struct ChatStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    private static let columns = """
        m.id, m.competition_id, m.user_id, m.body, m.created_at, m.version, m.deleted_at, u.first_name, u.last_name
        """

    /// The newest messages (before message `before`, when given), newest first.
    public func messages(competitionID: Int64, before: Int64?, limit: Int) async throws -> [ChatMessage] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.columns) FROM chat_messages m JOIN users u ON u.id = m.user_id
            WHERE m.competition_id = \(bind: competitionID) AND m.id < \(bind: before ?? Int64.max)
            ORDER BY m.id DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.message)
    }

    /// What changed after `version` (messages posted or deleted), in version order.
    public func changes(competitionID: Int64, after version: Int64, limit: Int) async throws -> [ChatMessage] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.columns) FROM chat_messages m JOIN users u ON u.id = m.user_id
            WHERE m.competition_id = \(bind: competitionID) AND m.version > \(bind: version)
            ORDER BY m.version LIMIT \(bind: limit)
            """
        ).all().map(Self.message)
    }

    public func message(id: Int64, competitionID: Int64) async throws -> ChatMessage? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.columns) FROM chat_messages m JOIN users u ON u.id = m.user_id
            WHERE m.id = \(bind: id) AND m.competition_id = \(bind: competitionID)
            """
        ).first().map(Self.message)
    }

    /// The chat's version now (0 before its first message).
    public func version(competitionID: Int64) async throws -> Int64 {
        try await db.raw("SELECT version FROM chat_versions WHERE competition_id = \(bind: competitionID)")
            .first(decodingColumn: "version", as: Int64.self) ?? 0
    }

    /// When the user's messages in the chat since `since` were written, oldest first.
    public func postedTimes(competitionID: Int64, userID: Int64, since: Date) async throws -> [Date] {
        try await db.raw(
            """
            SELECT created_at FROM chat_messages
            WHERE user_id = \(bind: userID) AND competition_id = \(bind: competitionID)
                AND created_at >= \(bind: since.milliseconds)
            ORDER BY created_at
            """
        ).all(decodingColumn: "created_at", as: Int64.self).map(Date.init(milliseconds:))
    }

    /// Stores a message at the chat's next version.
    public func post(competitionID: Int64, userID: Int64, text: String, now: Date) async throws -> ChatMessage {
        let version = try await nextVersion(competitionID)
        guard
            let id = try await db.raw(
                """
                INSERT INTO chat_messages (competition_id, user_id, body, created_at, version)
                VALUES (\(bind: competitionID), \(bind: userID), \(bind: text), \(bind: now.milliseconds), \(bind: version))
                RETURNING id
                """
            ).first(decodingColumn: "id", as: Int64.self),
            let message = try await message(id: id, competitionID: competitionID)
        else { throw ChatStoreError.notStored }
        try await notify(competitionID, version)
        return message
    }

    /// Deletes the message's text at the chat's next version; a message deleted already comes
    /// back as it is.
    public func delete(_ message: ChatMessage, by userID: Int64, now: Date) async throws -> ChatMessage {
        guard message.deletedAt == nil else { return message }
        let version = try await nextVersion(message.competitionID)
        try await db.raw(
            """
            UPDATE chat_messages SET body = '', deleted_at = \(bind: now.milliseconds), deleted_by = \(bind: userID),
                version = \(bind: version)
            WHERE id = \(bind: message.id)
            """
        ).run()
        try await notify(message.competitionID, version)
        var deleted = message
        deleted.text = ""
        deleted.deletedAt = Date(milliseconds: now.milliseconds)
        deleted.version = version
        return deleted
    }

    /// The next version of the chat; the row stays locked until the transaction ends, so
    /// versions become visible in order.
    private func nextVersion(_ competitionID: Int64) async throws -> Int64 {
        guard
            let version = try await db.raw(
                """
                INSERT INTO chat_versions (competition_id, version) VALUES (\(bind: competitionID), 1)
                ON CONFLICT (competition_id) DO UPDATE SET version = chat_versions.version + 1
                RETURNING version
                """
            ).first(decodingColumn: "version", as: Int64.self)
        else { throw ChatStoreError.notStored }
        return version
    }

    private func notify(_ competitionID: Int64, _ version: Int64) async throws {
        guard db.dialect.name == "postgresql" else { return }
        try await db.raw("SELECT pg_notify(\(bind: ChatChange.channel), \(bind: "\(competitionID):\(version)"))").run()
    }

    private static func message(_ row: any SQLRow) throws -> ChatMessage {
        ChatMessage(
            id: try row.decode(column: "id", as: Int64.self),
            competitionID: try row.decode(column: "competition_id", as: Int64.self),
            userID: try row.decode(column: "user_id", as: Int64.self),
            authorName:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            text: try row.decode(column: "body", as: String.self),
            createdAt: Date(milliseconds: try row.decode(column: "created_at", as: Int64.self)),
            version: try row.decode(column: "version", as: Int64.self),
            deletedAt: try row.decode(column: "deleted_at", as: Int64?.self).map(Date.init(milliseconds:)))
    }
}

public enum ChatStoreError: Error, Equatable {
    case notStored
}

extension Database {
    /// Hears every instance's chat changes until the task is cancelled (PostgreSQL: `LISTEN` on
    /// a connection of its own, again a second after it is lost); with SQLite, one instance, it
    /// returns at once. `following` is told each time it listens again.
    public func followChatChanges(
        following: @escaping @Sendable () -> Void, _ heard: @escaping @Sendable (ChatChange) -> Void
    ) async {
        await followNotifications(ChatChange.channel, following: following) { payload in
            ChatChange.parse(payload).map(heard)
        }
    }
}
