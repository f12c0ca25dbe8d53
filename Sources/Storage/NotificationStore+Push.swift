import Foundation
import SQLKit
import SharedHelpers

/// A browser's Web Push subscription (RFC 8030): where its push service takes messages, and the
/// keys that encrypt them for that browser alone (RFC 8291), base64url as the browser gave them.
public struct StoredPushSubscription: Sendable, Equatable {
    public var id: Int64
    public var userID: Int64
    public var endpoint: String
    public var p256dh: String
    public var auth: String
    public var expiresAt: Date?
    public var createdAt: Date
}

extension NotificationStore {
    /// Keeps a subscription for the user. A browser has one endpoint: subscribed again (by the
    /// same user or another who signed in on it) it is the same row with the new keys and owner.
    public func subscribe(
        userID: Int64, endpoint: String, p256dh: String, auth: String, expiresAt: Date?, now: Date
    ) async throws -> StoredPushSubscription {
        let row = try await db.raw(
            """
            INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, expires_at, created_at)
            VALUES (\(bind: userID), \(bind: endpoint), \(bind: p256dh), \(bind: auth),
                    \(bind: expiresAt?.milliseconds), \(bind: now.milliseconds))
            ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
                auth = excluded.auth, expires_at = excluded.expires_at
            RETURNING *
            """
        ).first()
        guard let row else { throw StoreError.damaged("push_subscriptions: nothing returned") }
        return try Self.subscription(row)
    }

    public func subscriptions(userID: Int64) async throws -> [StoredPushSubscription] {
        try await db.select().column("*").from("push_subscriptions").where("user_id", .equal, userID)
            .orderBy("id").all().map(Self.subscription)
    }

    public func subscriptionCount(userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Removes the user's subscription; false when they have none with this id.
    public func unsubscribe(_ id: Int64, userID: Int64) async throws -> Bool {
        try await !db.delete(from: "push_subscriptions").where("id", .equal, id).where("user_id", .equal, userID)
            .returning("id").all().isEmpty
    }

    /// Removes a subscription its push service says is gone (404, 410), with what waited for it.
    public func forgetSubscription(_ id: Int64) async throws {
        try await db.delete(from: "notification_deliveries").where("subscription_id", .equal, id).run()
        try await db.delete(from: "push_subscriptions").where("id", .equal, id).run()
    }

    static func subscription(_ row: any SQLRow) throws -> StoredPushSubscription {
        StoredPushSubscription(
            id: try row.decode(column: "id", as: Int64.self), userID: try row.decode(column: "user_id", as: Int64.self),
            endpoint: try row.decode(column: "endpoint", as: String.self),
            p256dh: try row.decode(column: "p256dh", as: String.self),
            auth: try row.decode(column: "auth", as: String.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64?.self).map(Date.init(milliseconds:)),
            createdAt: Date(milliseconds: try row.decode(column: "created_at", as: Int64.self)))
    }
}
