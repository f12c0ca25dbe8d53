import Crypto
import Foundation
import SharedHelpers
import Testing

@testable import CampusServer

/// Web Push's encryption and signature (issue 39), against RFC 8291's own example.
@Suite struct WebPushTests {
    /// RFC 8291, Appendix A: the message, both key pairs, the salt and the secret, and the body
    /// the application server sends.
    @Test func encryptionMakesRFC8291sExampleByteForByte() throws {
        let plaintext = try #require(Data(base64URLEncoded: "V2hlbiBJIGdyb3cgdXAsIEkgd2FudCB0byBiZSBhIHdhdGVybWVsb24"))
        let serverKey = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: try #require(Data(base64URLEncoded: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")))
        let browserPublic = try #require(
            Data(
                base64URLEncoded:
                    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"))
        let body = try WebPushEncryption.encrypt(
            plaintext, p256dh: browserPublic, auth: try #require(Data(base64URLEncoded: "BTBZMqHH6r4Tts7J_aSIgg")),
            salt: try #require(Data(base64URLEncoded: "DGv6ra1nlYgDCS1FRnbzlw")), serverKey: serverKey)
        #expect(
            body.base64URLEncoded.replacingOccurrences(of: "=", with: "")
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
    }

    @Test func aMessageTooLongOrKeysThatAreNoKeysAreRefused() throws {
        let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        let auth = Data(repeating: 7, count: 16)
        #expect(throws: WebPushError.tooLong) {
            try WebPushEncryption.encrypt(Data(count: 4000), p256dh: key, auth: auth)
        }
        #expect(throws: WebPushError.badKeys) {
            try WebPushEncryption.encrypt(Data("hi".utf8), p256dh: Data(count: 65), auth: auth)
        }
        #expect(throws: WebPushError.badKeys) {
            try WebPushEncryption.encrypt(Data("hi".utf8), p256dh: key, auth: Data(count: 8))
        }
    }

    /// The VAPID JWT: ES256 over header and claims, with the endpoint's origin as audience; the
    /// public key checks the signature.
    @Test func theVAPIDTokenIsSignedForTheEndpointsOrigin() throws {
        let key = VAPIDKey(privateKey: .init())
        let kept = try #require(VAPIDKey(kept: key.kept))
        #expect(kept.publicKey == key.publicKey)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try key.authorization(
            endpoint: try #require(URL(string: "https://push.example.net:8443/send/abc")),
            subject: "mailto:it@example.org", now: now)
        let parts = header.split(separator: " ")
        #expect(parts.first == "vapid")
        let token = String(try #require(parts.dropFirst().first)).dropFirst(2).dropLast()
        let pieces = token.split(separator: ".").map(String.init)
        #expect(pieces.count == 3)
        let claims = try JSONSerialization.jsonObject(with: try #require(Data(base64URLEncoded: pieces[1])))
        let object = try #require(claims as? [String: Any])
        #expect(object["aud"] as? String == "https://push.example.net:8443")
        #expect(object["sub"] as? String == "mailto:it@example.org")
        #expect((object["exp"] as? Int).map { $0 > 1_800_000_000 && $0 <= 1_800_000_000 + 24 * 3600 } == true)
        let signature = try P256.Signing.ECDSASignature(
            rawRepresentation: try #require(Data(base64URLEncoded: pieces[2])))
        #expect(key.privateKey.publicKey.isValidSignature(signature, for: Data((pieces[0] + "." + pieces[1]).utf8)))
        #expect(header.hasSuffix("k=" + key.publicKey))
    }

    @Test func onlyHttpsPushServicesOnPublicAddressesUnlessAllowed() {
        let policy = PushEndpointPolicy(allowed: ["http://127.0.0.1:8099"])
        #expect(policy.problem(with: "https://fcm.googleapis.com/fcm/send/abc") == nil)
        #expect(policy.problem(with: "http://127.0.0.1:8099/push/1") == nil)
        #expect(policy.problem(with: "http://127.0.0.1:8100/push/1") != nil)
        #expect(policy.problem(with: "https://127.0.0.1/push") != nil)
        #expect(policy.problem(with: "https://10.0.0.5/push") != nil)
        #expect(policy.problem(with: "https://localhost/push") != nil)
        #expect(policy.problem(with: "http://push.example.net/push") != nil)
        #expect(policy.problem(with: "file:///etc/passwd") != nil)
        #expect(policy.problem(with: "https://push.example.net/" + String(repeating: "a", count: 1000)) != nil)
        #expect(PushEndpointPolicy.origin("http://127.0.0.1:8099/") == "http://127.0.0.1:8099")
        #expect(PushEndpointPolicy.origin("HTTP://LocalHost:1") == "http://localhost:1")
        #expect(PushEndpointPolicy.origin("ftp://x") == nil)
        #expect(PushEndpointPolicy.origin("http://x/path") == nil)
    }
}
