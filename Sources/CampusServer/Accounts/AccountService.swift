import Accounts
import Foundation
import InputRules
import Localization
import Logging
import SQLKit
import Storage

/// A signed-in user and the session the request came with.
struct Authenticated: Sendable {
    var user: Account
    var session: SessionRecord
    /// The account's own role while it acts as a plain user: its role needs two-factor sign-in
    /// (`--require-2fa-for`) and it has not turned that on.
    var roleWaitingForTwoFactor: Role? = nil
}

/// Registration, login, sessions, password reset, profile and account deletion: the rules the
/// API, the web app and the CLI share.
struct AccountService: Sendable {
    let database: Database
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let outbox: Outbox
    let baseURL: String
    /// The languages Campus speaks: a user's choice must be one, and mail is written in it.
    let languages: Languages
    let now: @Sendable () -> Date
    let logger: Logger
    /// Called after an account is deleted, so that cached rankings are read again.
    var accountDeleted: @Sendable () -> Void = {}
    /// Sessions kept in memory (the server's; the CLI keeps none).
    var sessions: SessionMemory? = nil
    /// The roles that act only with two-factor sign-in on (`--require-2fa-for`).
    var twoFactorRoles: Set<Role> = []
    /// Whether accounts sign in, register and reset passwords with a password of their own
    /// (`--password-sign-in off`: only through the OpenID provider).
    var passwordSignIn = true

    /// Sessions end after this long without use; each use (checked at most hourly) extends them.
    static let sessionLifetime: TimeInterval = 30 * 24 * 3600
    static let sessionTouchInterval: TimeInterval = 3600
    static let resetLifetime: TimeInterval = 3600

    // MARK: Sessions (login: AccountService+Login.swift; registration: AccountService+Registration.swift)

    /// The user of an unexpired session token, extending the session when it is in use. Read
    /// from memory when it holds the session (see `SessionMemory`), else from the database.
    func authenticate(token: String) async throws -> Authenticated? {
        guard !token.isEmpty, token.utf8.count <= 200 else { return nil }
        let now = now()
        let hash = Token.hash(token)
        var account: Authenticated
        if let kept = kept(hash: hash, now: now) {
            account = kept
        } else {
            let mark = sessions?.mark()
            guard
                let found = try await database.read({ db in
                    try await AccountStore(db).session(tokenHash: hash, now: now)
                })
            else { return nil }
            account = Authenticated(user: found.user, session: found.session)
            sessions?.keep(account, tokenHash: hash, mark: mark)
        }
        if Self.needsTouch(account, now: now) {
            let expires = now.addingTimeInterval(Self.sessionLifetime)
            let mark = sessions?.mark()
            try await database.write { [id = account.session.id] db in
                try await AccountStore(db).touchSession(id: id, now: now, expiresAt: expires)
            }
            account.session.lastSeenAt = now.rounded
            account.session.expiresAt = expires.rounded
            sessions?.keep(account, tokenHash: hash, mark: mark)
        }
        return applyingTwoFactorRule(account)
    }

    /// The account of a session token as ``authenticate(token:)`` finds it, when memory holds the
    /// session and it needs no touch (so nothing is read or written); nil otherwise.
    func keptAccount(token: String) -> Authenticated? {
        guard !token.isEmpty, token.utf8.count <= 200 else { return nil }
        let now = now()
        guard let account = kept(hash: Token.hash(token), now: now), !Self.needsTouch(account, now: now) else {
            return nil
        }
        return applyingTwoFactorRule(account)
    }

    /// Whether a session in use is extended now (its last use is written at most once an hour).
    private static func needsTouch(_ account: Authenticated, now: Date) -> Bool {
        now.timeIntervalSince(account.session.lastSeenAt) > sessionTouchInterval
    }

    /// The unexpired session of a token hash that memory holds.
    private func kept(hash: String, now: Date) -> Authenticated? {
        guard let kept = sessions?.find(tokenHash: hash), kept.session.expiresAt > now else { return nil }
        return kept
    }

    /// Makes this instance's memory forget `change` at once (other instances hear it from the
    /// database): after each write that changes an account or ends a session.
    func forget(_ change: AccountChange) {
        sessions?.forget(change)
    }

    func logout(token: String) async throws {
        let hash = Token.hash(token)
        try await database.write { db in try await AccountStore(db).deleteSession(tokenHash: hash) }
        forget(.session(tokenHash: hash))
    }

    // MARK: Profile

    struct ProfileChange: Sendable {
        var firstName: String?
        var lastName: String?
        var group: String?
        var subgroup: Int?
        /// A language Campus speaks (``languages``), or "" to follow the browser again; nil
        /// leaves it.
        var language: String? = nil
    }

