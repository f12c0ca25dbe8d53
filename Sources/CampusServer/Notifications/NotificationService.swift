import Accounts
import CampusHTTP
import Foundation
import InputRules
import SharedHelpers
import Storage

/// The notification centre (issue 39) as each user sees it: their inbox, their settings per topic
/// and channel with quiet hours, and their browsers' push subscriptions. Every method takes the
/// user it is about and reads or changes nothing of anybody else's.
struct NotificationService: Sendable {
    let database: Database
    let pushPolicy: PushEndpointPolicy
    let vapidKey: VAPIDKey
    let now: @Sendable () -> Date

    /// The most messages one page of the inbox holds, and the default.
    static let pageLimit = 100
    static let defaultPage = 30
    /// The most browsers one user may subscribe.
    static let subscriptionLimit = 20
    /// How long messages stay in the inbox.
    static let keptDays = 90

    // MARK: Inbox

    func inbox(of user: Account, before: Int64?, limit: Int) async throws -> (items: [StoredNotification], unread: Int)
    {
        try await database.read { db in
            let store = NotificationStore(db)
            return (
                try await store.inbox(userID: user.id, before: before, limit: limit),
                try await store.unread(userID: user.id)
            )
        }
    }

    func unread(of user: Account) async throws -> Int {
        try await database.read { db in try await NotificationStore(db).unread(userID: user.id) }
    }

    /// Marks messages read (all of them when `ids` is nil); returns how many are still unread.
    @discardableResult
    func markRead(_ ids: [Int64]?, of user: Account) async throws -> Int {
        let now = now()
        return try await database.write { db in
            let store = NotificationStore(db)
            try await store.markRead(userID: user.id, ids: ids, now: now)
            return try await store.unread(userID: user.id)
        }
    }

    /// One message of the user's, marked read: what opening it from the inbox does. 404 for a
    /// message that is not theirs.
    func open(_ id: Int64, of user: Account) async throws -> StoredNotification {
        let now = now()
        return try await database.write { db in
            let store = NotificationStore(db)
            guard let found = try await store.notification(id, userID: user.id) else {
                throw Refusal.notFound("There is no such notification.")
            }
            try await store.markRead(userID: user.id, ids: [id], now: now)
            return found
        }
    }

    // MARK: Settings

    struct Settings: Sendable, Equatable {
        var choices: [NotificationTopic: NotificationChoice]
        var preferences: NotificationPreferences
    }

    func settings(of user: Account) async throws -> Settings {
        try await database.read { db in
            let store = NotificationStore(db)
            return Settings(
                choices: try await store.choices(userID: user.id),
                preferences: try await store.preferences(userID: user.id))
        }
    }

    /// Changes the user's settings: the topics given (the others stay), and the preferences.
    func change(
        _ choices: [NotificationTopic: NotificationChoice], preferences: NotificationPreferences, of user: Account
    ) async throws -> Settings {
        var problems: [FieldProblem] = []
        if !NotificationPreferences.lessonMinutesRange.contains(preferences.lessonMinutes) {
            problems.append(
                FieldProblem(
                    field: "lessonMinutes", detail: "must be a whole number from {min} to {max}.",
                    ["min": "1", "max": "120"]))
        }
        if !NotificationPreferences.examDaysRange.contains(preferences.examDays) {
            problems.append(
                FieldProblem(
                    field: "examDays", detail: "must be a whole number from {min} to {max}.", ["min": "1", "max": "30"])
            )
        }
        if let zone = preferences.timeZone, zone.count > 64 || TimeZone(identifier: zone) == nil {
            problems.append(FieldProblem(field: "timeZone", detail: "must be a time zone such as Europe/Minsk."))
        }
        guard problems.isEmpty else { throw Refusal.invalid(ValidationFailure(problems)) }
        let now = now()
        return try await database.write { db in
            let store = NotificationStore(db)
            try await store.setChoices(choices, userID: user.id)
            try await store.setPreferences(preferences, userID: user.id, now: now)
            return Settings(
                choices: try await store.choices(userID: user.id),
                preferences: try await store.preferences(userID: user.id))
        }
    }

