import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// Students' saved compound schedules; every method but the feed's takes the owner.
extension PersonalStore {
    public func savedSchedules(userID: Int64) async throws -> [SavedSchedule] {
        let rows = try await db.select().columns("id", "name", "token", "in_my_schedule").from("saved_schedules")
            .where("user_id", .equal, userID).orderBy("id").all()
        return try await withMembers(rows)
    }

    public func savedSchedule(id: Int64, userID: Int64) async throws -> SavedSchedule? {
        let rows = try await db.select().columns("id", "name", "token", "in_my_schedule").from("saved_schedules")
            .where("id", .equal, id).where("user_id", .equal, userID).all()
        return try await withMembers(rows).first
    }

    /// The schedule behind a feed's token, with its owner.
    public func savedSchedule(token: String) async throws -> (schedule: SavedSchedule, userID: Int64)? {
        guard
            let row = try await db.select().columns("id", "user_id").from("saved_schedules")
                .where("token", .equal, token).first()
        else { return nil }
        let userID = try row.decode(column: "user_id", as: Int64.self)
        guard let schedule = try await savedSchedule(id: try row.decode(column: "id", as: Int64.self), userID: userID)
        else { return nil }
        return (schedule, userID)
    }

    public func savedScheduleCount(userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM saved_schedules WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    public func addSavedSchedule(
        name: String, members: [Favorite], token: String, inMySchedule: Bool = false, userID: Int64, now: Date
    ) async throws -> SavedSchedule {
        guard
            let id = try await db.insert(into: "saved_schedules")
                .columns("user_id", "name", "token", "in_my_schedule", "created_at", "updated_at")
                .values(
                    SQLBind(userID), SQLBind(name), SQLBind(token), SQLBind(inMySchedule), SQLBind(now.epoch),
                    SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("saved_schedules: no id returned") }
        try await setMembers(members, scheduleID: id)
        return SavedSchedule(id: id, name: name, members: members, token: token, inMySchedule: inMySchedule)
    }

    /// Replaces a schedule's name and members (and whether it is in the user's own schedule, when
    /// given); false when the user has no such schedule.
    public func replaceSavedSchedule(
        id: Int64, name: String, members: [Favorite], inMySchedule: Bool? = nil, userID: Int64, now: Date
    ) async throws -> Bool {
        guard let existing = try await savedSchedule(id: id, userID: userID) else { return false }
        try await db.update("saved_schedules").set("name", to: name)
            .set("in_my_schedule", to: inMySchedule ?? existing.inMySchedule).set("updated_at", to: now.epoch)
            .where("id", .equal, id).where("user_id", .equal, userID).run()
        try await db.delete(from: "saved_schedule_members").where("schedule_id", .equal, id).run()
        try await setMembers(members, scheduleID: id)
        return true
    }

    /// Whether a schedule's lessons join the user's own; false when the user has no such schedule.
    public func setInMySchedule(_ included: Bool, id: Int64, userID: Int64, now: Date) async throws -> Bool {
        guard try await savedSchedule(id: id, userID: userID) != nil else { return false }
        try await db.update("saved_schedules").set("in_my_schedule", to: included).set("updated_at", to: now.epoch)
            .where("id", .equal, id).where("user_id", .equal, userID).run()
        return true
    }

    public func deleteSavedSchedule(id: Int64, userID: Int64) async throws -> Bool {
        guard try await savedSchedule(id: id, userID: userID) != nil else { return false }
        // Members first: SQLite enforces foreign keys, but a cascade is not every database's default.
        try await db.delete(from: "saved_schedule_members").where("schedule_id", .equal, id).run()
        try await db.delete(from: "saved_schedules").where("id", .equal, id).where("user_id", .equal, userID).run()
        return true
    }

    private func setMembers(_ members: [Favorite], scheduleID: Int64) async throws {
        for (position, member) in members.enumerated() {
            try await db.insert(into: "saved_schedule_members").columns("schedule_id", "position", "kind", "target")
                .values(SQLBind(scheduleID), SQLBind(position), SQLBind(member.kind.rawValue), SQLBind(member.id)).run()
        }
    }

    private func withMembers(_ rows: [any SQLRow]) async throws -> [SavedSchedule] {
        var schedules: [SavedSchedule] = []
        for row in rows {
            let id = try row.decode(column: "id", as: Int64.self)
            let members = try await db.select().columns("kind", "target").from("saved_schedule_members")
                .where("schedule_id", .equal, id).orderBy("position").all()
                .compactMap { row -> Favorite? in
                    guard let kind = Favorite.Kind(rawValue: try row.decode(column: "kind", as: String.self)) else {
                        return nil
                    }
                    return Favorite(kind: kind, id: try row.decode(column: "target", as: String.self))
                }
            schedules.append(
                SavedSchedule(
                    id: id, name: try row.decode(column: "name", as: String.self), members: members,
                    token: try row.decode(column: "token", as: String.self),
                    inMySchedule: try row.decode(column: "in_my_schedule", as: Bool.self)))
        }
        return schedules
    }
}
