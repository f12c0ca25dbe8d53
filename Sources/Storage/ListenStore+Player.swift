import Foundation
import Listen
import SQLKit
import SharedHelpers

/// The player kept on the server, listening history and resume positions, and the playlists
/// Campus makes from them.
extension ListenStore {
    // MARK: Player

    /// The stored player state (JSON) and its version; nil before the first action.
    public func playerState(userID: Int64) async throws -> (state: String, version: Int64)? {
        guard
            let row = try await db.raw(
                "SELECT state, version FROM player_states WHERE user_id = \(bind: userID)"
            ).first()
        else { return nil }
        return (try row.decode(column: "state", as: String.self), try row.decode(column: "version", as: Int64.self))
    }

    /// When the listener's player last changed, if it ever did.
    public func playerUpdatedAt(userID: Int64) async throws -> Date? {
        try await db.select().column("updated_at").from("player_states").where("user_id", .equal, userID)
            .first(decodingColumn: "updated_at", as: Int64.self).map(Date.init(epoch:))
    }

    /// Stores the state if it is still at `version` (nil: never stored); throws
    /// ``ListenStoreError/playerChanged`` when another device got there first.
    public func savePlayerState(userID: Int64, _ state: String, replacing version: Int64?, now: Date) async throws {
        if let version {
            let changed = try await db.raw(
                """
                UPDATE player_states SET state = \(bind: state), version = version + 1, updated_at = \(bind: now.epoch)
                WHERE user_id = \(bind: userID) AND version = \(bind: version) RETURNING version
                """
            ).all()
            guard changed.count == 1 else { throw ListenStoreError.playerChanged }
        } else {
            do {
                try await db.insert(into: "player_states").columns("user_id", "state", "version", "updated_at")
                    .values(SQLBind(userID), SQLBind(state), SQLBind(1), SQLBind(now.epoch)).run()
            } catch  where isUniqueViolation(error) {
                throw ListenStoreError.playerChanged
            }
        }
    }

    /// Adds the events to the listener's history, which keeps the newest
    /// ``ListenerLimits/history`` entries.
    public func recordListening(userID: Int64, _ events: [ListeningEvent], now: Date) async throws {
        guard !events.isEmpty else { return }
        for event in events {
            try await db.insert(into: "listening_history")
                .columns("user_id", "media_id", "outcome", "position", "at")
                .values(
                    SQLBind(userID), SQLBind(event.mediaID), SQLBind(event.outcome.rawValue), SQLBind(event.position),
                    SQLBind(now.epoch)
                ).run()
        }
        try await db.trimOldest(of: "listening_history", time: "at", userID: userID, keeping: ListenerLimits.history)
    }

    /// Keeps where the listener stopped in a spoken item; an item played to its end starts over.
    public func saveResumePosition(userID: Int64, mediaID: Int64, position: Double?, now: Date) async throws {
        try await db.delete(from: "resume_positions").where("user_id", .equal, userID)
            .where("media_id", .equal, mediaID).run()
        guard let position, position > 0 else { return }
        try await db.insert(into: "resume_positions").columns("user_id", "media_id", "position", "updated_at")
            .values(SQLBind(userID), SQLBind(mediaID), SQLBind(position), SQLBind(now.epoch)).run()
    }

    public func resumePositions(userID: Int64, mediaIDs: [Int64]) async throws -> [Int64: Double] {
        guard !mediaIDs.isEmpty else { return [:] }
        var positions: [Int64: Double] = [:]
        for chunk in stride(from: 0, to: mediaIDs.count, by: 500).map({
            Array(mediaIDs[$0..<min($0 + 500, mediaIDs.count)])
        }) {
            for row in try await db.select().columns("media_id", "position").from("resume_positions")
                .where("user_id", .equal, userID).where("media_id", .in, chunk).all()
            {
                positions[try row.decode(column: "media_id", as: Int64.self)] = try row.decode(
                    column: "position", as: Double.self)
            }
        }
        return positions
    }

