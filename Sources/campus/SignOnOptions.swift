import ArgumentParser
import CampusServer
import Foundation

/// `campus serve`'s options for signing in with the university's OpenID Connect provider
/// (Keycloak, Microsoft Entra ID, Google Workspace…), and for turning password sign-in off.
struct SignOnOptions: ParsableArguments {
    @Option(
        name: .customLong("oidc-issuer"),
        help: ArgumentHelp(
            "The OpenID provider's issuer, such as https://id.example.edu/realms/students; its discovery document is read from ISSUER/.well-known/openid-configuration (env CAMPUS_OIDC_ISSUER).",
            valueName: "url"))
    var issuer: String?

    @Option(
        name: .customLong("oidc-client-id"),
        help: "Campus's client id at the provider (env CAMPUS_OIDC_CLIENT_ID).")
    var clientID: String?

    @Option(
        name: .customLong("oidc-client-secret"),
        help:
            "Campus's client secret at the provider (env CAMPUS_OIDC_CLIENT_SECRET; better: --oidc-client-secret-file)."
    )
    var clientSecret: String?

    @Option(
        name: .customLong("oidc-client-secret-file"),
        help: ArgumentHelp(
            "A file holding the client secret (env CAMPUS_OIDC_CLIENT_SECRET_FILE).", valueName: "path"))
    var clientSecretFile: String?

    @Option(
        name: .customLong("oidc-name"),
        help:
            "The provider's name on the \"Sign in with …\" button (default: University account; env CAMPUS_OIDC_NAME).")
    var name: String?

    @Option(
        name: .customLong("oidc-role-claim"),
        help: ArgumentHelp(
            "An ID token claim (a text or a list) holding admin or organizer: the role follows it at each sign-in (env CAMPUS_OIDC_ROLE_CLAIM).",
            valueName: "claim"))
    var roleClaim: String?

    @Option(
        name: .customLong("oidc-group-claim"),
        help: ArgumentHelp(
            "An ID token claim holding the student's group, set at each sign-in when the timetable has it (env CAMPUS_OIDC_GROUP_CLAIM).",
            valueName: "claim"))
    var groupClaim: String?

    @Option(
        name: .customLong("password-sign-in"),
        help: ArgumentHelp(
            "on, or off to leave only the OpenID provider: no password sign-in, registration or reset (env CAMPUS_PASSWORD_SIGN_IN).",
            valueName: "on|off"))
    var passwordSignIn: String?

    private var issuerValue: String? { issuer ?? Environment.value("CAMPUS_OIDC_ISSUER") }
    private var clientIDValue: String? { clientID ?? Environment.value("CAMPUS_OIDC_CLIENT_ID") }
    private var secretFile: String? { clientSecretFile ?? Environment.value("CAMPUS_OIDC_CLIENT_SECRET_FILE") }
    private var passwordSignInValue: String? { passwordSignIn ?? Environment.value("CAMPUS_PASSWORD_SIGN_IN") }

    func validate() throws {
        if let issuerValue {
            guard let url = URL(string: issuerValue), ["https", "http"].contains(url.scheme ?? ""), url.host != nil,
                url.query == nil
            else { throw ValidationError("--oidc-issuer is the provider's https:// address (its issuer).") }
            if clientIDValue == nil { throw ValidationError("--oidc-issuer needs --oidc-client-id.") }
        }
        if let value = passwordSignInValue, !["on", "off"].contains(value) {
            throw ValidationError("--password-sign-in is on or off.")
        }
        if passwordSignInValue == "off", issuerValue == nil {
            throw ValidationError("--password-sign-in off needs --oidc-issuer: nobody could sign in.")
        }
    }

    /// The settings, with the secret read from its file (trailing line breaks dropped).
    func apply(to configuration: inout ServerConfiguration) throws {
        configuration.passwordSignIn = passwordSignInValue != "off"
        guard let issuer = issuerValue, let clientID = clientIDValue else { return }
        var secret = clientSecret ?? Environment.value("CAMPUS_OIDC_CLIENT_SECRET")
        if let secretFile {
            do {
                secret = try String(contentsOfFile: secretFile, encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw ValidationError("--oidc-client-secret-file \(secretFile) cannot be read.")
            }
        }
        guard let secret, !secret.isEmpty else {
            throw ValidationError("--oidc-issuer needs --oidc-client-secret or --oidc-client-secret-file.")
        }
        configuration.singleSignOn = SingleSignOnSettings(
            issuer: issuer, clientID: clientID, clientSecret: secret,
            name: name ?? Environment.value("CAMPUS_OIDC_NAME") ?? "University account",
            roleClaim: roleClaim ?? Environment.value("CAMPUS_OIDC_ROLE_CLAIM"),
            groupClaim: groupClaim ?? Environment.value("CAMPUS_OIDC_GROUP_CLAIM"))
    }
}
