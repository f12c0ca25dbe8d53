import Foundation
import SQLKit

/// A user's nicknames for groups and colours for lesson types.
extension PersonalStore {
    /// Group name → nickname.
    public func nicknames(userID: Int64) async throws -> [String: String] {
        try await pairs("group_nicknames", key: "group_name", value: "nickname", userID: userID)
    }

    /// Sets a nickname, or removes it (nil); false when there was none to remove.
    @discardableResult
    public func setNickname(_ nickname: String?, group: String, userID: Int64) async throws -> Bool {
        try await setPair("group_nicknames", key: "group_name", group, value: "nickname", nickname, userID: userID)
    }

    /// Lesson type id → colour.
    public func lessonColours(userID: Int64) async throws -> [String: String] {
        try await pairs("lesson_type_colours", key: "type_id", value: "colour", userID: userID)
    }

    @discardableResult
    public func setLessonColour(_ colour: String?, type: String, userID: Int64) async throws -> Bool {
        try await setPair("lesson_type_colours", key: "type_id", type, value: "colour", colour, userID: userID)
    }

    /// How many nicknames and colours the user keeps.
    public func touchCount(userID: Int64) async throws -> Int {
        let nicknames =
            try await db.raw("SELECT COUNT(*) AS n FROM group_nicknames WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
        let colours =
            try await db.raw("SELECT COUNT(*) AS n FROM lesson_type_colours WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
        return nicknames + colours
    }

    private func pairs(_ table: String, key: String, value: String, userID: Int64) async throws -> [String: String] {
        var pairs: [String: String] = [:]
        for row in try await db.select().columns(key, value).from(table).where("user_id", .equal, userID).all() {
            pairs[try row.decode(column: key, as: String.self)] = try row.decode(column: value, as: String.self)
        }
        return pairs
    }

    private func setPair(
        _ table: String, key: String, _ keyValue: String, value: String, _ newValue: String?, userID: Int64
    ) async throws -> Bool {
        let existing = try await db.select().column(key).from(table).where("user_id", .equal, userID)
            .where(SQLIdentifier(key), .equal, SQLBind(keyValue)).first()
        try await db.delete(from: table).where("user_id", .equal, userID)
            .where(SQLIdentifier(key), .equal, SQLBind(keyValue)).run()
        guard let newValue else { return existing != nil }
        try await db.insert(into: table).columns("user_id", key, value)
            .values(SQLBind(userID), SQLBind(keyValue), SQLBind(newValue)).run()
        return true
    }
}
