import Accounts
import Foundation
import InputRules
import Storage

/// Form posts sent with an `Idempotency-Key` (the installed app's outbox sends each of its notes
/// and tasks so, the first time and again): the same post sent again, after its answer was lost on
/// the way, is answered where the first went instead of being done twice.
extension AccountService {
    /// How long a sent form is remembered: longer than a phone stays offline in a week of lessons.
    static let sentFormsKept: TimeInterval = 14 * 86400
    /// The longest key taken (a UUID is 36 characters).
    static let idempotencyKeyLength = 100

    /// The key of a request, if it has one; a key that is not 1 to 100 letters, digits and
    /// hyphens is refused (400).
    static func idempotencyKey(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard (1...idempotencyKeyLength).contains(value.utf8.count),
            value.utf8.allSatisfy({
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45
            })
        else {
            throw Refusal.malformed(
                "Idempotency-Key must be 1 to {count} letters, digits and hyphens.",
                ["count": String(idempotencyKeyLength)])
        }
        return value
    }

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
