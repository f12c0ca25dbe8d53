import Foundation
import SQLKit

/// Form posts sent with an `Idempotency-Key`: where each one's answer went, so that the same
/// post sent again (its answer was lost on the way) goes there too instead of being done twice.
extension AccountStore {
    /// Where the form `key` of `userID` was answered to go, if it was sent before.
    public func sentFormLocation(userID: Int64, key: String) async throws -> String? {
        try await db.select().column("location").from("sent_forms")
            .where("user_id", .equal, userID).where("idempotency_key", .equal, key)
            .first(decodingColumn: "location", as: String.self)
    }

    /// Remembers where the form `key` was answered to go; the first answer stays.
    public func rememberSentForm(userID: Int64, key: String, location: String, now: Date) async throws {
        try await db.raw(
            """
            INSERT INTO sent_forms (user_id, idempotency_key, location, sent_at)
            VALUES (\(bind: userID), \(bind: key), \(bind: location), \(bind: now.epoch)) ON CONFLICT DO NOTHING
            """
        ).run()
    }

    /// Forgets forms sent before `before`.
    public func removeSentForms(before: Date) async throws {
        try await db.delete(from: "sent_forms").where("sent_at", .lessThan, before.epoch).run()
    }
}
