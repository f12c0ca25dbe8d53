import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import SharedHelpers
import Storage

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
