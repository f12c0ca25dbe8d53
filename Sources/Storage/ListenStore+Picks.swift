import Foundation
import Listen
import SQLKit
import SharedHelpers

/// What a listener picked for their recommendations, and what they are listening to.
extension ListenStore {
    // MARK: Picks

    /// The genres and authors the listener picked (ids, as they picked them; some may be gone).
    public func picks(userID: Int64) async throws -> (genres: [Int64], authors: [Int64]) {
        guard
            let row = try await db.select().columns("genres", "authors").from("listener_picks")
                .where("user_id", .equal, userID).first()
        else { return ([], []) }
        func ids(_ column: String) throws -> [Int64] {
            try row.decode(column: column, as: String.self).split(separator: ",").compactMap { Int64($0) }
        }
        return (try ids("genres"), try ids("authors"))
    }

    /// Replaces the listener's picks.
    public func setPicks(userID: Int64, genres: [Int64], authors: [Int64], now: Date) async throws {
        try await db.delete(from: "listener_picks").where("user_id", .equal, userID).run()
        try await db.insert(into: "listener_picks").columns("user_id", "genres", "authors", "updated_at")
            .values(
                SQLBind(userID), SQLBind(genres.map(String.init).joined(separator: ",")),
                SQLBind(authors.map(String.init).joined(separator: ",")), SQLBind(now.epoch)
            ).run()
    }

    /// Authors to pick from: those with the most items first.
    public func authorsByItems(limit: Int) async throws -> [Author] {
        try await db.raw(
            """
            SELECT a.id, a.name FROM authors a JOIN media m ON m.author_id = a.id
            GROUP BY a.id, a.name, a.search_key ORDER BY COUNT(*) DESC, a.search_key LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map {
            Author(
                id: try $0.decode(column: "id", as: Int64.self), name: try $0.decode(column: "name", as: String.self))
        }
    }

    // MARK: I'm listening

    /// The parents the listener played from, the last played first.
    public func recentParents(userID: Int64, limit: Int) async throws -> [Int64] {
        try await db.raw(
            """
            SELECT m.parent_id FROM listening_history h JOIN media m ON m.id = h.media_id
            WHERE h.user_id = \(bind: userID)
            GROUP BY m.parent_id ORDER BY MAX(h.id) DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all(decodingColumn: "parent_id", as: Int64.self)
    }
}
