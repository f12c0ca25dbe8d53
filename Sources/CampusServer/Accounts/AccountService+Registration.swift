import Accounts
import Foundation
import InputRules
import Logging
import SQLKit
import Storage

/// Registration: an account made by its user, on the API (who then logs in) or on the web app
/// (signed in at once, in the same transaction).
extension AccountService {
    func register(email rawEmail: String, password: String, firstName: String, lastName: String, organizer: Bool)
        async throws -> Account
    {
        try requirePasswordSignIn()
        return try await register(
            email: rawEmail, password: password, firstName: firstName, lastName: lastName, organizer: organizer
        ) { _, _, _ in () }.user
    }

    /// Creates an account with any role on someone else's behalf (the command line's `user add`):
    /// the account, its role and the audit entry in one transaction.
    func createAccount(
        email: String, password: String, firstName: String, lastName: String, role: Role, by actor: AuditActor
    ) async throws -> Account {
        try await register(
            email: email, password: password, firstName: firstName, lastName: lastName, organizer: role == .organizer
        ) { user, now, db in
            let store = AccountStore(db)
            if role == .admin { try await store.setRole(userID: user.id, role: .admin, now: now) }
            try await AuditStore(db).record(
                AuditEntry(at: now, action: .accountCreated, actor: actor, target: .user(user), after: role.rawValue))
            return try await store.user(id: user.id) ?? user
        }.also
    }

    /// Creates an account; `alsoWrite` writes more in the same transaction (a session).
    /// A `confirmation` (the form's password typed again) must be the password; every field's
    /// problem is said at once.
    private func register<Also: Sendable>(
        email rawEmail: String, password: String, confirmation: String? = nil, firstName: String, lastName: String,
        organizer: Bool, alsoWrite: @escaping @Sendable (Account, Date, any SQLDatabase) async throws -> Also
    ) async throws -> (user: Account, also: Also) {
        var validator = Validator()
        let email = validator.check { () throws(FieldProblem) in try AccountRules.email(rawEmail) }
        validator.check { () throws(FieldProblem) in try AccountRules.newPassword(password) }
        validator.check { () throws(FieldProblem) in
            if let confirmation, confirmation != password {
                throw FieldProblem(field: "confirmation", detail: "The two passwords are not the same.")
            }
        }
        let first = validator.check { () throws(FieldProblem) in try AccountRules.name(firstName, field: "firstName") }
        let last = validator.check { () throws(FieldProblem) in try AccountRules.name(lastName, field: "lastName") }
        try validator.finish()
        guard let email, let first, let last else { throw ValidationFailure(validator.problems) }
        let hash = try await hasher.hash(password)
        let now = now()
        let (user, also) = try await database.write { db in
            let user = try await AccountStore(db).createUser(
                NewUser(
                    email: email, passwordHash: hash, firstName: first, lastName: last,
                    role: organizer ? .organizer : .user),
                now: now)
            return (user, try await alsoWrite(user, now, db))
        }
        logger.info("account registered", metadata: ["user": "\(user.id)", "role": "\(user.role.rawValue)"])
        return (user, also)
    }

    /// Creates an account and signs its user in, in one transaction: the web app's registration,
    /// after which the visitor goes on where they were going, signed in.
    func registerAndSignIn(
        email: String, password: String, confirmation: String?, firstName: String, lastName: String,
        organizer: Bool, kind: SessionRecord.Kind, address: String, userAgent: String?
    ) async throws -> (token: String, session: SessionRecord, user: Account) {
        try requirePasswordSignIn()
        let token = Token.make()
        let (user, session) = try await register(
            email: email, password: password, confirmation: confirmation, firstName: firstName, lastName: lastName,
            organizer: organizer
        ) { user, now, db in
            try await AccountStore(db).createSession(
                userID: user.id, tokenHash: Token.hash(token), kind: kind, now: now,
                expiresAt: now.addingTimeInterval(Self.sessionLifetime), userAgent: userAgent, address: address)
        }
        logger.info("logged in", metadata: ["user": "\(user.id)", "kind": "\(kind.rawValue)"])
        return (token, session, user)
    }
}
