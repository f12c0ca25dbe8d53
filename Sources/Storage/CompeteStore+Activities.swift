import Compete
import Foundation
import SQLKit
import SharedHelpers

/// A challenge's activities: each participant's many, whose sum is their result.
extension CompeteStore {
    fileprivate func activity(from row: any SQLRow) throws -> Activity {
        Activity(
            id: try row.decode(column: "id", as: Int64.self),
            participantID: try row.decode(column: "user_id", as: Int64.self),
            value: try row.decode(column: "value", as: Double.self),
            at: Date(epoch: try row.decode(column: "done_at", as: Int64.self)),
            note: try row.decode(column: "note", as: String.self),
            source: ActivitySource(rawValue: try row.decode(column: "source", as: String.self)) ?? .manual,
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)))
    }

    /// Logs an activity; the caller sets the entry's result to ``activityTotal(competitionID:userID:)``.
    public func addActivity(
        competitionID: Int64, userID: Int64, value: Double, at: Date, note: String, source: ActivitySource, now: Date
    ) async throws -> Activity {
        guard
            let row = try await db.raw(
                """
                INSERT INTO activities (competition_id, user_id, value, done_at, note, source, created_at)
                VALUES (\(bind: competitionID), \(bind: userID), \(bind: value), \(bind: at.epoch), \(bind: note),
                    \(bind: source.rawValue), \(bind: now.epoch))
                RETURNING id, user_id, value, done_at, note, source, created_at
                """
            ).first()
        else { throw CompeteStoreError.notCreated }
        return try activity(from: row)
    }

    /// A participant's activities in a challenge, the latest first.
    public func activities(competitionID: Int64, userID: Int64) async throws -> [Activity] {
        try await db.raw(
            """
            SELECT id, user_id, value, done_at, note, source, created_at FROM activities
            WHERE competition_id = \(bind: competitionID) AND user_id = \(bind: userID)
            ORDER BY done_at DESC, id DESC
            """
        ).all().map(activity(from:))
    }

    /// One activity of a challenge.
    public func activity(id: Int64, competitionID: Int64) async throws -> Activity? {
        try await db.raw(
            """
            SELECT id, user_id, value, done_at, note, source, created_at FROM activities
            WHERE id = \(bind: id) AND competition_id = \(bind: competitionID)
            """
        ).first().map(activity(from:))
    }

    public func deleteActivity(id: Int64) async throws {
        try await db.raw("DELETE FROM activities WHERE id = \(bind: id)").run()
    }

    /// How many activities, and their sum (nil without any).
    public func activityTotal(competitionID: Int64, userID: Int64) async throws -> (count: Int, sum: Double?) {
        guard
            let row = try await db.raw(
                """
                SELECT COUNT(*) AS n, SUM(value) AS total FROM activities
                WHERE competition_id = \(bind: competitionID) AND user_id = \(bind: userID)
                """
            ).first()
        else { return (0, nil) }
        return (try row.decode(column: "n", as: Int.self), try row.decode(column: "total", as: Double?.self))
    }
}
