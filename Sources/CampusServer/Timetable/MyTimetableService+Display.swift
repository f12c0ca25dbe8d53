import Accounts
import Foundation
import Storage
import Timetable

/// How a user's timetable shows lessons (full subject names): theirs alone.
extension MyTimetableService {
    func displaySettings(of user: Account) async throws -> DisplaySettings {
        try await database.read { db in try await PersonalStore(db).displaySettings(userID: user.id) }
    }

    @discardableResult
    func saveDisplaySettings(_ settings: DisplaySettings, for user: Account) async throws -> DisplaySettings {
        try await database.write { db in
            try await PersonalStore(db).saveDisplaySettings(settings, userID: user.id, now: now())
        }
        return settings
    }
}
