import Foundation
import SQLKit
import SharedHelpers

/// OpenID Connect sign-in's rows (migration 37): sign-ins started and not yet come back, the
/// provider's accounts linked to Campus accounts, and offers to link an existing account.
public struct SignOnStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    /// A sign-in sent to the provider: what its callback must match and needs.
    public struct Start: Sendable, Equatable {
        public var state: String
        public var nonce: String
        /// The PKCE code verifier (RFC 7636), sent with the code.
        public var verifier: String
        /// A hash of the browser's CSRF cookie: the callback must come back to the same browser.
        public var browser: String
        /// Where to go after signing in (a path of this site).
        public var next: String
        public var createdAt: Date

        public init(state: String, nonce: String, verifier: String, browser: String, next: String, createdAt: Date) {
            self.state = state
            self.nonce = nonce
            self.verifier = verifier
            self.browser = browser
            self.next = next
            self.createdAt = createdAt
        }
    }

    /// An offer to link the provider's account to the Campus account of the same verified email,
    /// once that account's password is given.
    public struct Offer: Sendable, Equatable {
        public var issuer: String
        public var subject: String
        public var userID: Int64
        /// The ID token the provider gave (already checked), for the session the link opens.
        public var idToken: String
        public var next: String
        public var createdAt: Date

        public init(issuer: String, subject: String, userID: Int64, idToken: String, next: String, createdAt: Date) {
            self.issuer = issuer
            self.subject = subject
            self.userID = userID
            self.idToken = idToken
            self.next = next
            self.createdAt = createdAt
        }
    }

    public func save(_ start: Start) async throws {
        try await db.insert(into: "oidc_starts")
            .columns("state", "nonce", "verifier", "browser", "next", "created_at")
            .values(
                SQLBind(start.state), SQLBind(start.nonce), SQLBind(start.verifier), SQLBind(start.browser),
                SQLBind(start.next), SQLBind(start.createdAt.epoch)
            ).run()
    }

    /// Takes a started sign-in: each `state` comes back once (two callbacks racing get it once).
    public func takeStart(state: String) async throws -> Start? {
        try await db.raw(
            """
            DELETE FROM oidc_starts WHERE state = \(bind: state)
            RETURNING state, nonce, verifier, browser, next, created_at
            """
        ).first().map { row in
            Start(
                state: try row.decode(column: "state", as: String.self),
                nonce: try row.decode(column: "nonce", as: String.self),
                verifier: try row.decode(column: "verifier", as: String.self),
                browser: try row.decode(column: "browser", as: String.self),
                next: try row.decode(column: "next", as: String.self),
                createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)))
        }
    }

    /// The Campus account a provider's account is linked to.
    public func linkedUser(issuer: String, subject: String) async throws -> Int64? {
        try await db.raw(
            "SELECT user_id FROM oidc_links WHERE issuer = \(bind: issuer) AND subject = \(bind: subject)"
        ).first(decodingColumn: "user_id", as: Int64.self)
    }

    public func link(issuer: String, subject: String, userID: Int64, now: Date) async throws {
        try await db.insert(into: "oidc_links").columns("issuer", "subject", "user_id", "created_at")
            .values(SQLBind(issuer), SQLBind(subject), SQLBind(userID), SQLBind(now.epoch)).run()
    }

    /// Whether an account is linked to a provider's account (it may have no password of its own).
    public func isLinked(userID: Int64) async throws -> Bool {
        try await db.raw("SELECT 1 AS one FROM oidc_links WHERE user_id = \(bind: userID)").first() != nil
    }

    public func save(_ offer: Offer, tokenHash: String) async throws {
        try await db.insert(into: "oidc_offers")
            .columns("token_hash", "issuer", "subject", "user_id", "id_token", "next", "created_at")
            .values(
                SQLBind(tokenHash), SQLBind(offer.issuer), SQLBind(offer.subject), SQLBind(offer.userID),
                SQLBind(offer.idToken), SQLBind(offer.next), SQLBind(offer.createdAt.epoch)
            ).run()
    }

    /// An offer made since `since`; `taking` removes it (it is used once).
    public func offer(tokenHash: String, since: Date, taking: Bool) async throws -> Offer? {
        let verb = taking ? "DELETE FROM oidc_offers" : "SELECT * FROM oidc_offers"
        let returning = taking ? "RETURNING *" : ""
        return try await db.raw(
            "\(unsafeRaw: verb) WHERE token_hash = \(bind: tokenHash) \(unsafeRaw: returning)"
        ).first().flatMap { row in
            let offer = Offer(
                issuer: try row.decode(column: "issuer", as: String.self),
                subject: try row.decode(column: "subject", as: String.self),
                userID: try row.decode(column: "user_id", as: Int64.self),
                idToken: try row.decode(column: "id_token", as: String.self),
                next: try row.decode(column: "next", as: String.self),
                createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)))
            return offer.createdAt >= since.rounded ? offer : nil
        }
    }

    /// The ID token of a session signed in at the provider (for logging out there).
    public func idToken(sessionTokenHash: String) async throws -> String? {
        try await db.raw("SELECT id_token FROM sessions WHERE token_hash = \(bind: sessionTokenHash)")
            .first(decodingColumn: "id_token", as: String?.self) ?? nil
    }

    /// Forgets sign-ins that never came back and offers not taken, made before `before`.
    public func removeStale(before: Date) async throws {
        try await db.delete(from: "oidc_starts").where("created_at", .lessThan, before.epoch).run()
        try await db.delete(from: "oidc_offers").where("created_at", .lessThan, before.epoch).run()
    }
}