    /// The listener's history, newest first (a page of it: `limit` entries after `offset`).
    public func history(userID: Int64, limit: Int, offset: Int = 0) async throws
        -> [(event: ListeningEvent, at: Date)]
    {
        try await db.raw(
            """
            SELECT media_id, outcome, position, at FROM listening_history WHERE user_id = \(bind: userID)
            ORDER BY at DESC, id DESC LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all().map { row in
            (
                ListeningEvent(
                    mediaID: try row.decode(column: "media_id", as: Int64.self),
                    outcome: try row.decodeCase(column: "outcome", as: ListeningOutcome.self),
                    position: try row.decode(column: "position", as: Double.self)),
                Date(epoch: try row.decode(column: "at", as: Int64.self))
            )
        }
    }

    /// System playlists: the items the listener played last or most, or items by authors and
    /// in genres they liked that they have not played.
    public func systemPlaylist(_ playlist: SystemPlaylist, userID: Int64, limit: Int) async throws -> [Int64] {
        let sql: SQLQueryString
        switch playlist {
        case .recentlyPlayed:
            sql = """
                SELECT media_id FROM listening_history WHERE user_id = \(bind: userID)
                GROUP BY media_id ORDER BY MAX(id) DESC LIMIT \(unsafeRaw: String(limit))
                """
        case .mostPlayed:
            sql = """
                SELECT media_id FROM listening_history WHERE user_id = \(bind: userID)
                GROUP BY media_id ORDER BY COUNT(*) DESC, MAX(id) DESC LIMIT \(unsafeRaw: String(limit))
                """
        case .recommended:
            let picks = try await picks(userID: userID)
            let genres = Self.idList(picks.genres)
            let authors = Self.idList(picks.authors)
            // Picked genres and authors first, then authors and genres the listener liked or
            // played to the end; nothing they played or marked already.
            sql = """
                SELECT m.id AS media_id FROM media m JOIN parents p ON p.id = m.parent_id
                WHERE (m.genre_id IN (\(genres)) OR m.author_id IN (\(authors))
                    OR m.author_id IN (SELECT x.author_id FROM media x JOIN marks k ON k.target = 'media:' || x.id
                           WHERE k.user_id = \(bind: userID) AND k.mark = 'like' AND x.author_id IS NOT NULL)
                    OR m.genre_id IN (SELECT x.genre_id FROM media x JOIN marks k ON k.target = 'media:' || x.id
                           WHERE k.user_id = \(bind: userID) AND k.mark = 'like' AND x.genre_id IS NOT NULL)
                    OR 'author:' || m.author_id IN (SELECT target FROM marks WHERE user_id = \(bind: userID) AND mark = 'like')
                    OR m.author_id IN (SELECT x.author_id FROM media x JOIN listening_history h ON h.media_id = x.id
                           WHERE h.user_id = \(bind: userID) AND h.outcome = 'ended' AND x.author_id IS NOT NULL))
                  AND NOT EXISTS (SELECT 1 FROM listening_history h WHERE h.user_id = \(bind: userID) AND h.media_id = m.id)
                  AND NOT EXISTS (SELECT 1 FROM marks k WHERE k.user_id = \(bind: userID) AND k.target = 'media:' || m.id)
                ORDER BY CASE WHEN m.genre_id IN (\(genres)) OR m.author_id IN (\(authors)) THEN 0 ELSE 1 END,
                    p.search_key, m.disc, m.number, m.id
                LIMIT \(unsafeRaw: String(limit))
                """
        }
        return try await db.raw(sql).all(decodingColumn: "media_id", as: Int64.self)
    }

    /// Items like these (same authors or genres) or in the genres and by the authors the
    /// listener picked, not among them, for the endless queue: those like these first.
    public func similar(to mediaIDs: [Int64], userID: Int64, limit: Int) async throws -> [Int64] {
        guard !mediaIDs.isEmpty else { return [] }
        let ids = SQLList(mediaIDs.suffix(200).map { SQLBind($0) })
        let picks = try await picks(userID: userID)
        let genres = Self.idList(picks.genres)
        let authors = Self.idList(picks.authors)
        // `near`: by an author or of a genre of the queue, which come first; the listener's
        // picks after them.
        return try await db.raw(
            """
            WITH queued AS (SELECT id, author_id, genre_id FROM media WHERE id IN (\(ids)))
            SELECT c.id FROM (
                SELECT m.id, m.author_id, m.genre_id, m.parent_id, m.disc, m.number,
                    (m.author_id IN (SELECT author_id FROM queued) OR m.genre_id IN (SELECT genre_id FROM queued)) AS near
                FROM media m WHERE m.id NOT IN (SELECT id FROM queued)) AS c
            WHERE c.near OR c.genre_id IN (\(genres)) OR c.author_id IN (\(authors))
            ORDER BY CASE WHEN c.near THEN 0 ELSE 1 END, c.parent_id, c.disc, c.number, c.id
            LIMIT \(unsafeRaw: String(limit))
            """
        ).all(decodingColumn: "id", as: Int64.self)
    }

    /// Ids for `IN (…)`; no ids is a list nothing matches (ids start at 1).
    static func idList(_ ids: [Int64]) -> SQLList {
        SQLList((ids.isEmpty ? [0] : ids).map { SQLBind($0) })
    }
}
