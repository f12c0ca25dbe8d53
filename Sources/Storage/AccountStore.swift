import Accounts
import Foundation
import SQLKit
import SharedHelpers

/// Accounts, sessions, password resets, failed logins, the mail outbox and settings.
/// Every method runs on the `SQLDatabase` it is given, so callers choose the transaction.
public struct AccountStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    // MARK: Users

    static let userColumns = """
        u.id, u.email, u.first_name, u.last_name, u.role, u.study_group, u.subgroup, u.created_at, u.updated_at,
        u.language, u.two_factor_at, a.updated_at AS avatar_updated_at
        """

    func user(from row: any SQLRow) throws -> Account {
        Account(
            id: try row.decode(column: "id", as: Int64.self),
            email: try row.decode(column: "email", as: String.self),
            firstName: try row.decode(column: "first_name", as: String.self),
            lastName: try row.decode(column: "last_name", as: String.self),
            role: try row.decodeCase(column: "role", as: Role.self),
            group: try row.decode(column: "study_group", as: String?.self),
            subgroup: try row.decode(column: "subgroup", as: Int.self),
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)),
            avatarUpdatedAt: try row.decode(column: "avatar_updated_at", as: Int64?.self).map(Date.init(epoch:)),
            language: try row.decode(column: "language", as: String?.self),
            twoFactorSince: try row.decode(column: "two_factor_at", as: Int64?.self).map(Date.init(epoch:)))
    }

    public func createUser(_ new: NewUser, now: Date) async throws -> Account {
        let id: Int64
        do {
            guard
                let inserted = try await db.insert(into: "users")
                    .columns(
                        "email", "email_key", "password_hash", "first_name", "last_name", "role", "subgroup",
                        "created_at", "updated_at"
                    )
                    .values(
                        SQLBind(new.email), SQLBind(AccountRules.emailKey(new.email)), SQLBind(new.passwordHash),
                        SQLBind(new.firstName), SQLBind(new.lastName), SQLBind(new.role.rawValue), SQLBind(0),
                        SQLBind(now.epoch), SQLBind(now.epoch)
                    )
                    .returning("id")
                    .first(decodingColumn: "id", as: Int64.self)
            else { throw StoreError.emailTaken }
            id = inserted
        } catch  where isUniqueViolation(error) {
            throw StoreError.emailTaken
        }
        guard let user = try await user(id: id) else { throw StoreError.emailTaken }
        return user
    }

    public func user(id: Int64) async throws -> Account? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.userColumns) FROM users u LEFT JOIN avatars a ON a.user_id = u.id
            WHERE u.id = \(bind: id)
            """
        ).first().map(user(from:))
    }

    /// The account with this email (in any letter case) and its password hash.
    public func credentials(email: String) async throws -> (user: Account, passwordHash: String)? {
        guard
            let row = try await db.raw(
                """
                SELECT \(unsafeRaw: Self.userColumns), u.password_hash FROM users u
                LEFT JOIN avatars a ON a.user_id = u.id WHERE u.email_key = \(bind: AccountRules.emailKey(email))
                """
            ).first()
        else { return nil }
        return (try user(from: row), try row.decode(column: "password_hash", as: String.self))
    }

    public func passwordHash(userID: Int64) async throws -> String? {
        try await db.select().column("password_hash").from("users").where("id", .equal, userID)
            .first(decodingColumn: "password_hash", as: String.self)
    }

    public func updateProfile(
        userID: Int64, firstName: String, lastName: String, group: String?, subgroup: Int, now: Date
    ) async throws {
        try await db.update("users")
            .set("first_name", to: firstName).set("last_name", to: lastName)
            .set("study_group", to: group).set("subgroup", to: subgroup)
            .set("updated_at", to: now.epoch)
            .where("id", .equal, userID)
            .run()
        try await AccountChange.user(userID).announce(in: db)
    }

    /// The language the user chose (a catalogue's code), or nil to follow their browser.
    public func setLanguage(userID: Int64, language: String?, now: Date) async throws {
        try await db.update("users").set("language", to: language).set("updated_at", to: now.epoch)
            .where("id", .equal, userID).run()
        try await AccountChange.user(userID).announce(in: db)
    }

    public func setPasswordHash(userID: Int64, hash: String, now: Date) async throws {
        try await db.update("users").set("password_hash", to: hash).set("updated_at", to: now.epoch)
            .where("id", .equal, userID).run()
        try await AccountChange.user(userID).announce(in: db)
    }

    public func setRole(userID: Int64, role: Role, now: Date) async throws {
        try await db.update("users").set("role", to: role.rawValue).set("updated_at", to: now.epoch)
            .where("id", .equal, userID).run()
        try await AccountChange.user(userID).announce(in: db)
    }

    public func count(role: Role) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM users WHERE role = \(bind: role.rawValue)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    public func countUsers() async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM users").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Deletes the account; everything that belongs only to it goes with it (foreign keys cascade).
    public func deleteUser(id: Int64) async throws {
        try await db.delete(from: "users").where("id", .equal, id).run()
        try await AccountChange.user(id).announce(in: db)
    }

    /// Accounts whose name or email contains `search` (any letter case), newest first.
    public func users(search: String?, role: Role?, limit: Int, offset: Int) async throws -> (
        users: [Account], total: Int
    ) {
        var conditions: [SQLQueryString] = []
        if let search, !search.isEmpty {
            let pattern =
                "%"
                + search.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
            conditions.append(
                """
                (u.email_key LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(u.first_name) LIKE \(bind: pattern) ESCAPE '\\'
                 OR LOWER(u.last_name) LIKE \(bind: pattern) ESCAPE '\\')
                """)
        }
        if let role { conditions.append("u.role = \(bind: role.rawValue)") }
        var whereClause: SQLQueryString = ""
        if !conditions.isEmpty {
            whereClause = "WHERE " + conditions.joined(separator: " AND ")
        }
        let total =
            try await db.raw("SELECT COUNT(*) AS n FROM users u \(whereClause)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
        let rows = try await db.raw(
            """
            SELECT \(unsafeRaw: Self.userColumns) FROM users u LEFT JOIN avatars a ON a.user_id = u.id
            \(whereClause) ORDER BY u.id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)
            """
        ).all()
        return (try rows.map(user(from:)), total)
    }

    // MARK: Avatars

    public func setAvatar(userID: Int64, contentType: String, data: [UInt8], now: Date) async throws {
        try await db.delete(from: "avatars").where("user_id", .equal, userID).run()
        try await db.insert(into: "avatars").columns("user_id", "content_type", "data", "updated_at")
            .values(SQLBind(userID), SQLBind(contentType), SQLBind(Data(data)), SQLBind(now.epoch)).run()
        try await AccountChange.user(userID).announce(in: db)
    }

    public func avatar(userID: Int64) async throws -> StoredImage? {
        guard
            let row = try await db.select().columns("content_type", "data", "updated_at").from("avatars")
                .where("user_id", .equal, userID).first()
        else { return nil }
        return StoredImage(
            contentType: try row.decode(column: "content_type", as: String.self),
            data: [UInt8](try row.decode(column: "data", as: Data.self)),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
    }

    public func deleteAvatar(userID: Int64) async throws {
        try await db.delete(from: "avatars").where("user_id", .equal, userID).run()
        try await AccountChange.user(userID).announce(in: db)
    }

    // MARK: Sessions

    public func createSession(
        userID: Int64, tokenHash: String, kind: SessionRecord.Kind, now: Date, expiresAt: Date,
        userAgent: String?, address: String?, idToken: String? = nil
    ) async throws -> SessionRecord {
        let id = try await db.insert(into: "sessions")
            .columns(
                "user_id", "token_hash", "kind", "created_at", "last_seen_at", "expires_at", "user_agent", "address",
                "id_token"
            )
            .values(
                SQLBind(userID), SQLBind(tokenHash), SQLBind(kind.rawValue), SQLBind(now.epoch), SQLBind(now.epoch),
                SQLBind(expiresAt.epoch), SQLBind(userAgent.map { String($0.prefix(300)) }), SQLBind(address),
                SQLBind(idToken)
            )
            .returning("id").first(decodingColumn: "id", as: Int64.self)
        // Past the limit, the sessions used longest ago end (told, so that no memory keeps them).
        let ended = try await db.raw(
            """
            SELECT id FROM sessions WHERE user_id = \(bind: userID)
            ORDER BY last_seen_at DESC, id DESC LIMIT 1000 OFFSET \(unsafeRaw: String(SessionRecord.limit))
            """
        ).all(decodingColumn: "id", as: Int64.self)
        if !ended.isEmpty {
            try await db.delete(from: "sessions").where("id", .in, ended).run()
            try await AccountChange.user(userID).announce(in: db)
        }
        return SessionRecord(
            id: id ?? 0, userID: userID, kind: kind, createdAt: now.rounded, lastSeenAt: now.rounded,
            expiresAt: expiresAt.rounded, atProvider: idToken != nil)
    }

    /// The unexpired session with this token hash, and its user.
    public func session(tokenHash: String, now: Date) async throws -> (session: SessionRecord, user: Account)? {
        guard
            let row = try await db.raw(
                """
                SELECT s.id AS session_id, s.kind, s.created_at AS session_created_at, s.last_seen_at, s.expires_at,
                CASE WHEN s.id_token IS NULL THEN 0 ELSE 1 END AS at_provider, \(unsafeRaw: Self.userColumns)
                FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN avatars a ON a.user_id = u.id
                WHERE s.token_hash = \(bind: tokenHash) AND s.expires_at > \(bind: now.epoch)
                """
            ).first()
        else { return nil }
        let user = try user(from: row)
        let session = SessionRecord(
            id: try row.decode(column: "session_id", as: Int64.self),
            userID: user.id,
            kind: try row.decodeCase(column: "kind", as: SessionRecord.Kind.self),
            createdAt: Date(epoch: try row.decode(column: "session_created_at", as: Int64.self)),
            lastSeenAt: Date(epoch: try row.decode(column: "last_seen_at", as: Int64.self)),
            expiresAt: Date(epoch: try row.decode(column: "expires_at", as: Int64.self)),
            atProvider: try row.decode(column: "at_provider", as: Int.self) == 1)
        return (session, user)
    }

    public func touchSession(id: Int64, now: Date, expiresAt: Date) async throws {
        try await db.update("sessions").set("last_seen_at", to: now.epoch).set("expires_at", to: expiresAt.epoch)
            .where("id", .equal, id).run()
    }

    public func deleteSession(tokenHash: String) async throws {
        try await db.delete(from: "sessions").where("token_hash", .equal, tokenHash).run()
        try await AccountChange.session(tokenHash: tokenHash).announce(in: db)
    }

    /// Ends every session of a user but `keeping` (the one making the request, if any).
    public func deleteSessions(userID: Int64, keeping: Int64? = nil) async throws {
        var query = db.delete(from: "sessions").where("user_id", .equal, userID)
        if let keeping { query = query.where("id", .notEqual, keeping) }
        try await query.run()
        try await AccountChange.user(userID).announce(in: db)
    }

    public func sessionCount(userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM sessions WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    // MARK: Password resets

    public func createPasswordReset(tokenHash: String, userID: Int64, now: Date, expiresAt: Date) async throws {
        try await db.insert(into: "password_resets").columns("token_hash", "user_id", "created_at", "expires_at")
            .values(SQLBind(tokenHash), SQLBind(userID), SQLBind(now.epoch), SQLBind(expiresAt.epoch)).run()
    }

    /// How many reset links of the user were made since `since` and are still unused.
    public func recentPasswordResets(userID: Int64, since: Date) async throws -> Int {
        try await db.raw(
            """
            SELECT COUNT(*) AS n FROM password_resets
            WHERE user_id = \(bind: userID) AND created_at > \(bind: since.epoch) AND used_at IS NULL
            """
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Marks an unused, unexpired reset token used and returns its user; nil when it cannot be used.
    public func consumePasswordReset(tokenHash: String, now: Date) async throws -> Int64? {
        guard
            let userID = try await db.raw(
                """
                SELECT user_id FROM password_resets
                WHERE token_hash = \(bind: tokenHash) AND used_at IS NULL AND expires_at > \(bind: now.epoch)
                """
            ).first(decodingColumn: "user_id", as: Int64.self)
        else { return nil }
        // Every other reset link of the user dies with this one.
        try await db.update("password_resets").set("used_at", to: now.epoch)
            .where("user_id", .equal, userID).where(SQLIdentifier("used_at"), .is, SQLLiteral.null).run()
        return userID
    }

    // MARK: Failed logins

    public func recordLoginFailure(accountKey: String, address: String, at: Date) async throws {
        try await db.insert(into: "login_failures").columns("account_key", "address", "failed_at")
            .values(SQLBind(accountKey), SQLBind(address), SQLBind(at.epoch)).run()
    }

    /// Times of failed logins for this account, and for this address, since `since`.
    public func loginFailures(accountKey: String, address: String, since: Date) async throws -> (
        account: [Date], address: [Date]
    ) {
        let account = try await db.raw(
            """
            SELECT failed_at FROM login_failures
            WHERE account_key = \(bind: accountKey) AND failed_at > \(bind: since.epoch)
            """
        ).all(decodingColumn: "failed_at", as: Int64.self)
        let byAddress = try await db.raw(
            """
            SELECT failed_at FROM login_failures
            WHERE address = \(bind: address) AND failed_at > \(bind: since.epoch)
            """
        ).all(decodingColumn: "failed_at", as: Int64.self)
        return (account.map(Date.init(epoch:)), byAddress.map(Date.init(epoch:)))
    }

    public func clearLoginFailures(accountKey: String) async throws {
        try await db.delete(from: "login_failures").where("account_key", .equal, accountKey).run()
    }

    // MARK: Housekeeping

    /// Removes expired sessions, used or expired reset tokens and failures older than `failuresBefore`.
    public func removeExpired(now: Date, failuresBefore: Date) async throws {
        try await db.delete(from: "sessions").where("expires_at", .lessThanOrEqual, now.epoch).run()
        try await db.raw(
            "DELETE FROM password_resets WHERE expires_at <= \(bind: now.epoch) OR used_at IS NOT NULL"
        ).run()
        try await db.delete(from: "login_failures").where("failed_at", .lessThanOrEqual, failuresBefore.epoch).run()
    }
}
