import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// How each user's timetable shows lessons.
extension PersonalStore {
    /// The user's display settings; the defaults when they never chose any.
    public func displaySettings(userID: Int64) async throws -> DisplaySettings {
        guard
            let json = try await db.select().column("settings").from("timetable_display_settings")
                .where("user_id", .equal, userID).first(decodingColumn: "settings", as: String.self),
            let settings = try? JSONDecoder().decode(DisplaySettings.self, from: Data(json.utf8))
        else { return DisplaySettings() }
        return settings
    }

    public func saveDisplaySettings(_ settings: DisplaySettings, userID: Int64, now: Date) async throws {
        let json = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try await db.delete(from: "timetable_display_settings").where("user_id", .equal, userID).run()
        try await db.insert(into: "timetable_display_settings").columns("user_id", "settings", "updated_at")
            .values(SQLBind(userID), SQLBind(json), SQLBind(now.epoch)).run()
    }
}
