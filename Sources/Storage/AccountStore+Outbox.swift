import Accounts
import Foundation
import SQLKit
import SharedHelpers

/// The mail outbox: messages written in the transaction that asks for them, delivered later.
extension AccountStore {
    @discardableResult
    public func enqueueMail(recipient: String, subject: String, body: String, now: Date) async throws -> Int64 {
        try await db.insert(into: "outbox").columns("recipient", "subject", "body", "created_at")
            .values(SQLBind(recipient), SQLBind(subject), SQLBind(body), SQLBind(now.epoch))
            .returning("id").first(decodingColumn: "id", as: Int64.self) ?? 0
    }

    /// How many messages wait for delivery (the admin overview's mail queue).
    public func mailWaiting() async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM outbox WHERE sent_at IS NULL AND attempts < 10")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Messages not yet delivered, oldest first.
    public func pendingMail(limit: Int) async throws -> [OutboxMessage] {
        try await db.raw(
            """
            SELECT id, recipient, subject, body, created_at, attempts FROM outbox
            WHERE sent_at IS NULL AND attempts < 10 ORDER BY id LIMIT \(bind: limit)
            """
        ).all().map { row in
            OutboxMessage(
                id: try row.decode(column: "id", as: Int64.self),
                recipient: try row.decode(column: "recipient", as: String.self),
                subject: try row.decode(column: "subject", as: String.self),
                body: try row.decode(column: "body", as: String.self),
                createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)),
                attempts: try row.decode(column: "attempts", as: Int.self))
        }
    }

    /// Claims a pending message for delivery by this instance; false when another instance holds
    /// a claim younger than `staleBefore` or the message is delivered already.
    public func claimMail(id: Int64, now: Date, staleBefore: Date) async throws -> Bool {
        let claimed = try await db.raw(
            """
            UPDATE outbox SET claimed_at = \(bind: now.epoch)
            WHERE id = \(bind: id) AND sent_at IS NULL
              AND (claimed_at IS NULL OR claimed_at < \(bind: staleBefore.epoch))
            RETURNING id
            """
        ).first(decodingColumn: "id", as: Int64.self)
        return claimed != nil
    }

    /// Marks a message delivered and forgets its body: it may hold a secret link that must not
    /// outlive the delivery.
    public func markMailSent(id: Int64, now: Date) async throws {
        try await db.update("outbox").set("sent_at", to: now.epoch).set("body", to: "(delivered)")
            .where("id", .equal, id).run()
    }

    public func markMailFailed(id: Int64, error: String) async throws {
        try await db.raw(
            """
            UPDATE outbox SET attempts = attempts + 1, claimed_at = NULL, last_error = \(bind: String(error.prefix(500)))
            WHERE id = \(bind: id)
            """
        ).run()
    }
}
