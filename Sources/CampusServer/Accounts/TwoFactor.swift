import Foundation
import HummingbirdOTP
import InputRules

/// Two-factor sign-in's codes (RFC 6238 TOTP, as authenticator apps make them: SHA-1, six
/// digits, 30-second steps, computed by HummingbirdOTP) and recovery codes.
enum TwoFactor {
    static let timeStep: TimeInterval = 30
    /// Steps either side of now whose code is taken: a phone's clock a little off, or a code
    /// typed as it changed.
    static let drift: Int64 = 1
    static let recoveryCodeCount = 10
    static let issuer = "Campus"

    /// A new secret: 32 random letters and digits (about 190 bits), the HMAC key itself.
    static func makeSecret() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The `otpauth://` address an authenticator app reads (from the QR code), and the secret in
    /// base32, as it is typed into an app by hand.
    static func authenticatorURL(secret: String, account: String) -> (url: String, base32: String) {
        let url = TOTP(secret: secret).createAuthenticatorURL(label: "\(issuer):\(account)", issuer: issuer)
        let base32 = URLComponents(string: url)?.queryItems?.first { $0.name == "secret" }?.value ?? ""
        return (url, base32)
    }

    /// The time step of `date`.
    static func step(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / timeStep).rounded(.down)) }

    /// The step within the drift whose code `code` is, if any (the newest first).
    static func matchingStep(_ code: String, secret: String, now: Date) -> Int64? {
        guard let number = Int(code), code.count == 6 else { return nil }
        let totp = TOTP(secret: secret)
        let current = step(now)
        for candidate in ((current - drift)...(current + drift)).reversed()
        where totp.compute(date: Date(timeIntervalSince1970: TimeInterval(candidate) * timeStep)) == number {
            return candidate
        }
        return nil
    }

    /// A code as typed, without spaces and dashes, lower-cased.
    static func normalized(_ code: String) -> String {
        String(code.lowercased().filter { !$0.isWhitespace && $0 != "-" }.prefix(64))
    }

    /// Ten recovery codes, `xxxx-xxxx-xxxx` of letters and digits a person reads without
    /// mistaking one for another (no 0/o, 1/l/i).
    static func makeRecoveryCodes() -> [String] {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return (0..<recoveryCodeCount).map { _ in
            (0..<3).map { _ in
                String((0..<4).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            }.joined(separator: "-")
        }
    }

    /// The refusal's kind when a sign-in needs the second factor, or it was wrong: clients ask
    /// for the code.
    static let required = Refusal.Kind("two-factor-required", title: "A code from the authenticator app is needed")
}
