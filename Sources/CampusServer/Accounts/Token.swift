import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import SharedHelpers
import Storage

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
