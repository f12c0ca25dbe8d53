import Accounts
import Foundation
import InputRules
import Localization
import Logging
import SQLKit
import Storage

/// Signing in with an email and a password (and the second factor of an account that has it on),
/// and the throttle that failed attempts feed.
extension AccountService {
    /// Checks the password, and the second factor of an account that has it on
    /// (``checkSecondFactor(_:code:accountKey:address:)``), and opens a session; the token is
    /// returned once and stored hashed.
    func login(
        email: String, password: String, code: String? = nil, kind: SessionRecord.Kind, address: String,
        userAgent: String?
    ) async throws -> (token: String, session: SessionRecord, user: Account) {
        try requirePasswordSignIn()
        return try await signIn(
            email: email, password: password, code: code, kind: kind, address: address, userAgent: userAgent)
    }

    /// ``login(email:password:code:kind:address:userAgent:)``'s checks and session, whether or not
    /// password sign-in is on (linking an account to the OpenID provider proves its password
    /// once); `idToken` marks a session signed in at the provider, and `alsoWrite` writes more in
    /// the session's transaction.
    func signIn(
        email: String, password: String, code: String?, kind: SessionRecord.Kind, address: String,
        userAgent: String?, idToken: String? = nil,
        alsoWrite: @escaping @Sendable (Account, any SQLDatabase) async throws -> Void = { _, _ in }
    ) async throws -> (token: String, session: SessionRecord, user: Account) {
        let accountKey = AccountRules.emailKey(email)
        let now = now()
        if let seconds = try await Self.blockedSeconds(
            database: database, throttle: throttle, accountKey: accountKey, address: address, now: now)
        {
            logger.notice("login throttled", metadata: ["address": "\(address)"])
            throw Self.tooManyAttempts(retryAfterSeconds: seconds)
        }
        let found = try await database.read { db in try await AccountStore(db).credentials(email: email) }
        var verified = false
        if let found {
            verified = try await hasher.verify(password, hash: found.passwordHash)
        } else {
            try await hasher.verifyDecoy(password)
        }
        guard let found, verified else {
            try await database.write { db in
                try await AccountStore(db).recordLoginFailure(accountKey: accountKey, address: address, at: now)
            }
            logger.notice("login failed", metadata: ["address": "\(address)"])
            throw Refusal.notSignedIn("The email address or the password is wrong.")
        }
        if found.user.twoFactorSince != nil {
            try await checkSecondFactor(found.user, code: code, accountKey: accountKey, address: address)
        }
        let token = Token.make()
        let session = try await database.write { db in
            let store = AccountStore(db)
            try await store.clearLoginFailures(accountKey: accountKey)
            try await alsoWrite(found.user, db)
            return try await store.createSession(
                userID: found.user.id, tokenHash: Token.hash(token), kind: kind, now: now,
                expiresAt: now.addingTimeInterval(Self.sessionLifetime), userAgent: userAgent, address: address,
                idToken: idToken)
        }
        logger.info("logged in", metadata: ["user": "\(found.user.id)", "kind": "\(kind.rawValue)"])
        return (token, session, found.user)
    }

    /// How long until the account or the address may try to sign in again; nil when it may now.
    /// The sign-in page and the API's login share this throttle; players' credentials have one of
    /// their own, in memory (``FailureMemory``), and never count here.
    static func blockedSeconds(
        database: Database, throttle: LoginThrottle, accountKey: String, address: String, now: Date
    ) async throws -> Int? {
        let failures = try await database.read { db in
            try await AccountStore(db).loginFailures(
                accountKey: accountKey, address: address, since: throttle.windowStart(now: now))
        }
        for times in [failures.account, failures.address] {
            if case .blocked(let seconds) = throttle.decide(failures: times, now: now) { return seconds }
        }
        return nil
    }

    /// 403 when password sign-in is turned off (`--password-sign-in off`).
    func requirePasswordSignIn() throws {
        guard !passwordSignIn else { return }
        throw Refusal(
            .notAllowed, detail: "Signing in with a password is turned off here: use your university account.",
            kind: Refusal.Kind("password-sign-in-off", title: "Password sign-in is off"))
    }

    /// Too many failed logins for an account or from an address: 429 with `Retry-After`.
    static func tooManyAttempts(retryAfterSeconds: Int) -> Refusal {
        Refusal.tooManyAttempts(
            retryAfterSeconds: retryAfterSeconds,
            oneMinute: Phrase("Too many failed logins. Try again in {minutes} minute, or reset your password."),
            minutes: Phrase("Too many failed logins. Try again in {minutes} minutes, or reset your password."))
    }
}
