import Accounts
import Foundation
import InputRules

/// The links in a notification's mail that turn its topic's mail off without signing in: signed
/// for the reader and the topic (``LinkSigner``), so that only the mail's reader has them. The
/// page (`/notifications/unsubscribe`, a button to confirm) is the mail's own link; the API
/// (`POST /api/v1/notifications/unsubscribe`) is the `List-Unsubscribe` header's, which mail
/// clients post to in one click (RFC 8058).
struct UnsubscribeLinks: Sendable {
    let links: LinkSigner
    let baseURL: String

    struct Link: Sendable, Equatable {
        var userID: Int64
        var topic: NotificationTopic
        var key: String

        var query: [(String, String)] { [("u", String(userID)), ("topic", topic.rawValue), ("key", key)] }
    }

    func link(userID: Int64, topic: NotificationTopic) -> Link {
        Link(userID: userID, topic: topic, key: links.key(for: Self.subject(userID: userID, topic: topic)))
    }

    /// The page's address, for the mail's text.
    func page(userID: Int64, topic: NotificationTopic) -> String {
        baseURL + SiteRoutes.unsubscribe.path(query: link(userID: userID, topic: topic).query)
    }

    /// The one-click address, for the `List-Unsubscribe` header.
    func oneClick(userID: Int64, topic: NotificationTopic) -> String {
        baseURL + APIRoutes.unsubscribe.path(query: link(userID: userID, topic: topic).query)
    }

    /// The link these parameters make, if its key fits; 404 otherwise.
    func checked(user: String?, topic: String?, key: String?) throws -> Link {
        guard let userID = user.flatMap({ Int64($0) }), let topic = topic.flatMap(NotificationTopic.init(rawValue:)),
            let key, links.isValid(key, for: Self.subject(userID: userID, topic: topic))
        else {
            throw Refusal.notFound("This link is not (or no longer) valid.")
        }
        return Link(userID: userID, topic: topic, key: key)
    }

    private static func subject(userID: Int64, topic: NotificationTopic) -> String {
        "unsubscribe \(userID) \(topic.rawValue)"
    }
}
