import Foundation
import SQLKit
import SharedHelpers

/// A co-organizer of a competition: an account its owner added.
public struct CoOrganizer: Sendable, Equatable {
    public var userID: Int64
    public var name: String
    public var email: String
    public var addedAt: Date

    public init(userID: Int64, name: String, email: String, addedAt: Date) {
        self.userID = userID
        self.name = name
        self.email = email
        self.addedAt = addedAt
    }
}

/// Co-organizers: accounts that manage a competition beside its owner.
extension CompeteStore {
    /// A competition's co-organizers, in the order they were added.
    public func organizers(competitionID: Int64) async throws -> [CoOrganizer] {
        try await db.raw(
            """
            SELECT o.user_id, o.added_at, u.first_name, u.last_name, u.email
            FROM competition_organizers o JOIN users u ON u.id = o.user_id
            WHERE o.competition_id = \(bind: competitionID)
            ORDER BY o.added_at, o.user_id
            """
        ).all().map { row in
            CoOrganizer(
                userID: try row.decode(column: "user_id", as: Int64.self),
                name:
                    "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
                email: try row.decode(column: "email", as: String.self),
                addedAt: Date(epoch: try row.decode(column: "added_at", as: Int64.self)))
        }
    }

    public func organizerCount(competitionID: Int64) async throws -> Int {
        try await db.raw(
            "SELECT COUNT(*) AS n FROM competition_organizers WHERE competition_id = \(bind: competitionID)"
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Adds a co-organizer; false when they were one already.
    public func addOrganizer(competitionID: Int64, userID: Int64, now: Date) async throws -> Bool {
        let added = try await db.raw(
            """
            INSERT INTO competition_organizers (competition_id, user_id, added_at)
            VALUES (\(bind: competitionID), \(bind: userID), \(bind: now.epoch))
            ON CONFLICT (competition_id, user_id) DO NOTHING
            RETURNING user_id
            """
        ).first()
        return added != nil
    }

    /// Removes a co-organizer; false when they were none.
    public func removeOrganizer(competitionID: Int64, userID: Int64) async throws -> Bool {
        try await db.raw(
            """
            DELETE FROM competition_organizers
            WHERE competition_id = \(bind: competitionID) AND user_id = \(bind: userID)
            RETURNING user_id
            """
        ).first() != nil
    }
}
