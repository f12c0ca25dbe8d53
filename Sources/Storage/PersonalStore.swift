import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// What is personal in a user's timetable: favorites and their calendar feed. Every method takes
/// the user it is about; nothing here reads another user's rows. Runs on the `SQLDatabase` it is
/// given, so callers choose the transaction.
public struct PersonalStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    // MARK: Favorites

    /// The user's favorites by kind (groups, teachers, rooms, departments), each kind in the
    /// order they were added.
    public func favorites(userID: Int64) async throws -> [Favorite] {
        let rows = try await db.select().columns("kind", "target").from("favorites")
            .where("user_id", .equal, userID).orderBy("created_at").orderBy("target").all()
        var favorites: [Favorite] = []
        for row in rows {
            guard let kind = Favorite.Kind(rawValue: try row.decode(column: "kind", as: String.self)) else { continue }
            favorites.append(Favorite(kind: kind, id: try row.decode(column: "target", as: String.self)))
        }
        let kinds = Favorite.Kind.allCases
        // Stable: each kind keeps the order its favorites were added in.
        return kinds.flatMap { kind in favorites.filter { $0.kind == kind } }
    }

    /// Adds a favorite (nothing changes if the user has it already); false when the user has
    /// ``Favorite/limit`` already.
    public func addFavorite(_ favorite: Favorite, userID: Int64, now: Date) async throws -> Bool {
        let count =
            try await db.raw("SELECT COUNT(*) AS n FROM favorites WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
        let existing = try await db.select().column("kind").from("favorites").where("user_id", .equal, userID)
            .where("kind", .equal, favorite.kind.rawValue).where("target", .equal, favorite.id).first()
        guard existing == nil else { return true }
        guard count < Favorite.limit else { return false }
        try await db.insert(into: "favorites").columns("user_id", "kind", "target", "created_at")
            .values(SQLBind(userID), SQLBind(favorite.kind.rawValue), SQLBind(favorite.id), SQLBind(now.epoch))
            .run()
        return true
    }

    /// Removes a favorite; false when the user did not have it.
    public func removeFavorite(_ favorite: Favorite, userID: Int64) async throws -> Bool {
        let existing = try await db.select().column("kind").from("favorites").where("user_id", .equal, userID)
            .where("kind", .equal, favorite.kind.rawValue).where("target", .equal, favorite.id).first()
        guard existing != nil else { return false }
        try await db.delete(from: "favorites").where("user_id", .equal, userID)
            .where("kind", .equal, favorite.kind.rawValue).where("target", .equal, favorite.id).run()
        return true
    }

    // MARK: The personal calendar feed

    /// A user's feed: the secret token of its address, and how many minutes before each lesson
    /// it reminds (nil: no reminders).
    public struct CalendarFeed: Sendable, Equatable {
        public var userID: Int64
        public var token: String
        public var reminderMinutes: Int?

        public init(userID: Int64, token: String, reminderMinutes: Int?) {
            self.userID = userID
            self.token = token
            self.reminderMinutes = reminderMinutes
        }
    }

    public func calendarFeed(userID: Int64) async throws -> CalendarFeed? {
        try await db.select().columns("user_id", "token", "reminder_minutes").from("personal_calendars")
            .where("user_id", .equal, userID).first().map(Self.feed)
    }

    public func calendarFeed(token: String) async throws -> CalendarFeed? {
        try await db.select().columns("user_id", "token", "reminder_minutes").from("personal_calendars")
            .where("token", .equal, token).first().map(Self.feed)
    }

    /// Stores the user's feed, replacing the one before (a new token makes the old address 404).
    public func saveCalendarFeed(_ feed: CalendarFeed, now: Date) async throws {
        try await db.delete(from: "personal_calendars").where("user_id", .equal, feed.userID).run()
        try await db.insert(into: "personal_calendars").columns("user_id", "token", "reminder_minutes", "created_at")
            .values(SQLBind(feed.userID), SQLBind(feed.token), SQLBind(feed.reminderMinutes), SQLBind(now.epoch))
            .run()
    }

    private static func feed(_ row: any SQLRow) throws -> CalendarFeed {
        CalendarFeed(
            userID: try row.decode(column: "user_id", as: Int64.self),
            token: try row.decode(column: "token", as: String.self),
            reminderMinutes: try row.decode(column: "reminder_minutes", as: Int?.self))
    }
}
