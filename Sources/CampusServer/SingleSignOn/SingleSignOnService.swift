import Accounts
import Foundation
import InputRules
import Logging
import SQLKit
import Storage

/// Signing in at the university's OpenID provider: a sign-in started (its `state`, `nonce` and
/// PKCE verifier kept once, for this browser), the callback's code exchanged and its ID token
/// checked, and then the account: the one linked to the provider's person, or a new one made from
/// the token's claims, or, when an account of the same verified email exists, an offer to link
/// it that only its password takes. The role and group claims (when configured) are applied at
/// every sign-in, each change in the audit log.
struct SingleSignOnService: Sendable {
    let provider: OpenIDProvider
    let settings: SingleSignOnSettings
    let accounts: AccountService
    let database: Database
    let baseURL: String
    let now: @Sendable () -> Date
    let logger: Logger

    /// How long a started sign-in or a link offer waits.
    static let patience: TimeInterval = 600

    var name: String { settings.name }
    var redirectURI: String { baseURL + SiteRoutes.signOnCallback.path }

    /// Keeps a new sign-in for `browser` (its CSRF cookie) and returns the provider's address to
    /// send it to.
    func start(next: String, browser: String) async throws -> String {
        let state = Token.make()
        let nonce = Token.make()
        let verifier = Token.make()
        let url = try await provider.authorizationURL(
            redirectURI: redirectURI, state: state, nonce: nonce, verifier: verifier)
        let start = SignOnStore.Start(
            state: state, nonce: nonce, verifier: verifier, browser: Token.hash(browser), next: next, createdAt: now())
        try await database.write { db in try await SignOnStore(db).save(start) }
        return url
    }

    enum Outcome: Sendable {
        case signedIn(token: String, user: Account, next: String)
        /// An account of the same verified email exists: its password links it (``link``).
        case linkOffered(offer: String, email: String, next: String)
    }

    static func expired() -> Refusal {
        Refusal(
            .notSignedIn,
            detail: "This sign-in has expired or was started in another browser. Start it again.",
            kind: Refusal.Kind("sign-on-expired", title: "The sign-in has expired"))
    }

    /// The callback: the started sign-in its `state` names (taken, once), the code exchanged,
    /// the ID token checked, and the account signed in or offered for linking.
    func finish(
        state: String, code: String, browser: String, address: String, userAgent: String?
    ) async throws -> Outcome {
        let now = now()
        guard !state.isEmpty, state.utf8.count <= 100,
            let start = try await database.write({ db in try await SignOnStore(db).takeStart(state: state) }),
            start.createdAt >= now.addingTimeInterval(-Self.patience), start.browser == Token.hash(browser)
        else { throw Self.expired() }
        let idToken = try await provider.exchange(code: code, verifier: start.verifier, redirectURI: redirectURI)
        let identity = try await provider.verify(idToken, nonce: start.nonce)
        let sessionToken = Token.make()
        let offerToken = Token.make()
        let outcome = try await database.write { db -> Outcome in
            let store = SignOnStore(db)
            if let userID = try await store.linkedUser(issuer: identity.issuer, subject: identity.subject),
                let user = try await AccountStore(db).user(id: userID)
            {
                let updated = try await apply(identity, to: user, now: now, db: db)
                try await openSession(
                    sessionToken, for: updated, identity: identity, now: now, db: db, address, userAgent)
                return .signedIn(token: sessionToken, user: updated, next: start.next)
            }
            let email = try Self.email(of: identity)
            if let existing = try await AccountStore(db).credentials(email: email)?.user {
                guard identity.emailVerified else {
                    throw Refusal.conflict(
                        "An account with {email} exists, and the sign-in service has not confirmed that this address is yours. Sign in with your password.",
                        ["email": email])
                }
                try await store.save(
                    SignOnStore.Offer(
                        issuer: identity.issuer, subject: identity.subject, userID: existing.id, idToken: idToken,
                        next: start.next, createdAt: now),
                    tokenHash: Token.hash(offerToken))
                return .linkOffered(offer: offerToken, email: existing.email, next: start.next)
            }
            let user = try await create(identity, email: email, now: now, db: db)
            try await openSession(sessionToken, for: user, identity: identity, now: now, db: db, address, userAgent)
            return .signedIn(token: sessionToken, user: user, next: start.next)
        }
        if case .signedIn(_, let user, _) = outcome {
            accounts.forget(.user(user.id))
            logger.info("signed in at the provider", metadata: ["user": "\(user.id)"])
        }
        return outcome
    }

    /// The offer a link token names, and its account, while the offer holds.
    func offered(_ token: String) async throws -> (offer: SignOnStore.Offer, account: Account) {
        let since = now().addingTimeInterval(-Self.patience)
        guard token.utf8.count <= 100,
            let found = try await database.read({ db -> (SignOnStore.Offer, Account)? in
                guard
                    let offer = try await SignOnStore(db).offer(
                        tokenHash: Token.hash(token), since: since, taking: false),
                    let user = try await AccountStore(db).user(id: offer.userID)
                else { return nil }
                return (offer, user)
            })
        else { throw Self.expired() }
        return found
    }

