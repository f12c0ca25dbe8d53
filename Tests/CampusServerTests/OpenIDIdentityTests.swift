import Accounts
import Foundation
import InputRules
import Testing

@testable import CampusServer

/// What Campus reads from a checked ID token's claims, as providers really send them: Keycloak's
/// role lists, Entra ID's `name` alone, Google's boolean `email_verified`, and some providers'
/// text "true". (The signature and standard claims are checked against a real provider in
/// Tests/e2e/test_sign_on.py.)
struct OpenIDIdentityTests {
    let settings = SingleSignOnSettings(
        issuer: "https://id.example.edu", clientID: "campus", clientSecret: "s", name: "University account",
        roleClaim: "roles", groupClaim: "group")

    /// An unsigned token of these claims: the identity reads only the payload.
    func token(_ claims: [String: Any]) throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: claims)
        let encoded = payload.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "eyJhbGciOiJSUzI1NiJ9.\(encoded).c2lnbmF0dXJl"
    }

    @Test func aRoleListGivesTheHighestRoleItNamesAndNoneGivesUser() throws {
        let base: [String: Any] = ["iss": "https://id.example.edu", "sub": "u1", "email": "ann@uni.example"]
        var claims = base
        claims["roles"] = ["student", "Organizer"]
        #expect(try OpenIDIdentity(checkedToken: token(claims), settings: settings).role == .organizer)
        claims["roles"] = ["organizer", "admin"]
        #expect(try OpenIDIdentity(checkedToken: token(claims), settings: settings).role == .admin)
        claims["roles"] = "admin"
        #expect(try OpenIDIdentity(checkedToken: token(claims), settings: settings).role == .admin)
        #expect(try OpenIDIdentity(checkedToken: token(base), settings: settings).role == .user)
        var unconfigured = settings
        unconfigured.roleClaim = nil
        #expect(try OpenIDIdentity(checkedToken: token(claims), settings: unconfigured).role == nil)
    }

    @Test func namesEmailAndGroupAsProvidersSendThem() throws {
        let entra = try OpenIDIdentity(
            checkedToken: token([
                "iss": "https://id.example.edu", "sub": "u2", "email": " Bob@Uni.example ", "name": "Bob van Grey",
                "email_verified": "true", "group": ["151004", "151005"],
            ]), settings: settings)
        #expect(entra.firstName == "Bob" && entra.lastName == "van Grey")
        #expect(entra.email == "Bob@Uni.example" && entra.emailVerified)
        #expect(entra.group == "151004")

        let bare = try OpenIDIdentity(
            checkedToken: token([
                "iss": "https://id.example.edu", "sub": "u3", "email": "cat@uni.example", "email_verified": false,
                "given_name": "\u{7}", "group": String(repeating: "9", count: 500),
            ]), settings: settings)
        #expect(bare.firstName == "cat" && bare.lastName == "-" && !bare.emailVerified)
        #expect(bare.group?.count == AccountRules.groupMaxLength)
    }

    @Test func aTokenThatIsNoJWTIsRefused() {
        for wrong in ["", "a.b", "a.!!!.c", "a.\(Data("[1]".utf8).base64EncodedString()).c"] {
            #expect(throws: Refusal.self) { try OpenIDIdentity(checkedToken: wrong, settings: settings) }
        }
    }
}
