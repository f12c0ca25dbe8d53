import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Storage

/// Hashes and checks passwords with bcrypt, off the event loops.
///
/// bcrypt reads at most 72 bytes, so the password is first condensed with SHA-256 (and
/// base64-encoded, since bcrypt stops at a zero byte): every character of a long passphrase counts.
struct PasswordHasher: Sendable {
    var cost: UInt8

    private static func condensed(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive {
            Bcrypt.hash(Self.condensed(password), cost: cost)
        }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive {
            Bcrypt.verify(Self.condensed(password), hash: hash)
        }
    }

    /// Spends the time of a verification when there is no account to check against, so that a
    /// failed login takes as long for an unknown email as for a wrong password.
    func verifyDecoy(_ password: String) async throws {
        _ = try await hash(password)
    }
}

/// Random tokens for sessions and reset links. Only their hashes are stored.
enum Token {
    /// 256 random bits, base64url without padding (43 characters).
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64URLEncoded
    }

    /// The stored form of a token: SHA-256, hex.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexadecimal
    }
}

/// Tokens that prove a form was served by Campus (signed double-submit cookie): the token is an
/// HMAC of the browser's random CSRF cookie and its session cookie, under the server's secret.
struct CSRFProtection: Sendable {
    let key: SymmetricKey

    init(secret: String) { key = SymmetricKey(data: Data(secret.utf8)) }

    func token(csrfCookie: String, sessionCookie: String?) -> String {
        let message = Data("\(csrfCookie)|\(sessionCookie ?? "")".utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key)).base64URLEncoded
    }

    func isValid(_ token: String?, csrfCookie: String?, sessionCookie: String?) -> Bool {
        guard let token, let csrfCookie, !csrfCookie.isEmpty,
            let given = Data(base64URLEncoded: token)
        else { return false }
        let message = Data("\(csrfCookie)|\(sessionCookie ?? "")".utf8)
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: message, using: key)
    }
}

/// Keys for links that work without logging in (a podcast app reading a feed and its episodes):
/// an HMAC of what the link opens, made with the server secret, so only Campus makes them.
struct LinkSigner: Sendable {
    let key: SymmetricKey

    init(secret: String) { key = SymmetricKey(data: Data("links|\(secret)".utf8)) }

    func key(for subject: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(subject.utf8), using: key).prefix(16)).base64URLEncoded
    }

    func isValid(_ given: String?, for subject: String) -> Bool {
        guard let given, let data = Data(base64URLEncoded: given), data.count == 16 else { return false }
        let expected = Data(HMAC<SHA256>.authenticationCode(for: Data(subject.utf8), using: key).prefix(16))
        // Compare in constant time.
        return zip(data, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension Data {
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init?(base64URLEncoded text: String) {
        guard text.count <= 512 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
