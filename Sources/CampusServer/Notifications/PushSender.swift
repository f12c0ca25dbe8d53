import CampusHTTP
import Foundation
import SharedHelpers
import Storage

/// Sends one Web Push message (RFC 8030) to one browser's push service: the body encrypted for
/// that browser (``WebPushEncryption``), signed for the push service (``VAPIDKey``), with how long
/// the service may keep it (`TTL`), how urgent it is (`Urgency`) and a `Topic` under which a
/// newer message replaces one not yet delivered.
struct PushSender: Sendable {
    let key: VAPIDKey
    /// Who runs this server, for the push service (a `mailto:` or `https:` URL).
    let subject: String
    let policy: PushEndpointPolicy
    var deadline: Duration = .seconds(10)

    enum Outcome: Sendable, Equatable {
        case sent
        /// The subscription is gone (404, 410): forget it.
        case gone
        /// Try again later (the service is busy or down).
        case retry(String)
        /// Never try again (the service refused the message itself).
        case failed(String)
    }

    struct Message: Sendable {
        var payload: Data
        /// Seconds the push service keeps the message for a browser that is offline.
        var ttl: Int
        var urgent: Bool
        var topic: String?
    }

    func send(_ message: Message, to subscription: StoredPushSubscription, now: Date) async -> Outcome {
        guard let url = URL(string: subscription.endpoint),
            let p256dh = Data(base64URLEncoded: subscription.p256dh, maximumLength: 100),
            let auth = Data(base64URLEncoded: subscription.auth, maximumLength: 40)
        else { return .gone }
        // A subscription whose endpoint the rules no longer admit (an allowance withdrawn) is not used.
        if policy.problem(with: subscription.endpoint) != nil { return .gone }
        let body: Data
        let authorization: String
        do {
            body = try WebPushEncryption.encrypt(message.payload, p256dh: p256dh, auth: auth)
            authorization = try key.authorization(endpoint: url, subject: subject, now: now)
        } catch {
            return .gone
        }
        var headers = [
            ("Authorization", authorization), ("Content-Encoding", "aes128gcm"),
            ("Content-Type", "application/octet-stream"), ("TTL", String(message.ttl)),
            ("Urgency", message.urgent ? "high" : "normal"),
        ]
        if let topic = message.topic { headers.append(("Topic", topic)) }
        let fetch = OutboundFetch(
            addresses: policy.admits(subscription.endpoint) ? .any : .publicOnly, deadline: deadline,
            maximumBytes: 16 * 1024)
        do {
            let answer = try await fetch.post(subscription.endpoint, body: body, headers: headers)
            switch answer.status {
            case 200..<300: return .sent
            case 404, 410: return .gone
            case 429, 500..<600: return .retry("push service answered \(answer.status)")
            default: return .failed("push service answered \(answer.status)")
            }
        } catch {
            return .retry(ErrorLog.text(error))
        }
    }
}
