import Foundation
import Listen
import SQLKit
import SharedHelpers

/// Each listener's settings.
extension ListenStore {
    // MARK: Settings

    public func settings(userID: Int64) async throws -> ListenSettings {
        guard
            let json = try await db.select().column("settings").from("listen_settings")
                .where("user_id", .equal, userID).first(decodingColumn: "settings", as: String.self),
            let settings = try? JSONDecoder().decode(ListenSettings.self, from: Data(json.utf8))
        else { return ListenSettings() }
        return settings
    }

    public func saveSettings(userID: Int64, _ settings: ListenSettings, now: Date) async throws {
        let json = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try await db.delete(from: "listen_settings").where("user_id", .equal, userID).run()
        try await db.insert(into: "listen_settings").columns("user_id", "settings", "updated_at")
            .values(SQLBind(userID), SQLBind(json), SQLBind(now.epoch)).run()
    }
}
