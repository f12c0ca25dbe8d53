import Accounts
import Foundation
import SQLKit
import SharedHelpers

/// A message in a user's inbox (issue 39).
public struct StoredNotification: Sendable, Equatable {
    public var id: Int64
    public var userID: Int64
    public var topic: NotificationTopic
    public var title: String
    public var body: String
    public var link: String?
    /// Sent after the moment it was due (the server was down then).
    public var late: Bool
    public var createdAt: Date
    public var readAt: Date?
}

/// A notification about to be written: who it is for, what it says, what caused it (once per
/// user and cause), and where it goes.
public struct NewNotification: Sendable {
    public var userID: Int64
    public var topic: NotificationTopic
    /// What the message is about, unique per user: a second message with the same cause is not
    /// written (`change:group:10701:1733390000000`, `lesson:412:20261207`, `task:9:hour`).
    public var cause: String
    public var title: String
    public var body: String
    public var link: String?
    public var choice: NotificationChoice
    public var late: Bool
    /// When push and mail may go out (after quiet hours), and after when they must not.
    public var dueAt: Date
    public var expiresAt: Date?
    /// Mail goes out at `digestAt` with the day's others instead of at once; nil for at once.
    public var digestAt: Date?
    /// A cause's beginning (`rank:12:7:`): the user's unread message whose cause begins so is
    /// taken back, with what it had not yet sent, before this one is written — a newer state
    /// replaces an older one (a rank, a record) instead of piling up beside it.
    public var replaces: String?

    public init(
        userID: Int64, topic: NotificationTopic, cause: String, title: String, body: String, link: String?,
        choice: NotificationChoice, late: Bool = false, dueAt: Date, expiresAt: Date? = nil, digestAt: Date? = nil,
        replaces: String? = nil
    ) {
        self.userID = userID
        self.topic = topic
        self.cause = cause
        self.title = title
        self.body = body
        self.link = link
        self.choice = choice
        self.late = late
        self.dueAt = dueAt
        self.expiresAt = expiresAt
        self.digestAt = digestAt
        self.replaces = replaces
    }
}

/// Who a notification is written for: their address and language, as the account has them.
public struct NotificationReader: Sendable, Equatable {
    public var id: Int64
    public var email: String
    public var firstName: String
    public var language: String?
    public var group: String?
    public var subgroup: Int
}

