import Accounts
import Foundation
import Storage

/// Form posts sent with an `Idempotency-Key` (the installed app's outbox sends each of its notes
/// and tasks so, the first time and again): the same post sent again, after its answer was lost on
/// the way, is answered where the first went instead of being done twice.
extension AccountService {
    /// How long a sent form is remembered: longer than a phone stays offline in a week of lessons.
    static let sentFormsKept: TimeInterval = 14 * 86400
    /// Where the form sent with `key` went the first time, if it was sent before.
    func sentFormLocation(of user: Account, key: String) async throws -> String? {
        try await database.read { db in try await AccountStore(db).sentFormLocation(userID: user.id, key: key) }
    }

    /// Remembers where the form sent with `key` went.
    func rememberSentForm(of user: Account, key: String, location: String) async throws {
        let now = now()
        try await database.write { db in
            try await AccountStore(db).rememberSentForm(userID: user.id, key: key, location: location, now: now)
        }
    }
}