    func updateProfile(of user: Account, _ change: ProfileChange) async throws -> Account {
        var validator = Validator()
        let first = change.firstName.flatMap { name in
            validator.check { () throws(FieldProblem) in try AccountRules.name(name, field: "firstName") }
        }
        let last = change.lastName.flatMap { name in
            validator.check { () throws(FieldProblem) in try AccountRules.name(name, field: "lastName") }
        }
        var group = user.group
        if let newGroup = change.group {
            group = validator.check { () throws(FieldProblem) in try AccountRules.group(newGroup) } ?? nil
        }
        let subgroup = change.subgroup.flatMap { value in
            validator.check { () throws(FieldProblem) in try AccountRules.subgroup(value) }
        }
        if let group, group != user.group,
            try await !database.read({ db in try await TimetableStore(db).acceptsGroup(group) })
        {
            validator.add(
                FieldProblem(field: "group", detail: "There is no group {name} in the timetable.", ["name": group]))
        } else if let subgroup, subgroup != 0, let group {
            // A subgroup the group's timetable has (while it has lessons: before they are
            // imported, any the rule allows).
            let known = try await database.read { db in try await TimetableStore(db).subgroups(ofGroup: group) }
            let split = known.filter { $0 != 0 }.sorted()
            if !known.isEmpty, !split.contains(subgroup) {
                validator.add(
                    split.isEmpty
                        ? FieldProblem(
                            field: "subgroup", detail: "Group {name} has no subgroups; 0 is the whole group.",
                            ["name": group])
                        : FieldProblem(
                            field: "subgroup", detail: "Group {name} has subgroups {subgroups}; 0 is the whole group.",
                            ["name": group, "subgroups": split.map(String.init).joined(separator: ", ")]))
            }
        }
        if let language = change.language, !language.isEmpty, languages.translator(language) == nil {
            validator.add(
                FieldProblem(
                    field: "language",
                    detail: "Campus speaks {languages}; choose one of them, or nothing to follow the browser.",
                    ["languages": languages.codes.joined(separator: ", ")]))
        }
        try validator.finish()
        let now = now()
        defer { forget(.user(user.id)) }
        return try await database.write { [group] db in
            let store = AccountStore(db)
            try await store.updateProfile(
                userID: user.id, firstName: first ?? user.firstName, lastName: last ?? user.lastName, group: group,
                subgroup: subgroup ?? user.subgroup, now: now)
            if let language = change.language {
                try await store.setLanguage(userID: user.id, language: language.isEmpty ? nil : language, now: now)
            }
            guard let updated = try await store.user(id: user.id) else { throw Refusal.notSignedIn() }
            return updated
        }
    }

    /// Whether the account has a password; one made at the OpenID provider has none until its
    /// owner sets one through a password reset.
    func hasPassword(_ user: Account) async throws -> Bool {
        let stored = try await database.read { db in try await AccountStore(db).passwordHash(userID: user.id) }
        return stored.map { $0 != PasswordHasher.noPassword } ?? false
    }

    /// Changes the password after checking the current one; ends every other session.
    func changePassword(of account: Authenticated, current: String, new: String) async throws {
        guard try await hasPassword(account.user) else {
            throw Refusal.conflict(
                "Your account signs in with the sign-in service and has no password to change.")
        }
        try AccountRules.newPassword(new, field: "newPassword")
        try await checkPassword(current, of: account.user, field: "currentPassword")
        let hash = try await hasher.hash(new)
        let now = now()
        try await database.write { db in
            let store = AccountStore(db)
            try await store.setPasswordHash(userID: account.user.id, hash: hash, now: now)
            try await store.deleteSessions(userID: account.user.id, keeping: account.session.id)
        }
        forget(.user(account.user.id))
        logger.info("password changed", metadata: ["user": "\(account.user.id)"])
    }

    func checkPassword(_ password: String, of user: Account, field: String) async throws {
        guard let stored = try await database.read({ db in try await AccountStore(db).passwordHash(userID: user.id) }),
            try await hasher.verify(password, hash: stored)
        else {
            throw Refusal(
                .notAllowed, detail: "The password is not right. Enter your current password to confirm.",
                kind: Refusal.Kind("wrong-password", title: "Wrong password"),
                fields: [FieldProblem(field: field, detail: "The password is not right.")])
        }
    }

