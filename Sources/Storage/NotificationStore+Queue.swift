import Accounts
import Foundation
import SQLKit
import SharedHelpers

/// A push or a mail that is due, claimed by this instance for sending.
public struct DueDelivery: Sendable, Equatable {
    public var id: Int64
    public var channel: NotificationChannel
    public var attempts: Int
    public var dueAt: Date
    public var notification: StoredNotification
    /// For a push: where to.
    public var subscription: StoredPushSubscription?
}

/// The queue of what goes out (``NotificationStore``): claimed so that of several instances one
/// sends each message (PostgreSQL's `FOR UPDATE SKIP LOCKED`; SQLite has one writer), retried
/// after a failure, given up after its last attempt or once it has expired.
extension NotificationStore {
    /// Claims up to `limit` deliveries due by `now` that nobody holds (or whose holder has held
    /// them since before `staleBefore`: it died sending). Those past their expiry are marked
    /// failed instead, never sent.
    public func claimDue(now: Date, staleBefore: Date, limit: Int, instance: String) async throws -> [DueDelivery] {
        let ms = now.milliseconds
        try await db.raw(
            """
            UPDATE notification_deliveries SET failed_at = \(bind: ms), last_error = 'expired'
            WHERE sent_at IS NULL AND failed_at IS NULL AND expires_at IS NOT NULL AND expires_at <= \(bind: ms)
            """
        ).run()
        let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE SKIP LOCKED" : ""
        let ids = try await db.raw(
            """
            SELECT id FROM notification_deliveries
            WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= \(bind: ms)
              AND (claimed_at IS NULL OR claimed_at < \(bind: staleBefore.milliseconds))
            ORDER BY due_at, id LIMIT \(bind: limit)\(lock)
            """
        ).all(decodingColumn: "id", as: Int64.self)
        guard !ids.isEmpty else { return [] }
        try await db.update("notification_deliveries").set("claimed_at", to: ms).set("claimed_by", to: instance)
            .where("id", .in, ids).run()
        let rows = try await db.raw(
            """
            SELECT d.id AS delivery_id, d.channel, d.attempts, d.due_at, d.subscription_id, n.*,
                   s.endpoint, s.p256dh, s.auth, s.expires_at AS subscription_expires_at,
                   s.created_at AS subscription_created_at
            FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
            LEFT JOIN push_subscriptions s ON s.id = d.subscription_id
            WHERE d.id IN (\(binds: ids))
            ORDER BY d.due_at, d.id
            """
        ).all()
        return try rows.map { row in
            var subscription: StoredPushSubscription?
            if let subscriptionID = try row.decode(column: "subscription_id", as: Int64?.self) {
                subscription = StoredPushSubscription(
                    id: subscriptionID, userID: try row.decode(column: "user_id", as: Int64.self),
                    endpoint: try row.decode(column: "endpoint", as: String.self),
                    p256dh: try row.decode(column: "p256dh", as: String.self),
                    auth: try row.decode(column: "auth", as: String.self),
                    expiresAt: try row.decode(column: "subscription_expires_at", as: Int64?.self).map(
                        Date.init(milliseconds:)),
                    createdAt: Date(milliseconds: try row.decode(column: "subscription_created_at", as: Int64.self)))
            }
            return DueDelivery(
                id: try row.decode(column: "delivery_id", as: Int64.self),
                channel: try row.decodeCase(column: "channel", as: NotificationChannel.self),
                attempts: try row.decode(column: "attempts", as: Int.self),
                dueAt: Date(milliseconds: try row.decode(column: "due_at", as: Int64.self)),
                notification: try Self.notification(row), subscription: subscription)
        }
    }

    public func markSent(_ id: Int64, now: Date) async throws {
        try await db.update("notification_deliveries").set("sent_at", to: now.milliseconds)
            .set("attempts", to: SQLRaw("attempts + 1")).where("id", .equal, id).run()
    }

    /// Records a failed attempt: tried again at `retryAt`, or never (nil).
    public func markFailed(_ id: Int64, error: String, retryAt: Date?, now: Date) async throws {
        var query = db.update("notification_deliveries").set("attempts", to: SQLRaw("attempts + 1"))
            .set("last_error", to: String(error.prefix(500))).set("claimed_at", to: SQLLiteral.null)
        if let retryAt {
            query = query.set("due_at", to: retryAt.milliseconds)
        } else {
            query = query.set("failed_at", to: now.milliseconds)
        }
        try await query.where("id", .equal, id).run()
    }

    /// How many deliveries wait (due or not), for metrics and tests.
    public func waiting() async throws -> Int {
        try await db.raw(
            "SELECT COUNT(*) AS n FROM notification_deliveries WHERE sent_at IS NULL AND failed_at IS NULL"
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Forgets deliveries sent or given up before `before`.
    public func forgetDeliveries(before: Date) async throws {
        try await db.raw(
            """
            DELETE FROM notification_deliveries
            WHERE (sent_at IS NOT NULL AND sent_at < \(bind: before.milliseconds))
               OR (failed_at IS NOT NULL AND failed_at < \(bind: before.milliseconds))
            """
        ).run()
    }

    // MARK: Schedule changes nobody was told of

    /// Takes up to `limit` of the changes waiting to be told (``TimetableStore``'s import writes
    /// them), locked until the transaction ends so that another instance takes others; the
    /// caller deletes them with ``told(_:)`` in the same transaction.
    public func untoldChanges(limit: Int) async throws -> [Int64] {
        let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE SKIP LOCKED" : ""
        return try await db.raw(
            "SELECT change_id FROM change_notices ORDER BY change_id LIMIT \(bind: limit)\(lock)"
        ).all(decodingColumn: "change_id", as: Int64.self)
    }

    public func told(_ changeIDs: [Int64]) async throws {
        guard !changeIDs.isEmpty else { return }
        try await db.delete(from: "change_notices").where("change_id", .in, changeIDs).run()
    }
}
