import Accounts
import CampusHTTP
import Crypto
import Foundation
import InputRules
import Logging
import NIOConcurrencyHelpers
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
    /// When this instance last saw a failed sign-in, by account key and by address.
    private let failures = NIOLockedValueBox<[String: Date]>([:])

    init(
        database: Database, secret: String, throttle: LoginThrottle, sessions: SessionMemory?,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.database = database
        self.throttle = throttle
        self.sessions = sessions
        self.now = now
        self.logger = logger
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
    func create(_ kind: AppCredential.Kind, name: String?, for user: UserRecord) async throws -> (
        credential: AppCredential, secret: String
    ) {
        let name = (name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.unicodeScalars.count <= Self.nameLimit, !name.containsControlCharacters else {
            throw Problem.invalid(
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
                throw Problem.conflict(
                    "You have {maximum} already; revoke one you no longer use first.",
                    ["maximum": String(Self.limit)])
            }
            return try await store.createAppCredential(
                userID: user.id, kind: kind, name: name, keyHash: keyHash, sealed: sealed, now: now())
        }
        logger.info("app credential created", metadata: ["user": "\(user.id)", "kind": "\(kind.rawValue)"])
        return (credential, secret)
    }

    func list(_ kind: AppCredential.Kind, for user: UserRecord) async throws -> [AppCredential] {
        try await database.read { db in try await AccountStore(db).appCredentials(userID: user.id, kind: kind) }
    }

    /// Revokes one of the user's own: players using it are signed out at once, on every instance.
    func revoke(_ kind: AppCredential.Kind, id: Int64, for user: UserRecord) async throws {
        let deleted = try await database.write { db in
            try await AccountStore(db).deleteAppCredential(id: id, userID: user.id, kind: kind)
        }
        guard deleted else {
            switch kind {
            case .apiKey: throw Problem.notFound("You have no API key {id}.", ["id": String(id)])
            case .appPassword: throw Problem.notFound("You have no app password {id}.", ["id": String(id)])
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
            throw Problem(.internalServerError, detail: "The app password could not be sealed.")
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

    /// The account a player signs in as. Failed attempts count toward the login throttle of the
    /// account and the address, like the sign-in page's.
    func authenticate(_ signIn: SignIn, address: String) async throws -> UserRecord {
        switch signIn {
        case .apiKey(let key):
            guard !key.isEmpty, key.utf8.count <= 200 else { throw SignInFailure.unknownAPIKey }
            let hash = Token.hash(key)
            let memoryKey = "key:\(hash)"
            if let kept = sessions?.findPlayer(memoryKey) { return kept.user }
            let mark = sessions?.mark()
            let found = try await database.read { db in try await AccountStore(db).apiKeyOwner(keyHash: hash) }
            guard let found else {
                try await recordFailure(accountKey: "api-key", address: address)
                throw SignInFailure.unknownAPIKey
            }
            try await touch(found.credential)
            sessions?.keepPlayer(SessionMemory.PlayerAccount(user: found.user), key: memoryKey, mark: mark)
            return found.user
        case .token(let name, let token, let salt):
            guard token.utf8.count <= 64, salt.utf8.count <= 200 else { throw SignInFailure.wrongCredentials }
            return try await check(name, address: address) { secret in
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
            return try await check(name, address: address) { secret in
                // The same time whatever the guess: no early exit on the first differing byte.
                let a = Array(secret.utf8)
                let b = Array(password.utf8)
                guard a.count == b.count else { return false }
                return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
            }
        }
    }

    /// Checks a `u` sign-in against the account's app passwords, kept in memory once read.
    private func check(_ name: String, address: String, matches: (String) -> Bool) async throws -> UserRecord {
        guard !name.isEmpty, name.utf8.count <= 320 else { throw SignInFailure.wrongCredentials }
        let accountKey = AccountRules.emailKey(name)
        let memoryKey = "user:\(accountKey)"
        if let kept = sessions?.findPlayer(memoryKey), !recentlyFailed(accountKey, address) {
            if kept.passwords.contains(where: { matches($0.secret) }) { return kept.user }
        }
        try await checkThrottle(accountKey: accountKey, address: address)
        let mark = sessions?.mark()
        let found = try await database.read { db in try await AccountStore(db).appPasswords(email: name) }
        guard let found else {
            try await recordFailure(accountKey: accountKey, address: address)
            throw SignInFailure.wrongCredentials
        }
        let passwords = found.passwords.compactMap { entry in open(entry.sealed).map { (entry.credential, $0) } }
        guard !passwords.isEmpty else {
            try await recordFailure(accountKey: accountKey, address: address)
            throw SignInFailure.noAppPassword
        }
        guard let match = passwords.first(where: { matches($0.1) }) else {
            try await recordFailure(accountKey: accountKey, address: address)
            throw SignInFailure.wrongCredentials
        }
        try await touch(match.0)
        sessions?.keepPlayer(
            SessionMemory.PlayerAccount(user: found.user, passwords: passwords.map { ($0.0.id, $0.1) }),
            key: memoryKey, mark: mark)
        return found.user
    }

    private func checkThrottle(accountKey: String, address: String) async throws {
        if let seconds = try await AccountService.blockedSeconds(
            database: database, throttle: throttle, accountKey: accountKey, address: address, now: now())
        {
            throw SignInFailure.throttled(retryAfterSeconds: seconds)
        }
    }

    private func recordFailure(accountKey: String, address: String) async throws {
        let now = now()
        let start = throttle.windowStart(now: now)
        failures.withLockedValue { failures in
            if failures.count >= 10_000 { failures = failures.filter { $0.value > start } }
            failures[accountKey] = now
            failures[address] = now
        }
        try await database.write { db in
            try await AccountStore(db).recordLoginFailure(accountKey: accountKey, address: address, at: now)
        }
        logger.notice("player sign-in failed", metadata: ["address": "\(address)"])
    }

    /// Whether this instance saw a failed sign-in of the account or from the address within the
    /// throttle's window: then a sign-in kept in memory is checked against the throttle again.
    private func recentlyFailed(_ accountKey: String, _ address: String) -> Bool {
        let start = throttle.windowStart(now: now())
        return failures.withLockedValue { failures in
            [accountKey, address].contains { (failures[$0] ?? .distantPast) > start }
        }
    }

    private func touch(_ credential: AppCredential) async throws {
        let now = now()
        guard now.timeIntervalSince(credential.lastUsedAt ?? .distantPast) > Self.touchInterval else { return }
        try await database.write { db in try await AccountStore(db).touchAppCredential(id: credential.id, now: now) }
    }
}