    /// Deletes the account after checking its password, or, for an account that has none, its
    /// email address typed again (see docs/ACCOUNTS.md for what goes).
    func deleteAccount(of user: Account, password: String) async throws {
        if try await hasPassword(user) {
            try await checkPassword(password, of: user, field: "password")
        } else if AccountRules.emailKey(password) != AccountRules.emailKey(user.email) {
            throw Refusal(
                .notAllowed, detail: "Your account has no password. Type your email address to confirm.",
                kind: Refusal.Kind("wrong-password", title: "Wrong password"),
                fields: [FieldProblem(field: "password", detail: "This is not your email address.")])
        }
        let now = now()
        try await database.write { db in
            let store = AccountStore(db)
            if user.role == .admin, try await store.count(role: .admin) <= 1 {
                throw Refusal.conflict(
                    "You are the only admin. Make another account an admin before deleting yours.")
            }
            try await CompeteStore(db).handOver(competitionsOf: user.id, now: now)
            try await store.deleteUser(id: user.id)
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .accountDeleted, actor: AuditActor(user), target: .user(user),
                    before: user.role.rawValue))
        }
        forget(.user(user.id))
        accountDeleted()
        logger.info("account deleted", metadata: ["user": "\(user.id)"])
    }

    // MARK: Avatars

    static let avatarTypes = ["image/png", "image/jpeg", "image/webp"]

    /// Stores an avatar after checking that the bytes are the image type they claim to be.
    func setAvatar(of user: Account, contentType: String, data: [UInt8]) async throws -> Account {
        guard data.count <= BodyLimits.avatar else { throw Refusal.tooLarge(limit: BodyLimits.avatar) }
        let detected = try ImageKind.of(
            data, sentAs: contentType, field: "avatar",
            notAnImage: Phrase("The avatar must be a PNG, JPEG or WebP image."))
        let now = now()
        defer { forget(.user(user.id)) }
        return try await database.write { db in
            let store = AccountStore(db)
            try await store.setAvatar(userID: user.id, contentType: detected.mediaType, data: data, now: now)
            guard let updated = try await store.user(id: user.id) else { throw Refusal.notSignedIn() }
            return updated
        }
    }

    func deleteAvatar(of user: Account) async throws {
        try await database.write { db in try await AccountStore(db).deleteAvatar(userID: user.id) }
        forget(.user(user.id))
    }

    // MARK: Roles

    /// Changes a role (admins only, or the command line when `actor` is nil); the last admin keeps
    /// the role. The change and its audit entry are one transaction.
    func setRole(of userID: Int64, to role: Role, by actor: Account?) async throws -> Account {
        if let actor, actor.role != .admin { throw Refusal.notAllowed("Only admins change roles.") }
        let now = now()
        let user = try await database.write { db in
            let store = AccountStore(db)
            guard let target = try await store.user(id: userID) else {
                throw Refusal.notFound("There is no account {id}.", ["id": String(userID)])
            }
            if target.role == .admin, role != .admin, try await store.count(role: .admin) <= 1 {
                throw Refusal.conflict("This is the only admin. Make another account an admin first.")
            }
            try await store.setRole(userID: userID, role: role, now: now)
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .roleChanged, actor: AuditActor(actor), target: .user(target),
                    before: target.role.rawValue, after: role.rawValue))
            return try await store.user(id: userID) ?? target
        }
        forget(.user(userID))
        logger.notice(
            "role changed",
            metadata: [
                "user": "\(userID)", "role": "\(role.rawValue)", "by": "\(actor.map { String($0.id) } ?? "cli")",
            ])
        return user
    }

    // MARK: Housekeeping

    func removeExpired() async throws {
        let now = now()
        let before = throttle.windowStart(now: now)
        try await database.write { db in
            let store = AccountStore(db)
            try await store.removeExpired(now: now, failuresBefore: before)
            try await store.removeSentForms(before: now.addingTimeInterval(-Self.sentFormsKept))
            try await SignOnStore(db).removeStale(before: now.addingTimeInterval(-SingleSignOnService.patience))
        }
    }

    // MARK: Reading accounts

    /// A page of accounts for an admin, optionally searched (name or email) and of one role.
    func users(search: String?, role: Role?, limit: Int, offset: Int, by actor: Account) async throws -> (
        users: [Account], total: Int
    ) {
        guard actor.role == .admin else { throw Refusal.notAllowed("Only admins manage accounts.") }
        return try await database.read { db in
            try await AccountStore(db).users(search: search, role: role, limit: limit, offset: offset)
        }
    }

    /// An account as `actor` may see it: their own, or any for an admin; to anyone else other
    /// accounts do not exist (404).
    func user(id: Int64, seenBy actor: Account) async throws -> Account {
        guard actor.role == .admin || actor.id == id,
            let user = try await database.read({ db in try await AccountStore(db).user(id: id) })
        else { throw Refusal.notFound("There is no account {id}.", ["id": String(id)]) }
        return user
    }

    /// An account's avatar image, if it has one.
    func avatar(of userID: Int64) async throws -> StoredImage? {
        try await database.read { db in try await AccountStore(db).avatar(userID: userID) }
    }
}
