import Accounts
import Foundation
import InputRules
import Storage

/// Two-factor sign-in (issue 40): an account starts enrolment (a new secret, shown as a QR code
/// and as text), confirms it with a first code (then gets ten recovery codes, shown once), and
/// from then on signs in with its password and a code, or one recovery code. Each code counts
/// once; wrong codes count as failed logins (``LoginThrottle``).
extension AccountService {
    /// What enrolment shows: the address an authenticator app reads, and the secret as text.
    struct Enrolment: Sendable {
        var url: String
        var secret: String
    }

    /// Whether the account signs in with a second factor, and its unused recovery codes.
    func twoFactorStatus(of user: Account) async throws -> (enabled: Bool, recoveryCodesLeft: Int) {
        let left = try await database.read { db in try await AccountStore(db).recoveryCodesLeft(userID: user.id) }
        return (user.twoFactorSince != nil, left)
    }

    /// A new secret for an account that has not turned two-factor sign-in on.
    func startTwoFactor(for user: Account) async throws -> Enrolment {
        guard user.twoFactorSince == nil else {
            throw Refusal.conflict("Two-factor sign-in is on already; turn it off first to enrol again.")
        }
        let secret = TwoFactor.makeSecret()
        let now = now()
        try await database.write { db in
            try await AccountStore(db).startTwoFactor(userID: user.id, secret: secret, now: now)
        }
        let shown = TwoFactor.authenticatorURL(secret: secret, account: user.email)
        return Enrolment(url: shown.url, secret: shown.base32)
    }

    /// The enrolment as it stands (the page shows it again after a wrong first code).
    func pendingEnrolment(for user: Account) async throws -> Enrolment? {
        guard user.twoFactorSince == nil,
            let found = try await database.read({ db in try await AccountStore(db).twoFactorSecret(userID: user.id) })
        else { return nil }
        let shown = TwoFactor.authenticatorURL(secret: found.secret, account: user.email)
        return Enrolment(url: shown.url, secret: shown.base32)
    }

    /// Turns two-factor sign-in on with the first code from the app; returns the recovery codes,
    /// which are shown this once and stored hashed.
    func confirmTwoFactor(for user: Account, code: String) async throws -> [String] {
        guard user.twoFactorSince == nil else { throw Refusal.conflict("Two-factor sign-in is on already.") }
        let now = now()
        let codes = TwoFactor.makeRecoveryCodes()
        try await database.write { db in
            let store = AccountStore(db)
            guard let found = try await store.twoFactorSecret(userID: user.id) else {
                throw Refusal.conflict("Start the enrolment first: there is no secret to confirm.")
            }
            guard let step = TwoFactor.matchingStep(TwoFactor.normalized(code), secret: found.secret, now: now),
                try await store.takeStep(userID: user.id, step: step)
            else {
                // 403, as a wrong password: the code is well formed, and not the app's.
                throw Refusal(
                    .notAllowed, detail: "The code is wrong: type the six digits the app shows now.",
                    fields: [
                        FieldProblem(field: "code", detail: "The code is wrong: type the six digits the app shows now.")
                    ])
            }
            try await store.enableTwoFactor(
                userID: user.id, recoveryCodeHashes: codes.map { Token.hash(TwoFactor.normalized($0)) }, now: now)
        }
        forget(.user(user.id))
        logger.notice("two-factor sign-in turned on", metadata: ["user": "\(user.id)"])
        return codes
    }

    /// Turns two-factor sign-in off; the password (of an account that has one) and a code (or a
    /// recovery code) prove it is the account's owner.
    func disableTwoFactor(for user: Account, password: String, code: String, address: String) async throws {
        guard user.twoFactorSince != nil else { throw Refusal.conflict("Two-factor sign-in is off already.") }
        let accountKey = AccountRules.emailKey(user.email)
        if let seconds = try await Self.blockedSeconds(
            database: database, throttle: throttle, accountKey: accountKey, address: address, now: now())
        {
            throw Self.tooManyAttempts(retryAfterSeconds: seconds)
        }
        // An account made at the OpenID provider has no password; its code alone proves it.
        if try await hasPassword(user) { try await checkPassword(password, of: user, field: "password") }
        try await checkSecondFactor(user, code: code, accountKey: accountKey, address: address)
        try await database.write { db in try await AccountStore(db).disableTwoFactor(userID: user.id) }
        forget(.user(user.id))
        logger.notice("two-factor sign-in turned off", metadata: ["user": "\(user.id)"])
    }

    /// An account whose role needs two-factor sign-in and has it off acts as a plain user until
    /// it turns it on (its pages say so); it may sign in, and enrol.
    func applyingTwoFactorRule(_ account: Authenticated) -> Authenticated {
        // A session signed in at the OpenID provider answers to the provider's rules (its own second factor).
        guard twoFactorRoles.contains(account.user.role), account.user.twoFactorSince == nil,
            !account.session.atProvider
        else { return account }
        var limited = account
        limited.roleWaitingForTwoFactor = account.user.role
        limited.user.role = .user
        return limited
    }

    /// Turns an account's two-factor sign-in off for someone who lost both the phone and the
    /// recovery codes (`campus user reset-2fa`); the audit log keeps who did it.
    func resetTwoFactor(of user: Account, by actor: AuditActor) async throws {
        let now = now()
        try await database.write { db in
            try await AccountStore(db).disableTwoFactor(userID: user.id)
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .twoFactorReset, actor: actor, target: .user(user),
                    before: user.twoFactorSince == nil ? "off" : "on", after: "off"))
        }
        forget(.user(user.id))
        logger.notice("two-factor sign-in reset", metadata: ["user": "\(user.id)"])
    }

    /// The second factor of a sign-in whose password was right: a TOTP code not used before, or
    /// an unused recovery code. None given asks for one; a wrong one counts as a failed login.
    func checkSecondFactor(_ user: Account, code: String?, accountKey: String, address: String) async throws {
        let now = now()
        let typed = TwoFactor.normalized(code ?? "")
        guard !typed.isEmpty else {
            throw Refusal(
                .notSignedIn, detail: "Enter the code from your authenticator app, or a recovery code.",
                kind: TwoFactor.required)
        }
        let accepted = try await database.write { db -> Bool in
            let store = AccountStore(db)
            if let found = try await store.twoFactorSecret(userID: user.id),
                let step = TwoFactor.matchingStep(typed, secret: found.secret, now: now)
            {
                return try await store.takeStep(userID: user.id, step: step)
            }
            return try await store.useRecoveryCode(userID: user.id, hash: Token.hash(typed), now: now)
        }
        guard accepted else {
            try await database.write { db in
                try await AccountStore(db).recordLoginFailure(accountKey: accountKey, address: address, at: now)
            }
            logger.notice("second factor wrong", metadata: ["address": "\(address)"])
            throw Refusal(
                .notSignedIn, detail: "The code is wrong or was used already.", kind: TwoFactor.required)
        }
    }
}
