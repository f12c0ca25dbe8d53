import Accounts
import Foundation
import InputRules
import Localization
import Storage

/// Password reset: a single-use link by mail (at most a few an hour), and the new password it sets.
extension AccountService {
    /// At most this many reset mails go to one account per hour, so the form cannot flood a mailbox.
    static let resetMailsPerHour = 3

    /// Sends a reset link if an account has this email, in the language the user chose, else in
    /// the one they asked in. Says nothing about whether an account has it.
    func requestPasswordReset(email: String, language: Translator) async throws {
        try requirePasswordSignIn()
        let now = now()
        guard let user = try await database.read({ db in try await AccountStore(db).credentials(email: email)?.user })
        else {
            logger.info("password reset asked for an unknown email")
            return
        }
        let recent = try await database.read { db in
            try await AccountStore(db).recentPasswordResets(userID: user.id, since: now.addingTimeInterval(-3600))
        }
        guard recent < Self.resetMailsPerHour else {
            logger.notice("password reset mail withheld: too many this hour", metadata: ["user": "\(user.id)"])
            return
        }
        guard let link = try await makeResetLink(email: email) else { return }
        let t = languages.translator(link.user.language) ?? language
        let body = [
            t("Hello {name},", context: "mail", ["name": link.user.firstName]),
            t(
                "someone (hopefully you) asked to reset the password of your Campus account. Open this link within one hour to choose a new password:",
                context: "mail"),
            link.url,
            t("If you did not ask for this, ignore this message; your password stays as it is.", context: "mail"),
        ].joined(separator: "\n\n")
        try await database.write { [outbox] db in
            try await outbox.enqueue(
                in: db, to: link.user.email, subject: t("Reset your Campus password", context: "mail"), body: body)
        }
        outbox.deliverSoon()
    }

    /// Makes a single-use reset link valid for one hour; nil when no account has this email.
    func makeResetLink(email: String) async throws -> (url: String, user: Account)? {
        let now = now()
        guard let user = try await database.read({ db in try await AccountStore(db).credentials(email: email)?.user })
        else { return nil }
        let token = Token.make()
        try await database.write { db in
            try await AccountStore(db).createPasswordReset(
                tokenHash: Token.hash(token), userID: user.id, now: now,
                expiresAt: now.addingTimeInterval(Self.resetLifetime))
        }
        return ("\(baseURL)/password/reset?token=\(token)", user)
    }

    /// Sets a new password with a reset token, which then no longer works; every session ends.
    func resetPassword(token: String, newPassword: String) async throws {
        try requirePasswordSignIn()
        try AccountRules.newPassword(newPassword)
        let hash = try await hasher.hash(newPassword)
        let now = now()
        let tokenHash = Token.hash(token)
        let userID = try await database.write { db -> Int64? in
            let store = AccountStore(db)
            guard let userID = try await store.consumePasswordReset(tokenHash: tokenHash, now: now) else { return nil }
            try await store.setPasswordHash(userID: userID, hash: hash, now: now)
            try await store.deleteSessions(userID: userID)
            return userID
        }
        if let userID { forget(.user(userID)) }
        guard let userID else {
            throw Refusal(
                .notAllowed, detail: "This reset link is unknown, used or older than one hour. Ask for a new one.",
                kind: Refusal.Kind("invalid-reset-token", title: "The reset link does not work"))
        }
        logger.info("password reset", metadata: ["user": "\(userID)"])
    }
}