    /// Turns a topic's mail off: what a message's one-click unsubscribe link does.
    func stopMail(_ topic: NotificationTopic, userID: Int64) async throws {
        try await database.write { db in
            let store = NotificationStore(db)
            var choice = try await store.choices(userID: userID)[topic] ?? topic.defaultChoice
            choice.email = false
            try await store.setChoices([topic: choice], userID: userID)
        }
    }

    // MARK: Push subscriptions

    /// Keeps a browser's subscription as `PushSubscription.toJSON()` gives it. 422 for an
    /// endpoint Campus may not send to, or keys that are not a P-256 point and a 16-byte secret.
    func subscribe(
        endpoint: String, p256dh: String, auth: String, expirationTime: Int64?, for user: Account
    ) async throws -> StoredPushSubscription {
        var problems: [FieldProblem] = []
        if let problem = pushPolicy.problem(with: endpoint) { problems.append(problem) }
        if Data(base64URLEncoded: p256dh, maximumLength: 100)?.count != 65 {
            problems.append(
                FieldProblem(field: "keys.p256dh", detail: "must be a P-256 public key (65 bytes, base64url)."))
        }
        if Data(base64URLEncoded: auth, maximumLength: 40)?.count != 16 {
            problems.append(FieldProblem(field: "keys.auth", detail: "must be 16 bytes, base64url."))
        }
        guard problems.isEmpty else { throw Refusal.invalid(ValidationFailure(problems)) }
        let now = now()
        return try await database.write { db in
            let store = NotificationStore(db)
            let existing = try await store.subscriptions(userID: user.id)
            if !existing.contains(where: { $0.endpoint == endpoint }), existing.count >= Self.subscriptionLimit {
                throw Refusal.conflict(
                    "You have {count} browsers subscribed already: remove one first.",
                    ["count": String(Self.subscriptionLimit)])
            }
            return try await store.subscribe(
                userID: user.id, endpoint: endpoint, p256dh: p256dh, auth: auth,
                expiresAt: expirationTime.map(Date.init(milliseconds:)), now: now)
        }
    }

    func subscriptions(of user: Account) async throws -> [StoredPushSubscription] {
        try await database.read { db in try await NotificationStore(db).subscriptions(userID: user.id) }
    }

    func unsubscribe(_ id: Int64, of user: Account) async throws {
        let removed = try await database.write { db in try await NotificationStore(db).unsubscribe(id, userID: user.id)
        }
        guard removed else { throw Refusal.notFound("There is no such push subscription.") }
    }
}

/// Where Campus may send pushes: a push endpoint is a URL a user gave, so the server asks it
/// only of `https` hosts on public addresses, unless the operator admits an origin
/// (`--push-allow http://127.0.0.1:8099`, for a push service of the institution's own or a test).
struct PushEndpointPolicy: Sendable {
    /// Admitted origins (`scheme://host:port`, lower case, no trailing slash).
    var allowed: [String] = []

    static let maximumLength = 1000

    /// Whether `endpoint` starts with an admitted origin.
    func admits(_ endpoint: String) -> Bool {
        let lowered = endpoint.lowercased()
        return allowed.contains { lowered == $0 || lowered.hasPrefix($0 + "/") }
    }

    /// What is wrong with `endpoint` as a push endpoint, or nil.
    func problem(with endpoint: String) -> FieldProblem? {
        guard endpoint.utf8.count <= Self.maximumLength else {
            return FieldProblem(field: "endpoint", detail: "must be at most {count} characters.", ["count": "1000"])
        }
        if admits(endpoint) { return nil }
        guard let url = try? OutboundURL(endpoint, allowPrivate: true), url.url.scheme?.lowercased() == "https" else {
            return FieldProblem(field: "endpoint", detail: "must be an https URL of a push service.")
        }
        guard (try? OutboundURL(endpoint, allowPrivate: false)) != nil else {
            return FieldProblem(
                field: "endpoint",
                detail: "must be a push service on a public address, not this machine or a local network.")
        }
        return nil
    }

    /// An origin as `--push-allow` gives it, normalised; nil when it is not `http(s)://host[:port]`.
    static func origin(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host?.lowercased(), url.path.isEmpty || url.path == "/", url.query == nil
        else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