    /// Links the provider's person to the account of the offer once its password (and second
    /// factor, when on) is given, throttled as a sign-in is, and signs in.
    func link(
        offer token: String, password: String, code: String?, address: String, userAgent: String?
    ) async throws -> (token: String, user: Account, next: String) {
        let (offer, account) = try await offered(token)
        let identity = try OpenIDIdentity(checkedToken: offer.idToken, settings: settings)
        let since = now().addingTimeInterval(-Self.patience)
        let result = try await accounts.signIn(
            email: account.email, password: password, code: code, kind: .web, address: address,
            userAgent: userAgent, idToken: offer.idToken
        ) { [now] user, db in
            // Taken once: two tabs sending the form link once.
            guard try await SignOnStore(db).offer(tokenHash: Token.hash(token), since: since, taking: true) != nil
            else { throw Self.expired() }
            let now = now()
            try await SignOnStore(db).link(issuer: offer.issuer, subject: offer.subject, userID: user.id, now: now)
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .accountLinked, actor: AuditActor(user), target: .user(user),
                    after: offer.issuer))
            _ = try await apply(identity, to: user, now: now, db: db)
        }
        accounts.forget(.user(result.user.id))
        logger.notice("account linked to the provider", metadata: ["user": "\(result.user.id)"])
        return (result.token, result.user, offer.next)
    }

    // MARK: Accounts

    private static func email(of identity: OpenIDIdentity) throws -> String {
        guard let raw = identity.email, let email = try? AccountRules.email(raw) else {
            throw Refusal.conflict(
                "The sign-in service did not tell Campus your email address. Ask the university's IT department to release it to Campus."
            )
        }
        return email
    }

    /// A new account from the provider's claims: no password of its own (it may set one with
    /// "Forgot password" while password sign-in is on), linked at once.
    private func create(_ identity: OpenIDIdentity, email: String, now: Date, db: any SQLDatabase) async throws
        -> Account
    {
        let role = identity.role ?? .user
        let user: Account
        do {
            user = try await AccountStore(db).createUser(
                NewUser(
                    email: email, passwordHash: PasswordHasher.noPassword, firstName: identity.firstName,
                    lastName: identity.lastName, role: role),
                now: now)
        } catch StoreError.emailTaken {
            throw Refusal.conflict("An account with this email exists already. Log in instead.")
        }
        try await SignOnStore(db).link(issuer: identity.issuer, subject: identity.subject, userID: user.id, now: now)
        try await AuditStore(db).record(
            AuditEntry(at: now, action: .accountCreated, actor: .signOn, target: .user(user), after: role.rawValue))
        return try await apply(identity, to: user, now: now, db: db)
    }

    /// Brings the account's role and group to what the provider's claims say (when Campus is
    /// told which claims to read): each change in the audit log. The only admin keeps the role.
    private func apply(_ identity: OpenIDIdentity, to user: Account, now: Date, db: any SQLDatabase) async throws
        -> Account
    {
        let store = AccountStore(db)
        var user = user
        if let role = identity.role, role != user.role {
            if user.role == .admin, try await store.count(role: .admin) <= 1 {
                logger.warning("the provider's role claim would leave no admin", metadata: ["user": "\(user.id)"])
            } else {
                try await store.setRole(userID: user.id, role: role, now: now)
                try await AuditStore(db).record(
                    AuditEntry(
                        at: now, action: .roleChanged, actor: .signOn, target: .user(user), before: user.role.rawValue,
                        after: role.rawValue))
                user.role = role
            }
        }
        if let group = identity.group, group != user.group, try await TimetableStore(db).acceptsGroup(group) {
            try await store.updateProfile(
                userID: user.id, firstName: user.firstName, lastName: user.lastName, group: group, subgroup: 0, now: now
            )
            user.group = group
            user.subgroup = 0
        }
        return user
    }

    private func openSession(
        _ token: String, for user: Account, identity: OpenIDIdentity, now: Date, db: any SQLDatabase,
        _ address: String, _ userAgent: String?
    ) async throws {
        _ = try await AccountStore(db).createSession(
            userID: user.id, tokenHash: Token.hash(token), kind: .web, now: now,
            expiresAt: now.addingTimeInterval(AccountService.sessionLifetime), userAgent: userAgent, address: address,
            idToken: identity.token)
    }

    // MARK: Logging out

    /// The ID token of a session signed in at the provider.
    func idToken(session: String) async throws -> String? {
        guard session.utf8.count <= 200 else { return nil }
        return try await database.read { db in try await SignOnStore(db).idToken(sessionTokenHash: Token.hash(session))
        }
    }

    /// Where the browser goes to end the provider's session too, and comes back home.
    func logoutURL(idToken: String) async -> String? {
        await provider.logoutURL(idToken: idToken, after: baseURL + SiteRoutes.home.path)
    }
}
