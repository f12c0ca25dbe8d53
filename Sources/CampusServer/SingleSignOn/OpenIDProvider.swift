import CampusHTTP
import Crypto
import Foundation
import InputRules
import JWTKit
import Localization
import Logging
import SharedHelpers

/// The university's OpenID Connect provider as Campus talks to it (OpenID Connect Core 1.0, the
/// authorization code flow with PKCE): its discovery document, read when first needed and again
/// after an hour, so that Campus starts while the provider is down; the authorization address a
/// browser is sent to; the code exchanged for an ID token (the client's secret sent as HTTP Basic,
/// `client_secret_basic`); and the ID token checked against the provider's keys (JWKS, by
/// vapor/jwt-kit): signature, issuer, audience, expiry and nonce.
///
/// The provider's keys rotate: a token signed with a key ID Campus does not know makes it read the
/// key set again (at most once in five seconds, so that a provider handing out tokens of a key it does not publish cannot make it
/// provider), and a key ID still unknown then is refused, never tried against another key.
actor OpenIDProvider {
    /// The discovery document's fields Campus uses (OpenID Connect Discovery 1.0).
    struct Metadata: Decodable, Sendable {
        var issuer: String
        var authorizationEndpoint: String
        var tokenEndpoint: String
        var jwksURI: String
        var endSessionEndpoint: String?

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
            case endSessionEndpoint = "end_session_endpoint"
        }
    }

    let settings: SingleSignOnSettings
    let now: @Sendable () -> Date
    let logger: Logger
    private let fetch: OutboundFetch
    private var metadata: (value: Metadata, fetchedAt: Date)?
    private var keys: (collection: JWTKeyCollection, ids: Set<String>, fetchedAt: Date)?

    static let metadataKept: TimeInterval = 3600
    static let keysReadAgainAfter: TimeInterval = 5
    /// The signature algorithms taken: asymmetric ones only (a token "signed" with `none` or with
    /// the client secret as an HMAC key is refused).
    static let algorithms: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384"]

    init(settings: SingleSignOnSettings, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.settings = settings
        self.now = now
        self.logger = logger
        // The provider is a server the admin named: any address, a short deadline, small bodies.
        fetch = OutboundFetch(addresses: .any, deadline: .seconds(10), maximumBytes: 512 * 1024)
    }

    /// Why signing in at the provider did not work: it cannot be reached or answered nonsense
    /// (503), or what it sent back does not hold (401).
    static func unreachable() -> Refusal {
        Refusal(
            .unavailable(retryAfterSeconds: 60),
            detail: "The sign-in service cannot be reached just now. Try again in a minute.",
            kind: Refusal.Kind("sign-on-unavailable", title: "The sign-in service cannot be reached"))
    }

    static func refused(_ why: String) -> Refusal {
        Refusal(
            .notSignedIn, phrase: Phrase("The sign-in could not be checked: {why}. Try again.", ["why": why]),
            kind: Refusal.Kind("sign-on-refused", title: "The sign-in could not be checked"))
    }

    // MARK: Discovery

    func discovery() async throws -> Metadata {
        let now = now()
        if let metadata, now.timeIntervalSince(metadata.fetchedAt) < Self.metadataKept { return metadata.value }
        let issuer = settings.issuer.hasSuffix("/") ? String(settings.issuer.dropLast()) : settings.issuer
        let found: Metadata
        do {
            let answer = try await fetch.get(issuer + "/.well-known/openid-configuration")
            guard answer.status == 200 else { throw Self.unreachable() }
            found = try JSONDecoder().decode(Metadata.self, from: answer.body)
        } catch {
            logger.warning("OpenID discovery failed", metadata: ["issuer": "\(settings.issuer)", "error": "\(error)"])
            throw Self.unreachable()
        }
        // The document must be the issuer's own (Discovery 1.0 §4.3).
        guard found.issuer == settings.issuer else {
            logger.error(
                "OpenID discovery names another issuer",
                metadata: ["configured": "\(settings.issuer)", "found": "\(found.issuer)"])
            throw Self.unreachable()
        }
        metadata = (found, now)
        return found
    }

    // MARK: The flow

    /// The provider's address a browser is sent to, to sign in and come back to `redirectURI`.
    func authorizationURL(redirectURI: String, state: String, nonce: String, verifier: String) async throws -> String {
        let metadata = try await discovery()
        let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded
        return QueryEncoding.adding(
            [
                ("response_type", "code"), ("client_id", settings.clientID), ("redirect_uri", redirectURI),
                ("scope", "openid email profile"), ("state", state), ("nonce", nonce), ("code_challenge", challenge),
                ("code_challenge_method", "S256"),
            ], to: metadata.authorizationEndpoint)
    }

    /// Exchanges the code the browser brought back for the provider's ID token.
    func exchange(code: String, verifier: String, redirectURI: String) async throws -> String {
        let metadata = try await discovery()
        let body = QueryEncoding.encode([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", verifier),
        ])
        // RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic's base64.
        let basic = Data(
            (QueryEncoding.escape(settings.clientID) + ":" + QueryEncoding.escape(settings.clientSecret)).utf8
        ).base64EncodedString()
        let answer: OutboundFetch.Fetched
        do {
            answer = try await fetch.post(
                metadata.tokenEndpoint, body: Data(body.utf8),
                headers: [
                    ("Authorization", "Basic " + basic), ("Content-Type", "application/x-www-form-urlencoded"),
                    ("Accept", "application/json"),
                ])
        } catch {
            logger.warning("OpenID token request failed", metadata: ["error": "\(error)"])
            throw Self.unreachable()
        }
        struct TokenAnswer: Decodable {
            var idToken: String?
            enum CodingKeys: String, CodingKey { case idToken = "id_token" }
        }
        guard answer.status == 200 else {
            // A refusal's own words (an OAuth error code) help the admin; they hold no secret.
            logger.warning(
                "OpenID token request refused",
                metadata: [
                    "status": "\(answer.status)",
                    "answer": "\(String(decoding: answer.body.prefix(300), as: UTF8.self))",
                ])
            throw Self.refused("the provider did not take the code")
        }
        // A successful answer holds tokens: never logged.
        guard let idToken = try? JSONDecoder().decode(TokenAnswer.self, from: answer.body).idToken else {
            logger.warning("OpenID token answer holds no ID token (is the scope openid asked for?)")
            throw Self.refused("the provider sent no ID token")
        }
        return idToken
    }

    /// The person an ID token names, once it holds: signed by one of the provider's keys, for
    /// this client, from this issuer, unexpired, with the sign-in's nonce.
    func verify(_ idToken: String, nonce: String) async throws -> OpenIDIdentity {
        guard idToken.utf8.count <= 16 * 1024 else { throw Self.refused("the ID token is too long") }
        let header = try Self.header(of: idToken)
        guard let algorithm = header.alg, Self.algorithms.contains(algorithm) else {
            throw Self.refused("the ID token is not signed with a key of the provider")
        }
        let keys = try await keys(holding: header.kid)
        let claims: OpenIDClaims
        do {
            claims = try await keys.verify(idToken, as: OpenIDClaims.self, expectedAudience: settings.clientID)
            guard claims.sub.value.utf8.count <= 255 else { throw Self.refused("the subject is too long") }
        } catch {
            logger.notice("OpenID ID token refused", metadata: ["error": "\(error)"])
            throw Self.refused("the ID token does not hold")
        }
        guard claims.iss.value == settings.issuer else { throw Self.refused("the ID token is from another issuer") }
        guard claims.nonce == nonce else { throw Self.refused("the ID token is for another sign-in") }
        return try OpenIDIdentity(checkedToken: idToken, settings: settings)
    }

    /// Where a browser goes to end its session at the provider too, then comes back to `after`;
    /// nil when the provider offers no `end_session_endpoint`.
    func logoutURL(idToken: String, after: String) async -> String? {
        guard let metadata = try? await discovery(), let endpoint = metadata.endSessionEndpoint else { return nil }
        return QueryEncoding.adding(
            [("id_token_hint", idToken), ("client_id", settings.clientID), ("post_logout_redirect_uri", after)],
            to: endpoint)
    }

    // MARK: Keys

    struct Header: Decodable {
        var alg: String?
        var kid: String?
    }

    static func header(of token: String) throws -> Header {
        guard let part = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let data = Data(base64URLEncoded: String(part), maximumLength: 2048),
            let header = try? JSONDecoder().decode(Header.self, from: data)
        else { throw refused("the ID token is not a JWT") }
        return header
    }

    /// The provider's keys, read again when they do not hold `keyID` (a rotation), at most once
    /// in five seconds; a token whose key ID is still unknown is refused.
    private func keys(holding keyID: String?) async throws -> JWTKeyCollection {
        let now = now()
        if let keys, keyID.map(keys.ids.contains) ?? (keys.ids.count == 1) { return keys.collection }
        if let keys, now.timeIntervalSince(keys.fetchedAt) < Self.keysReadAgainAfter {
            throw Self.refused("the ID token is signed with a key the provider does not publish")
        }
        let metadata = try await discovery()
        let collection = JWTKeyCollection()
        let set: JWKS
        do {
            let answer = try await fetch.get(metadata.jwksURI)
            guard answer.status == 200 else { throw Self.unreachable() }
            set = try JSONDecoder().decode(JWKS.self, from: answer.body)
        } catch {
            logger.warning("OpenID key set could not be read", metadata: ["error": "\(error)"])
            throw Self.unreachable()
        }
        var ids = Set<String>()
        for key in set.keys {
            guard let id = key.keyIdentifier?.string, (try? await collection.add(jwk: key)) != nil else { continue }
            ids.insert(id)
        }
        keys = (collection, ids, now)
        guard keyID.map(ids.contains) ?? (ids.count == 1) else {
            throw Self.refused("the ID token is signed with a key the provider does not publish")
        }
        return collection
    }
}
