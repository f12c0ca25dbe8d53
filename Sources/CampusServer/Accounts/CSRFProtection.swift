import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import SharedHelpers
import Storage

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
