import Accounts
import Foundation
import SQLKit
import SharedHelpers

/// What a player signs in with instead of the account's password (issue 17): an API key, or an
/// app password for Subsonic's older sign-ins.
public struct AppCredential: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case apiKey = "api_key"
        case appPassword = "app_password"
    }
    public var id: Int64
    public var userID: Int64
    public var kind: Kind
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
}

/// API keys (stored as their SHA-256) and app passwords (stored sealed by the server).
extension AccountStore {
    private static let credentialColumns = "c.id, c.user_id, c.kind, c.name, c.created_at, c.last_used_at"

    private func credential(from row: any SQLRow) throws -> AppCredential {
        AppCredential(
            id: try row.decode(column: "id", as: Int64.self),
            userID: try row.decode(column: "user_id", as: Int64.self),
            kind: try row.decodeCase(column: "kind", as: AppCredential.Kind.self),
            name: try row.decode(column: "name", as: String.self),
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self).map(Date.init(epoch:)))
    }

    /// Keeps a new credential: an API key by `keyHash`, an app password `sealed`.
    public func createAppCredential(
        userID: Int64, kind: AppCredential.Kind, name: String, keyHash: String?, sealed: String?, now: Date
    ) async throws -> AppCredential {
        guard
            let id = try await db.insert(into: "app_credentials")
                .columns("user_id", "kind", "name", "key_hash", "sealed", "created_at")
                .values(
                    SQLBind(userID), SQLBind(kind.rawValue), SQLBind(name), SQLBind(keyHash), SQLBind(sealed),
                    SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("app_credentials: no id returned") }
        return AppCredential(
            id: id, userID: userID, kind: kind, name: name, createdAt: Date(epoch: now.epoch), lastUsedAt: nil)
    }

    /// A user's credentials of a kind, oldest first, without their secrets.
    public func appCredentials(userID: Int64, kind: AppCredential.Kind) async throws -> [AppCredential] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.credentialColumns) FROM app_credentials c
            WHERE c.user_id = \(bind: userID) AND c.kind = \(bind: kind.rawValue) ORDER BY c.id
            """
        ).all().map(credential(from:))
    }

    /// Revokes a user's credential; false when the user has none of that id and kind. Sessions
    /// kept in memory that signed in with it are forgotten on every instance.
    public func deleteAppCredential(id: Int64, userID: Int64, kind: AppCredential.Kind) async throws -> Bool {
        let deleted = try await db.raw(
            """
            DELETE FROM app_credentials WHERE id = \(bind: id) AND user_id = \(bind: userID)
                AND kind = \(bind: kind.rawValue) RETURNING id
            """
        ).all()
        guard !deleted.isEmpty else { return false }
        try await AccountChange.user(userID).announce(in: db)
        return true
    }

    /// The account and credential of an API key's hash.
    public func apiKeyOwner(keyHash: String) async throws -> (user: Account, credential: AppCredential)? {
        guard
            let credential = try await db.raw(
                """
                SELECT \(unsafeRaw: Self.credentialColumns) FROM app_credentials c
                WHERE c.key_hash = \(bind: keyHash) AND c.kind = 'api_key'
                """
            ).first().map(credential(from:)),
            let user = try await user(id: credential.userID)
        else { return nil }
        return (user, credential)
    }

    /// The account of this email address with its app passwords, sealed.
    public func appPasswords(email: String) async throws -> (
        user: Account, passwords: [(credential: AppCredential, sealed: String)]
    )? {
        guard let found = try await credentials(email: email) else { return nil }
        let rows = try await db.raw(
            """
            SELECT \(unsafeRaw: Self.credentialColumns), c.sealed FROM app_credentials c
            WHERE c.user_id = \(bind: found.user.id) AND c.kind = 'app_password' ORDER BY c.id
            """
        ).all()
        return (
            found.user,
            try rows.map { (try credential(from: $0), try $0.decode(column: "sealed", as: String.self)) }
        )
    }

    /// Records that a credential was used (at most hourly: callers check `lastUsedAt`).
    public func touchAppCredential(id: Int64, now: Date) async throws {
        try await db.update("app_credentials").set("last_used_at", to: now.epoch).where("id", .equal, id).run()
    }
}
