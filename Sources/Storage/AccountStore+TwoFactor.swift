import Foundation
import SQLKit
import SharedHelpers

/// Two-factor sign-in's rows (migration 36): an account's TOTP secret, the last time step a
/// code was accepted for, and its recovery codes (hashed).
extension AccountStore {
    /// An account's TOTP secret, and the last time step accepted (0 before any).
    public struct TwoFactorSecret: Sendable, Equatable {
        public var secret: String
        public var lastStep: Int64
    }

    public func twoFactorSecret(userID: Int64) async throws -> TwoFactorSecret? {
        try await db.raw("SELECT secret, last_step FROM two_factor_secrets WHERE user_id = \(bind: userID)").first()
            .map {
                TwoFactorSecret(
                    secret: try $0.decode(column: "secret", as: String.self),
                    lastStep: try $0.decode(column: "last_step", as: Int64.self))
            }
    }

    /// A new secret for an account that has not turned two-factor sign-in on (a second start
    /// replaces the first); the account's codes are dropped.
    public func startTwoFactor(userID: Int64, secret: String, now: Date) async throws {
        try await db.delete(from: "two_factor_secrets").where("user_id", .equal, userID).run()
        try await db.delete(from: "recovery_codes").where("user_id", .equal, userID).run()
        try await db.insert(into: "two_factor_secrets").columns("user_id", "secret", "created_at")
            .values(SQLBind(userID), SQLBind(secret), SQLBind(now.epoch)).run()
    }

    /// Takes the code of time step `step`: true when no code of this step or a later one was
    /// taken before (a code counts once, even when two sign-ins race).
    public func takeStep(userID: Int64, step: Int64) async throws -> Bool {
        let taken = try await db.raw(
            """
            UPDATE two_factor_secrets SET last_step = \(bind: step)
            WHERE user_id = \(bind: userID) AND last_step < \(bind: step) RETURNING user_id
            """
        ).all()
        return !taken.isEmpty
    }

    /// Turns two-factor sign-in on, with the recovery codes' hashes (sessions kept in memory, of
    /// every instance, hear of it).
    public func enableTwoFactor(userID: Int64, recoveryCodeHashes: [String], now: Date) async throws {
        try await db.delete(from: "recovery_codes").where("user_id", .equal, userID).run()
        for hash in recoveryCodeHashes {
            try await db.insert(into: "recovery_codes").columns("user_id", "code_hash")
                .values(SQLBind(userID), SQLBind(hash)).run()
        }
        try await db.update("users").set("two_factor_at", to: now.epoch).where("id", .equal, userID).run()
        try await AccountChange.user(userID).announce(in: db)
    }

    /// Uses a recovery code: true when it is the account's and was not used before.
    public func useRecoveryCode(userID: Int64, hash: String, now: Date) async throws -> Bool {
        let used = try await db.raw(
            """
            UPDATE recovery_codes SET used_at = \(bind: now.epoch)
            WHERE user_id = \(bind: userID) AND code_hash = \(bind: hash) AND used_at IS NULL RETURNING user_id
            """
        ).all()
        return !used.isEmpty
    }

    /// How many recovery codes the account has not used.
    public func recoveryCodesLeft(userID: Int64) async throws -> Int {
        try await db.raw(
            "SELECT COUNT(*) AS n FROM recovery_codes WHERE user_id = \(bind: userID) AND used_at IS NULL"
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Turns two-factor sign-in off: the secret and the codes go.
    public func disableTwoFactor(userID: Int64) async throws {
        try await db.delete(from: "two_factor_secrets").where("user_id", .equal, userID).run()
        try await db.delete(from: "recovery_codes").where("user_id", .equal, userID).run()
        try await db.update("users").set("two_factor_at", to: SQLLiteral.null).where("id", .equal, userID).run()
        try await AccountChange.user(userID).announce(in: db)
    }
}
