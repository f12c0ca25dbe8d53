import Accounts
import Foundation
import JWTKit
import SharedHelpers

/// The ID token claims jwt-kit checks: issuer, subject, audience (against the client id), and
/// expiry (a minute's leeway for clocks a little apart); the nonce is compared by
/// ``OpenIDProvider/verify(_:nonce:)``.
struct OpenIDClaims: JWTIdentityToken {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var nonce: String?

    var audience: AudienceClaim { aud }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired(currentDate: Date().addingTimeInterval(-60))
    }
}

/// A person as the provider's checked ID token names them: who they are there (issuer and
/// subject), their email and whether the provider verified it, their name, and, when Campus is
/// told which claims say so (`--oidc-role-claim`, `--oidc-group-claim`), their role and group.
struct OpenIDIdentity: Sendable, Equatable {
    var issuer: String
    var subject: String
    var email: String?
    var emailVerified: Bool
    var firstName: String
    var lastName: String
    /// nil when no role claim is configured (roles are then given in Campus).
    var role: Role?
    var group: String?
    /// The ID token itself, kept with the session as the hint for logging out at the provider.
    var token: String

    /// Reads the claims of a token whose signature and standard claims were checked (by
    /// ``OpenIDProvider/verify(_:nonce:)``, before it was kept with a link offer).
    init(checkedToken token: String, settings: SingleSignOnSettings) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[1]), maximumLength: 16 * 1024),
            let payload = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let issuer = payload["iss"] as? String, let subject = payload["sub"] as? String
        else { throw OpenIDProvider.refused("the ID token is not a JWT") }
        self.issuer = issuer
        self.subject = subject
        self.token = token
        email = (payload["email"] as? String).map { $0.trimmingCharacters(in: .whitespaces) }
        // A boolean, or (some providers) the text "true".
        emailVerified = (payload["email_verified"] as? Bool) ?? ((payload["email_verified"] as? String) == "true")
        let given = Self.text(payload["given_name"])
        let family = Self.text(payload["family_name"])
        let full = Self.text(payload["name"]).split(separator: " ", maxSplits: 1).map(String.init)
        let fallback = email.map { String($0.prefix { $0 != "@" }) } ?? subject
        firstName = Self.cut(given.isEmpty ? (full.first ?? fallback) : given)
        lastName = Self.cut(family.isEmpty ? (full.count > 1 ? full[1] : "") : family)
        if let claim = settings.roleClaim {
            let values = Self.texts(payload[claim]).map { $0.lowercased() }
            role = values.contains("admin") ? .admin : values.contains("organizer") ? .organizer : .user
        }
        if let claim = settings.groupClaim {
            group = Self.texts(payload[claim]).first { !$0.isEmpty }.map {
                String($0.prefix(AccountRules.groupMaxLength))
            }
        }
    }

    /// A claim's text without control characters, trimmed; empty when it is no text.
    private static func text(_ value: Any?) -> String {
        let scalars = ((value as? String) ?? "").unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }
        return String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A claim's values: one text, or a list of texts.
    private static func texts(_ value: Any?) -> [String] {
        if let one = value as? String { return [one.trimmingCharacters(in: .whitespaces)] }
        return ((value as? [Any]) ?? []).compactMap { ($0 as? String)?.trimmingCharacters(in: .whitespaces) }
    }

    /// A name as Campus keeps one: not empty, at most ``AccountRules/nameMaxLength`` characters.
    private static func cut(_ name: String) -> String {
        let kept = String(String.UnicodeScalarView(name.unicodeScalars.prefix(AccountRules.nameMaxLength)))
            .trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? "-" : kept
    }
}
