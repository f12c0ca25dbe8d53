import Accounts
import Foundation
import Localization
import Logging
import ServiceLifecycle
import SharedHelpers
import Storage

/// Delivers what the notification centre queued (issue 39), on every instance: each second it
/// turns new schedule changes into notifications (``ChangeNotices``) and sends the pushes and
/// mails that are due. A delivery is claimed before it is sent (of several instances one takes
/// it: `FOR UPDATE SKIP LOCKED`), marked sent after; one that fails is tried again with a growing
/// pause, up to ``attempts`` times; one whose message has expired (a reminder after its lesson
/// began) is never sent. A claim older than ``claimTimeout`` is an instance that died sending: the
/// delivery is taken again.
struct DeliveryQueue: NamedService {
    let database: Database
    let changes: ChangeNotices
    let push: PushSender
    let mail: any MailSender
    let unsubscribeLinks: UnsubscribeLinks
    let baseURL: String
    let languages: Languages
    let instance: String
    let logger: Logger
    let now: @Sendable () -> Date
    var interval: Duration = .seconds(1)

    static let attempts = 8
    static let claimTimeout: TimeInterval = 120
    /// Deliveries sent at once.
    static let parallel = 16
    /// How long sent and failed deliveries are remembered.
    static let keptDays = 7.0

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await changes.tell()
                while try await deliverDue() > 0 {}
            } catch {
                if !Task.isCancelled {
                    logger.warning("notifications not delivered", metadata: ["error": "\(ErrorLog.text(error))"])
                }
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// Sends one round of what is due; returns how many deliveries were claimed.
    @discardableResult
    func deliverDue(limit: Int = 200) async throws -> Int {
        let now = now()
        let due = try await database.write { [instance] db in
            try await NotificationStore(db).claimDue(
                now: now, staleBefore: now.addingTimeInterval(-Self.claimTimeout), limit: limit, instance: instance)
        }
        guard !due.isEmpty else { return 0 }
        let pushes = due.filter { $0.channel == .push }
        // Mail: one message per user (a digest holds all that were due for it).
        let mails = Dictionary(grouping: due.filter { $0.channel == .email }, by: \.notification.userID)
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for delivery in pushes {
                if running >= Self.parallel {
                    await group.next()
                    running -= 1
                }
                group.addTask { await sendPush(delivery) }
                running += 1
            }
            for (userID, deliveries) in mails {
                if running >= Self.parallel {
                    await group.next()
                    running -= 1
                }
                group.addTask { await sendMail(deliveries, to: userID) }
                running += 1
            }
        }
        return due.count
    }

    private func sendPush(_ delivery: DueDelivery) async {
        guard let subscription = delivery.subscription else { return }
        let notification = delivery.notification
        var payload: [String: Any] = [
            "id": notification.id, "topic": notification.topic.rawValue, "title": notification.title,
            "body": String(notification.body.prefix(1500)), "late": notification.late,
        ]
        if let link = notification.link { payload["link"] = link }
        let data = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data()
        let now = now()
        let ttl = Int(notification.topic.expires ? 3600 : 4 * 24 * 3600)
        let outcome = await push.send(
            PushSender.Message(
                payload: data, ttl: ttl,
                urgent: notification.topic == .nextLesson || notification.topic == .scheduleChanged,
                topic: "n\(notification.id)"),
            to: subscription, now: now)
        await record(outcome, of: [delivery], subscription: subscription.id)
    }

    private func sendMail(_ deliveries: [DueDelivery], to userID: Int64) async {
        let reader: NotificationReader?
        do {
            reader = try await database.read { db in try await NotificationStore(db).readers([userID])[userID] }
        } catch {
            await record(.retry(ErrorLog.text(error)), of: deliveries, subscription: nil)
            return
        }
        guard let reader else { return }
        let t = languages.translator(reader.language) ?? languages.choose(choice: nil, acceptLanguage: nil)
        let notifications = deliveries.map(\.notification)
        let subject =
            notifications.count == 1
            ? notifications[0].title
            : t.plural("{count} notification from Campus", "{count} notifications from Campus", notifications.count)
        var parts = [t("Hello {name},", context: "mail", ["name": reader.firstName])]
        for notification in notifications {
            var part = notification.title + "\n" + notification.body
            if let link = notification.link { part += "\n" + baseURL + link }
            parts.append(part)
        }
        let topics = Set(notifications.map(\.topic)).sorted { $0.rawValue < $1.rawValue }
        let stop = topics.map { unsubscribeLinks.page(userID: userID, topic: $0) }
        parts.append(
            "-- \n"
                + t(
                    "You get this because of your notification settings: {link}", context: "mail",
                    ["link": baseURL + SiteRoutes.notificationSettings.path])
                + "\n" + t("Stop these e-mails: {link}", context: "mail", ["link": stop[0]]))
        let outcome: PushSender.Outcome
        do {
            try await mail.send(
                MailMessage(
                    to: reader.email, subject: subject, body: parts.joined(separator: "\n\n"),
                    listUnsubscribe: unsubscribeLinks.oneClick(userID: userID, topic: topics[0])))
            outcome = .sent
        } catch {
            outcome = .retry(ErrorLog.text(error))
        }
        await record(outcome, of: deliveries, subscription: nil)
    }

    private func record(_ outcome: PushSender.Outcome, of deliveries: [DueDelivery], subscription: Int64?) async {
        let now = now()
        do {
            try await database.write { db in
                let store = NotificationStore(db)
                for delivery in deliveries {
                    switch outcome {
                    case .sent:
                        try await store.markSent(delivery.id, now: now)
                    case .gone:
                        if let subscription { try await store.forgetSubscription(subscription) }
                    case .failed(let error):
                        try await store.markFailed(delivery.id, error: error, retryAt: nil, now: now)
                    case .retry(let error):
                        let last = delivery.attempts + 1 >= Self.attempts
                        let pause = min(30 * pow(2, Double(delivery.attempts)), 6 * 3600)
                        try await store.markFailed(
                            delivery.id, error: error, retryAt: last ? nil : now.addingTimeInterval(pause), now: now)
                    }
                }
            }
        } catch {
            logger.warning("delivery not recorded", metadata: ["error": "\(ErrorLog.text(error))"])
        }
        if case .retry(let error) = outcome {
            logger.info(
                "notification not delivered, tried again later",
                metadata: ["deliveries": "\(deliveries.map(\.id))", "error": "\(error)"])
        }
    }
}