/// The notification centre's rows: inboxes, each user's settings and preferences. Every method
/// that reads or changes a user's rows takes the user; runs on the `SQLDatabase` it is given, so
/// callers choose the transaction.
public struct NotificationStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    // MARK: Inbox

    /// Writes a notification and queues its push (one per subscription) and mail; nil when the
    /// user has one with the same cause already (nothing is written then).
    @discardableResult
    public func write(_ new: NewNotification, now: Date) async throws -> Int64? {
        guard new.choice.any else { return nil }
        if let replaces = new.replaces, !replaces.isEmpty {
            // Deliveries go with their message (ON DELETE CASCADE); one being sent is marked on
            // nothing.
            try await db.raw(
                """
                DELETE FROM notifications
                WHERE user_id = \(bind: new.userID) AND read_at IS NULL AND cause <> \(bind: new.cause)
                    AND substr(cause, 1, \(unsafeRaw: String(replaces.count))) = \(bind: replaces)
                """
            ).run()
        }
        let id = try await db.raw(
            """
            INSERT INTO notifications (user_id, topic, cause, title, body, link, in_inbox, late, created_at)
            VALUES (\(bind: new.userID), \(bind: new.topic.rawValue), \(bind: new.cause), \(bind: new.title),
                    \(bind: new.body), \(bind: new.link), \(bind: new.choice.inbox), \(bind: new.late),
                    \(bind: now.milliseconds))
            ON CONFLICT (user_id, cause) DO NOTHING RETURNING id
            """
        ).first(decodingColumn: "id", as: Int64.self)
        guard let id else { return nil }
        if new.choice.push {
            try await db.raw(
                """
                INSERT INTO notification_deliveries (notification_id, channel, subscription_id, due_at, expires_at)
                SELECT \(bind: id), 'push', id, \(bind: new.dueAt.milliseconds), \(bind: new.expiresAt?.milliseconds)
                FROM push_subscriptions WHERE user_id = \(bind: new.userID)
                """
            ).run()
        }
        if new.choice.email {
            try await db.insert(into: "notification_deliveries")
                .columns("notification_id", "channel", "due_at", "expires_at")
                .values(
                    SQLBind(id), SQLBind("email"), SQLBind((new.digestAt ?? new.dueAt).milliseconds),
                    SQLBind(new.expiresAt?.milliseconds)
                ).run()
        }
        return id
    }

    /// The user's inbox, newest first: `limit` messages older than `before` (an id), if given.
    public func inbox(userID: Int64, before: Int64?, limit: Int) async throws -> [StoredNotification] {
        var query = db.select().column("*").from("notifications").where("user_id", .equal, userID)
            .where("in_inbox", .equal, true)
        if let before { query = query.where("id", .lessThan, before) }
        return try await query.orderBy("id", .descending).limit(limit).all().map(Self.notification)
    }

    public func notification(_ id: Int64, userID: Int64) async throws -> StoredNotification? {
        try await db.select().column("*").from("notifications").where("id", .equal, id)
            .where("user_id", .equal, userID).first().map(Self.notification)
    }

    public func unread(userID: Int64) async throws -> Int {
        try await db.raw(
            """
            SELECT COUNT(*) AS n FROM notifications
            WHERE user_id = \(bind: userID) AND in_inbox = \(bind: true) AND read_at IS NULL
            """
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Marks the user's messages read: those with these ids, or all when `ids` is nil. Returns how
    /// many were unread.
    @discardableResult
    public func markRead(userID: Int64, ids: [Int64]?, now: Date) async throws -> Int {
        var query = db.update("notifications").set("read_at", to: now.milliseconds)
            .where("user_id", .equal, userID).where(SQLColumn("read_at"), .is, SQLLiteral.null)
        if let ids { query = query.where("id", .in, ids) }
        return try await query.returning("id").all().count
    }

    /// Forgets messages older than `before`, and the deliveries with them.
    public func forget(before: Date) async throws {
        try await db.raw("DELETE FROM notifications WHERE created_at < \(bind: before.milliseconds)").run()
    }

    static func notification(_ row: any SQLRow) throws -> StoredNotification {
        StoredNotification(
            id: try row.decode(column: "id", as: Int64.self), userID: try row.decode(column: "user_id", as: Int64.self),
            topic: try row.decodeCase(column: "topic", as: NotificationTopic.self),
            title: try row.decode(column: "title", as: String.self),
            body: try row.decode(column: "body", as: String.self),
            link: try row.decode(column: "link", as: String?.self), late: try row.decode(column: "late", as: Bool.self),
            createdAt: Date(milliseconds: try row.decode(column: "created_at", as: Int64.self)),
            readAt: try row.decode(column: "read_at", as: Int64?.self).map(Date.init(milliseconds:)))
    }

    // MARK: Settings

    /// The user's channels for every topic: their choice where they made one, else the default.
    public func choices(userID: Int64) async throws -> [NotificationTopic: NotificationChoice] {
        let chosen = try await choices(of: [userID])[userID] ?? [:]
        return Dictionary(uniqueKeysWithValues: NotificationTopic.allCases.map { ($0, chosen[$0] ?? $0.defaultChoice) })
    }

    /// The choices these users made (topics they never changed are missing).
    public func choices(of userIDs: [Int64]) async throws -> [Int64: [NotificationTopic: NotificationChoice]] {
        var found: [Int64: [NotificationTopic: NotificationChoice]] = [:]
        for part in userIDs.chunked(500) {
            for row in try await db.select().column("*").from("notification_settings")
                .where("user_id", .in, Array(part)).all()
            {
                guard let topic = NotificationTopic(rawValue: try row.decode(column: "topic", as: String.self)) else {
                    continue
                }
                found[try row.decode(column: "user_id", as: Int64.self), default: [:]][topic] = NotificationChoice(
                    inbox: try row.decode(column: "inbox", as: Bool.self),
                    push: try row.decode(column: "push", as: Bool.self),
                    email: try row.decode(column: "email", as: Bool.self))
            }
        }
        return found
    }

    public func setChoices(_ choices: [NotificationTopic: NotificationChoice], userID: Int64) async throws {
        for (topic, choice) in choices.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try await db.raw(
                """
                INSERT INTO notification_settings (user_id, topic, inbox, push, email)
                VALUES (\(bind: userID), \(bind: topic.rawValue), \(bind: choice.inbox), \(bind: choice.push),
                        \(bind: choice.email))
                ON CONFLICT (user_id, topic) DO UPDATE SET inbox = excluded.inbox, push = excluded.push,
                    email = excluded.email
                """
            ).run()
        }
    }

    /// The user's preferences, the defaults where they never chose.
    public func preferences(userID: Int64) async throws -> NotificationPreferences {
        try await preferences(of: [userID])[userID] ?? NotificationPreferences()
    }

    /// The preferences of these users who chose any (the others have the defaults).
    public func preferences(of userIDs: [Int64]) async throws -> [Int64: NotificationPreferences] {
        var found: [Int64: NotificationPreferences] = [:]
        for part in userIDs.chunked(500) {
            for row in try await db.select().column("*").from("notification_profiles")
                .where("user_id", .in, Array(part)).all()
            {
                let quiet = try row.decode(column: "quiet_start", as: Int?.self).flatMap { start in
                    try row.decode(column: "quiet_end", as: Int?.self).flatMap { QuietHours(start: start, end: $0) }
                }
                found[try row.decode(column: "user_id", as: Int64.self)] = NotificationPreferences(
                    lessonMinutes: try row.decode(column: "lesson_minutes", as: Int.self),
                    examDays: try row.decode(column: "exam_days", as: Int.self), quietHours: quiet,
                    timeZone: try row.decode(column: "time_zone", as: String?.self),
                    emailDigest: try row.decode(column: "email_digest", as: Bool.self))
            }
        }
        return found
    }

    public func setPreferences(_ preferences: NotificationPreferences, userID: Int64, now: Date) async throws {
        try await db.raw(
            """
            INSERT INTO notification_profiles
                (user_id, lesson_minutes, exam_days, quiet_start, quiet_end, time_zone, email_digest, updated_at)
            VALUES (\(bind: userID), \(bind: preferences.lessonMinutes), \(bind: preferences.examDays),
                    \(bind: preferences.quietHours?.start), \(bind: preferences.quietHours?.end),
                    \(bind: preferences.timeZone), \(bind: preferences.emailDigest), \(bind: now.milliseconds))
            ON CONFLICT (user_id) DO UPDATE SET lesson_minutes = excluded.lesson_minutes,
                exam_days = excluded.exam_days, quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,
                time_zone = excluded.time_zone, email_digest = excluded.email_digest, updated_at = excluded.updated_at
            """
        ).run()
    }

    // MARK: Readers

    /// The accounts with these ids, as notifications need them.
    public func readers(_ ids: [Int64]) async throws -> [Int64: NotificationReader] {
        var found: [Int64: NotificationReader] = [:]
        for part in ids.chunked(500) {
            for row in try await db.select().columns("id", "email", "first_name", "language", "study_group", "subgroup")
                .from("users").where("id", .in, Array(part)).all()
            {
                let reader = try Self.reader(row)
                found[reader.id] = reader
            }
        }
        return found
    }

    static func reader(_ row: any SQLRow) throws -> NotificationReader {
        NotificationReader(
            id: try row.decode(column: "id", as: Int64.self), email: try row.decode(column: "email", as: String.self),
            firstName: try row.decode(column: "first_name", as: String.self),
            language: try row.decode(column: "language", as: String?.self),
            group: try row.decode(column: "study_group", as: String?.self),
            subgroup: try row.decode(column: "subgroup", as: Int.self))
    }
}
