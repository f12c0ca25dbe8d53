import Crypto
import Foundation
import SharedHelpers

/// The application server's identity for Web Push (RFC 8292, VAPID): a P-256 key pair made once
/// and kept with the server secret. Browsers subscribe with its public key; each push carries a
/// JWT signed with its private key, which the push service checks.
struct VAPIDKey: Sendable {
    let privateKey: P256.Signing.PrivateKey

    init(privateKey: P256.Signing.PrivateKey) { self.privateKey = privateKey }

    /// The key kept as text (base64url of its raw scalar).
    init?(kept text: String) {
        guard let raw = Data(base64URLEncoded: text, maximumLength: 64),
            let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else { return nil }
        privateKey = key
    }

    var kept: String { privateKey.rawRepresentation.base64URLEncoded }

    /// The public key as browsers take it (`applicationServerKey`): the uncompressed point,
    /// base64url.
    var publicKey: String { privateKey.publicKey.x963Representation.base64URLEncoded }

    /// The `Authorization` header for a push to `endpoint`: `vapid t=JWT, k=public key`, the
    /// JWT's audience the endpoint's origin, valid for 12 hours, with `subject` (a mailto: or
    /// https: URL) for the push service to reach the operator.
    func authorization(endpoint: URL, subject: String, now: Date) throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else { throw WebPushError.badEndpoint }
        let audience = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
        let header = Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8).base64URLEncoded
        let claims = try JSONSerialization.data(
            withJSONObject: ["aud": audience, "exp": now.epoch + 12 * 3600, "sub": subject], options: [.sortedKeys]
        ).base64URLEncoded
        let signed = header + "." + claims
        let signature = try privateKey.signature(for: Data(signed.utf8)).rawRepresentation.base64URLEncoded
        return "vapid t=\(signed).\(signature), k=\(publicKey)"
    }
}

enum WebPushError: Error, Equatable {
    case badEndpoint
    case badKeys
    case tooLong
}

/// A push message's body encrypted for one browser (RFC 8291 with RFC 8188's `aes128gcm`): a key
/// agreed between a key pair made for this message and the browser's `p256dh`, mixed with its
/// `auth` secret, seals the message in one record.
enum WebPushEncryption {
    /// The record size the header announces; one record holds the whole message.
    static let recordSize: UInt32 = 4096
    /// The longest message: a push service takes 4096 bytes of body at most, the header (86
    /// bytes), the delimiter and the tag included.
    static let maximumPlaintext = 3993

    static func encrypt(
        _ plaintext: Data, p256dh: Data, auth: Data, salt: Data? = nil,
        serverKey: P256.KeyAgreement.PrivateKey = .init()
    ) throws -> Data {
        guard plaintext.count <= maximumPlaintext else { throw WebPushError.tooLong }
        guard auth.count == 16, let browserKey = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh) else {
            throw WebPushError.badKeys
        }
        let serverPublic = serverKey.publicKey.x963Representation
        let shared = try serverKey.sharedSecretFromKeyAgreement(with: browserKey)
        // IKM = HKDF(auth, ECDH, "WebPush: info" 0x00 ua_public as_public, 32)
        var keyInfo = Data("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo.append(p256dh)
        keyInfo.append(serverPublic)
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        let salt = salt ?? Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let contentKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm\0".utf8), outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce\0".utf8), outputByteCount: 12)
        var padded = plaintext
        padded.append(2)  // The last (and only) record's delimiter.
        let sealed = try AES.GCM.seal(
            padded, using: contentKey, nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
        var body = salt
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(serverPublic.count))
        body.append(serverPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }
}
