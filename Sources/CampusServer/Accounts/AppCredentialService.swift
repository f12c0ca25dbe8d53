import Accounts
import Crypto
import Foundation
import InputRules
import Logging
import SharedHelpers
import Storage

/// API keys and app passwords: what players that speak the Subsonic API sign in with (issue 17),
/// so that the account's password, bcrypt-hashed, is never given to them. A user creates, lists
/// and revokes their own; the secret is shown once, when created.
///
/// Subsonic's classic sign-in sends `t = md5(password + s)`, which can only be checked with the
/// password itself: app passwords are kept sealed (AES-GCM, with a key derived from the server
/// secret by HKDF), not hashed. API keys are checked by their SHA-256, like sessions.
struct AppCredentialService: Sendable {
    let database: Database
    let throttle: LoginThrottle
    let sessions: SessionMemory?
    let now: @Sendable () -> Date
    let logger: Logger
    private let sealingKey: SymmetricKey
    /// Failed sign-ins of players on this instance, by kind of credential and address.
    private let failures: FailureMemory<SignInFailure>

    init(
        database: Database, secret: String, throttle: LoginThrottle, sessions: SessionMemory?,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.database = database
        self.throttle = throttle
        self.sessions = sessions
        self.now = now
        self.logger = logger
        self.failures = FailureMemory(throttle: throttle)
        self.sealingKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)), info: Data("campus app passwords".utf8),
            outputByteCount: 32)
    }

    /// At most this many of each kind per account.
    static let limit = 20
    static let nameLimit = 100
    /// How often `last_used_at` is written for a credential in use.
    static let touchInterval: TimeInterval = 3600

    // MARK: What the user manages

    /// Makes a credential and returns it with its secret, which is not kept readable (an API key)
    /// or shown again (an app password).
    func create(_ kind: AppCredential.Kind, name: String?, for user: Account) async throws -> (
        credential: AppCredential, secret: String
    ) {
        let name = TextRules.trimmed(name ?? "")
        guard !name.isEmpty, name.unicodeScalars.count <= Self.nameLimit, !name.containsControlCharacters else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "name",
                    detail: "Name it (up to {maximum} characters) after the player or device that will use it.",
                    ["maximum": String(Self.nameLimit)]))
        }
        let secret = kind == .apiKey ? Token.make() : Self.makePassword()
        let keyHash = kind == .apiKey ? Token.hash(secret) : nil
        let sealed = kind == .appPassword ? try seal(secret) : nil
        let credential = try await database.write { db in
            let store = AccountStore(db)
            guard try await store.appCredentials(userID: user.id, kind: kind).count < Self.limit else {
                throw Refusal.conflict(
                    "You have {maximum} already; revoke one you no longer use first.",
                    ["maximum": String(Self.limit)])
            }
            return try await store.createAppCredential(
                userID: user.id, kind: kind, name: name, keyHash: keyHash, sealed: sealed, now: now())
        }
        logger.info("app credential created", metadata: ["user": "\(user.id)", "kind": "\(kind.rawValue)"])
        return (credential, secret)
    }

    func list(_ kind: AppCredential.Kind, for user: Account) async throws -> [AppCredential] {
        try await database.read { db in try await AccountStore(db).appCredentials(userID: user.id, kind: kind) }
    }

    /// Revokes one of the user's own: players using it are signed out at once, on every instance.
    func revoke(_ kind: AppCredential.Kind, id: Int64, for user: Account) async throws {
        let deleted = try await database.write { db in
            try await AccountStore(db).deleteAppCredential(id: id, userID: user.id, kind: kind)
        }
        guard deleted else {
            switch kind {
            case .apiKey: throw Refusal.notFound("You have no API key {id}.", ["id": String(id)])
            case .appPassword: throw Refusal.notFound("You have no app password {id}.", ["id": String(id)])
            }
        }
        sessions?.forget(.user(user.id))
    }

    /// 20 letters and digits in groups of four (about 100 bits), easy to type on a phone:
    /// lower case, without 0, 1, l and o.
    static func makePassword() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return stride(from: 0, to: 20, by: 4).map { String(letters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    private func seal(_ secret: String) throws -> String {
        guard let combined = try AES.GCM.seal(Data(secret.utf8), using: sealingKey).combined else {
            throw SealingFailed()
        }
        return combined.base64EncodedString()
    }

    private func open(_ sealed: String) -> String? {
        guard let data = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: sealingKey)
        else { return nil }
        return String(data: plain, encoding: .utf8)
    }

    // MARK: Signing players in

    /// How a player signs in (Subsonic's parameters).
    enum SignIn: Sendable {
        /// OpenSubsonic's `apiKey`.
        case apiKey(String)
        /// `u`, `t` = md5(app password + `s`), `s`.
        case token(user: String, token: String, salt: String)
        /// `u` and `p`: an app password, plain or `enc:` and hexadecimal.
        case password(user: String, password: String)
    }

    enum SignInFailure: Error, Equatable {
        /// No such account, or no app password of it matches.
        case wrongCredentials
        /// The account has no app password to check a token against.
        case noAppPassword
        case unknownAPIKey
        case throttled(retryAfterSeconds: Int)
    }

    /// The account a player signs in as. A credential kept in memory signs in at once; any other
    /// is looked up, unless its kind has failed too often from the address (``FailureMemory``:
    /// in memory, per kind, so failures cost no write and never make the sign-in page or another
    /// kind of credential wait). The sign-in page's throttle (people's passwords, in the database)
    /// is not asked: players never sign in with the account's password.
    func authenticate(_ signIn: SignIn, address: String) async throws -> Account {
        switch signIn {
        case .apiKey(let key):
            guard !key.isEmpty, key.utf8.count <= 200 else { throw SignInFailure.unknownAPIKey }
            let hash = Token.hash(key)
            let memoryKey = "key:\(hash)"
            if let kept = sessions?.findPlayer(memoryKey) { return kept.user }
            let attempt = Attempt(scope: "api-key \(address)", digest: hash)
            try admit(attempt)
            let mark = sessions?.mark()
            let found = try await database.read { db in try await AccountStore(db).apiKeyOwner(keyHash: hash) }
            guard let found else { throw failed(attempt, .unknownAPIKey) }
            succeeded(attempt)
            try await touch(found.credential)
            sessions?.keepPlayer(SessionMemory.PlayerAccount(user: found.user), key: memoryKey, mark: mark)
            return found.user
        case .token(let name, let token, let salt):
            guard token.utf8.count <= 64, salt.utf8.count <= 200 else { throw SignInFailure.wrongCredentials }
            let attempt = Attempt(address: address, "t", name, token.lowercased(), salt)
            return try await check(name, attempt) { secret in
                Insecure.MD5.hash(data: Data((secret + salt).utf8)).hexadecimal == token.lowercased()
            }
        case .password(let name, var password):
            if password.hasPrefix("enc:") {
                guard password.utf8.count <= 404, let bytes = [UInt8](hexadecimal: password.dropFirst(4)),
                    let text = String(bytes: bytes, encoding: .utf8)
                else { throw SignInFailure.wrongCredentials }
                password = text
            }
            guard password.utf8.count <= 200 else { throw SignInFailure.wrongCredentials }
            return try await check(name, Attempt(address: address, "p", name, password)) { secret in
                // The same time whatever the guess: no early exit on the first differing byte.
                let a = Array(secret.utf8)
                let b = Array(password.utf8)
                guard a.count == b.count else { return false }
                return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
            }
        }
    }

    /// One sign-in attempt as the throttle sees it: the kind of credential and the address, and
    /// a digest of what was sent (never the secret itself).
    private struct Attempt {
        var scope: String
        var digest: String

        init(scope: String, digest: String) {
            self.scope = scope
            self.digest = digest
        }

        /// An app password's attempt: its digest covers the user and every part of the proof.
        init(address: String, _ parts: String...) {
            scope = "app-password \(address)"
            digest = Token.hash(parts.joined(separator: "\u{0}"))
        }
    }

    /// Checks a `u` sign-in against the account's app passwords, kept in memory once read.
    private func check(_ name: String, _ attempt: Attempt, matches: (String) -> Bool) async throws -> Account {
        guard !name.isEmpty, name.utf8.count <= 320 else { throw SignInFailure.wrongCredentials }
        let memoryKey = "user:\(AccountRules.emailKey(name))"
        if let kept = sessions?.findPlayer(memoryKey), kept.passwords.contains(where: { matches($0.secret) }) {
            return kept.user
        }
        try admit(attempt)
        let mark = sessions?.mark()
        let found = try await database.read { db in try await AccountStore(db).appPasswords(email: name) }
        guard let found else { throw failed(attempt, .wrongCredentials) }
        let passwords = found.passwords.compactMap { entry in open(entry.sealed).map { (entry.credential, $0) } }
        guard !passwords.isEmpty else { throw failed(attempt, .noAppPassword) }
        guard let match = passwords.first(where: { matches($0.1) }) else { throw failed(attempt, .wrongCredentials) }
        succeeded(attempt)
        try await touch(match.0)
        sessions?.keepPlayer(
            SessionMemory.PlayerAccount(user: found.user, passwords: passwords.map { ($0.0.id, $0.1) }),
            key: memoryKey, mark: mark)
        return found.user
    }

    /// Refuses an attempt before any look-up: the same credential failed from this address a
    /// moment ago (the same answer), or this kind has failed too often from it. An attempt let
    /// through counts as failed until it succeeds.
    private func admit(_ attempt: Attempt) throws {
        switch failures.begin(scope: attempt.scope, digest: attempt.digest, now: now()) {
        case .allowed: return
        case .failedBefore(let reason): throw reason
        case .blocked(let seconds): throw SignInFailure.throttled(retryAfterSeconds: seconds)
        }
    }

    /// The attempt was right: it is no failure.
    private func succeeded(_ attempt: Attempt) {
        failures.succeeded(scope: attempt.scope, digest: attempt.digest)
    }

    /// Remembers a failed attempt (in memory only) and returns the failure to throw.
    private func failed(_ attempt: Attempt, _ reason: SignInFailure) -> SignInFailure {
        failures.failed(reason, scope: attempt.scope, digest: attempt.digest, now: now())
        logger.notice("player sign-in failed", metadata: ["scope": "\(attempt.scope)"])
        return reason
    }

    private func touch(_ credential: AppCredential) async throws {
        let now = now()
        guard now.timeIntervalSince(credential.lastUsedAt ?? .distantPast) > Self.touchInterval else { return }
        try await database.write { db in try await AccountStore(db).touchAppCredential(id: credential.id, now: now) }
    }
}

/// An app password could not be sealed: the server's own failure (a 500 the log names).
struct SealingFailed: Error {}
