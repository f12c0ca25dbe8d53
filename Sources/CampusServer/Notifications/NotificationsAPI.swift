import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import OpenAPIRuntime
import Storage

/// The notification centre's API (`/api/v1/me/notifications`, `…/notification-settings`,
/// `…/push-subscriptions`, `/api/v1/push/key`): each user's own.
extension APIHandler {
    var notifications: NotificationService { services.notifications }

    func listNotifications(_ input: Operations.listNotifications.Input) async throws
        -> Operations.listNotifications.Output
    {
        let user = try await requireUser().user
        let (items, unread) = try await notifications.inbox(
            of: user, before: input.query.before, limit: input.query.limit ?? NotificationService.defaultPage)
        return .ok(.init(body: .json(.init(items: items.map(\.api), unread: unread))))
    }

    func markNotificationsRead(_ input: Operations.markNotificationsRead.Input) async throws
        -> Operations.markNotificationsRead.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the ids as JSON.") }
        let unread = try await notifications.markRead(body.ids, of: user)
        return .ok(.init(body: .json(.init(unread: unread))))
    }

    func getNotificationSettings(_ input: Operations.getNotificationSettings.Input) async throws
        -> Operations.getNotificationSettings.Output
    {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await notifications.settings(of: user).api)))
    }

    func putNotificationSettings(_ input: Operations.putNotificationSettings.Input) async throws
        -> Operations.putNotificationSettings.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the settings as JSON.") }
        var choices: [NotificationTopic: NotificationChoice] = [:]
        for topic in body.topics {
            guard let key = NotificationTopic(rawValue: topic.topic.rawValue) else { continue }
            choices[key] = NotificationChoice(inbox: topic.inbox, push: topic.push, email: topic.email)
        }
        let quiet: QuietHours?
        switch (body.quietFrom.flatMap(Self.minutes), body.quietTo.flatMap(Self.minutes)) {
        case (nil, nil): quiet = nil
        case (let start?, let end?): quiet = QuietHours(start: start, end: end)
        default:
            throw Problem.invalid(
                FieldProblem(field: "quietTo", detail: "Give both ends of the quiet hours, or neither."))
        }
        let preferences = NotificationPreferences(
            lessonMinutes: body.lessonMinutes, examDays: body.examDays, quietHours: quiet,
            timeZone: body.timeZone.flatMap { $0.isEmpty ? nil : $0 }, emailDigest: body.emailDigest)
        let settings = try await notifications.change(choices, preferences: preferences, of: user)
        return .ok(.init(body: .json(settings.api)))
    }

    func getPushKey(_ input: Operations.getPushKey.Input) async throws -> Operations.getPushKey.Output {
        .ok(.init(body: .json(.init(publicKey: notifications.vapidKey.publicKey))))
    }

    func listPushSubscriptions(_ input: Operations.listPushSubscriptions.Input) async throws
        -> Operations.listPushSubscriptions.Output
    {
        let user = try await requireUser().user
        return .ok(.init(body: .json(.init(items: try await notifications.subscriptions(of: user).map(\.api)))))
    }

    func createPushSubscription(_ input: Operations.createPushSubscription.Input) async throws
        -> Operations.createPushSubscription.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the subscription as JSON.") }
        let subscription = try await notifications.subscribe(
            endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth,
            expirationTime: body.expirationTime, for: user)
        return .created(.init(body: .json(subscription.api)))
    }

    func deletePushSubscription(_ input: Operations.deletePushSubscription.Input) async throws
        -> Operations.deletePushSubscription.Output
    {
        let user = try await requireUser().user
        try await notifications.unsubscribe(input.path.subscriptionId, of: user)
        return .noContent(.init())
    }

    /// A notification mail's one-click unsubscribe (RFC 8058): what its `List-Unsubscribe` header
    /// names; the signed key is the permission.
    func unsubscribeOneClick(_ input: Operations.unsubscribeOneClick.Input) async throws
        -> Operations.unsubscribeOneClick.Output
    {
        let link = try UnsubscribeLinks(links: services.links, baseURL: services.configuration.resolvedBaseURL)
            .checked(user: String(input.query.u), topic: input.query.topic.rawValue, key: input.query.key)
        try await notifications.stopMail(link.topic, userID: link.userID)
        return .noContent(.init())
    }

    /// `22:00` as minutes after midnight.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]) else { return nil }
        return parts[0] * 60 + parts[1]
    }
}

extension StoredNotification {
    var api: Components.Schemas.Notification {
        .init(
            id: id, topic: .init(rawValue: topic.rawValue) ?? .schedule_hyphen_changed, title: title, body: body,
            link: link, createdAt: createdAt, readAt: readAt, late: late)
    }
}

extension StoredPushSubscription {
    var api: Components.Schemas.PushSubscriptionInfo { .init(id: id, endpoint: endpoint, createdAt: createdAt) }
}

extension NotificationService.Settings {
    var api: Components.Schemas.NotificationSettings {
        func time(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }
        return .init(
            topics: NotificationTopic.allCases.map { topic in
                let choice = choices[topic] ?? topic.defaultChoice
                return .init(
                    topic: .init(rawValue: topic.rawValue) ?? .schedule_hyphen_changed, inbox: choice.inbox,
                    push: choice.push, email: choice.email)
            }, lessonMinutes: preferences.lessonMinutes, examDays: preferences.examDays,
            quietFrom: preferences.quietHours.map { time($0.start) },
            quietTo: preferences.quietHours.map { time($0.end) },
            timeZone: preferences.timeZone, emailDigest: preferences.emailDigest)
    }
}
