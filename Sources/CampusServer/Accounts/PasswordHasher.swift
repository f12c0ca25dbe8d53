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

    /// The stored hash of an account that has no password (one made at the OpenID provider): no
    /// password matches it, and checking one takes as long as against a real hash.
    static let noPassword = "!"

    func verify(_ password: String, hash: String) async throws -> Bool {
        if hash == Self.noPassword {
            try await verifyDecoy(password)
            return false
        }
        return try await NIOThreadPool.singleton.runIfActive {
            Bcrypt.verify(Self.condensed(password), hash: hash)
        }
    }

    /// Spends the time of a verification when there is no account to check against, so that a
    /// failed login takes as long for an unknown email as for a wrong password.
    func verifyDecoy(_ password: String) async throws {
        _ = try await hash(password)
    }
}
