import Accounts
import CampusHTTP
import Foundation
import InputRules
import Localization
import SharedHelpers
import Storage
import Timetable

/// The notification centre's pages: the inbox (the bell on every page leads there), the settings
/// of what goes where, and the page of a mail's link that stops a topic's mail.
struct NotificationPages: Sendable {
    let notifications: NotificationService
    let unsubscribeLinks: UnsubscribeLinks
    let timeZone: TimeZone

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.notifications) { request, account in
            let before = request.query("before", maxLength: 20).flatMap { Int64($0) }
            let (items, unread) = try await notifications.inbox(
                of: account.user, before: before, limit: NotificationService.defaultPage)
            let text = ScheduleText(t: request.t)
            return .page(
                NotificationsPage(
                    items: items.map { item in
                        NotificationsPage.Item(
                            id: item.id, title: item.title, body: item.body, link: item.link,
                            when: when(item.createdAt, text: text), iso: item.createdAt.formatted(.iso8601),
                            unread: item.readAt == nil, late: item.late)
                    }, hasItems: !items.isEmpty, hasUnread: unread > 0,
                    older: items.count == NotificationService.defaultPage
                        ? items.last.map { SiteRoutes.notifications.path(query: [("before", String($0.id))]) } : nil))
        }
        pages.form(SiteRoutes.notificationsRead, ReadForm.self) { request, account, form in
            let ids = form.id.map { [$0] }
            try await notifications.markRead(ids, of: account.user)
            return .redirect(SiteRoutes.notifications.path)
        }
        pages.signedInPage(SiteRoutes.notificationSettings) { request, account in
            .page(try await settingsPage(for: account.user, t: request.t))
        }
        pages.form(SiteRoutes.notificationSettings, SettingsForm.self, save)
        pages.page(SiteRoutes.unsubscribe) { request in
            let link = try unsubscribeLinks.checked(
                user: request.query("u"), topic: request.query("topic"), key: request.query("key"))
            return .page(Self.unsubscribePage(link, done: false, t: request.t))
        }
        pages.publicForm(SiteRoutes.unsubscribe, UnsubscribeForm.self) { request, form in
            let link = try unsubscribeLinks.checked(user: form.u, topic: form.topic, key: form.key)
            try await notifications.stopMail(link.topic, userID: link.userID)
            return .page(Self.unsubscribePage(link, done: true, t: request.t))
        }
    }

    static func unsubscribePage(_ link: UnsubscribeLinks.Link, done: Bool, t: Translator) -> UnsubscribePage {
        UnsubscribePage(
            topic: link.topic.rawValue, topicName: name(of: link.topic, t), user: String(link.userID), key: link.key,
            done: done)
    }

    struct ReadForm: PageForm {
        var _csrf: String?
        var id: Int64?
    }

    struct SettingsForm: PageForm {
        var _csrf: String?
        var channels: [String]?
        var lessonMinutes: String?
        var examDays: String?
        var quietFrom: String?
        var quietTo: String?
        var timeZone: String?
        var emailDigest: String?
    }

    struct UnsubscribeForm: PageForm {
        var _csrf: String?
        var u: String?
        var topic: String?
        var key: String?
    }

    @Sendable func save(_ request: PageRequest, _ account: Authenticated, _ form: SettingsForm) async throws
        -> PageAnswer
    {
        let chosen = Set(form.channels ?? [])
        var choices: [NotificationTopic: NotificationChoice] = [:]
        for topic in NotificationTopic.allCases {
            choices[topic] = NotificationChoice(
                inbox: chosen.contains("\(topic.rawValue):inbox"), push: chosen.contains("\(topic.rawValue):push"),
                email: chosen.contains("\(topic.rawValue):email"))
        }
        let from = form.quietFrom.flatMap { $0.isEmpty ? nil : APIHandler.minutes($0) }
        let to = form.quietTo.flatMap { $0.isEmpty ? nil : APIHandler.minutes($0) }
        let preferences = NotificationPreferences(
            lessonMinutes: form.lessonMinutes.flatMap { Int($0) } ?? 0,
            examDays: form.examDays.flatMap { Int($0) } ?? 0,
            quietHours: from.flatMap { start in to.flatMap { QuietHours(start: start, end: $0) } },
            timeZone: form.timeZone.flatMap { $0.isEmpty ? nil : $0 }, emailDigest: form.emailDigest != nil)
        do {
            _ = try await notifications.change(choices, preferences: preferences, of: account.user)
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return .redirect(SiteRoutes.notificationSettings.path, flash: request.t.detail(refusal), kind: .error)
        }
        return .redirect(SiteRoutes.notificationSettings.path, flash: request.t("Settings saved."))
    }

    private func settingsPage(for user: Account, t: Translator) async throws -> NotificationSettingsPage {
        let settings = try await notifications.settings(of: user)
        let browsers = try await notifications.subscriptions(of: user)
        let text = ScheduleText(t: t)
        func time(_ minutes: Int?) -> String {
            minutes.map { String(format: "%02d:%02d", $0 / 60, $0 % 60) } ?? ""
        }
        return NotificationSettingsPage(
            topics: NotificationTopic.allCases.map { topic in
                let choice = settings.choices[topic] ?? topic.defaultChoice
                return .init(
                    key: topic.rawValue, name: Self.name(of: topic, t), inbox: choice.inbox, push: choice.push,
                    email: choice.email)
            }, lessonMinutes: settings.preferences.lessonMinutes, examDays: settings.preferences.examDays,
            quietFrom: time(settings.preferences.quietHours?.start),
            quietTo: time(settings.preferences.quietHours?.end),
            timeZone: settings.preferences.timeZone ?? "", institutionTimeZone: timeZone.identifier,
            emailDigest: settings.preferences.emailDigest,
            browsers: browsers.map {
                .init(id: $0.id, host: URL(string: $0.endpoint)?.host ?? "?", since: when($0.createdAt, text: text))
            }, hasBrowsers: !browsers.isEmpty)
    }

    /// A topic's name, as the settings page and the unsubscribe page say it.
    static func name(of topic: NotificationTopic, _ t: Translator) -> String {
        switch topic {
        case .scheduleChanged: t("My schedule changed", context: "notification topic")
        case .favoriteChanged: t("A favorite's schedule changed", context: "notification topic")
        case .nextLesson: t("My next lesson is about to begin", context: "notification topic")
        case .taskDeadline: t("A task's deadline is near", context: "notification topic")
        case .examSoon: t("An exam is coming", context: "notification topic")
        case .competitionStatus: t("A competition I joined was deactivated or activated", context: "notification topic")
        case .resultEntered: t("My result in a competition was entered or changed", context: "notification topic")
        case .rankChanged: t("My rank in a competition changed", context: "notification topic")
        case .friends: t("Somebody asks to follow me, or accepted my request", context: "notification topic")
        case .friendResult: t("Somebody I follow has a new result", context: "notification topic")
        case .recordBroken: t("A record in a competition I joined was broken", context: "notification topic")
        case .newEpisode: t("A podcast I like has a new episode", context: "notification topic")
        case .stationOnAir: t("A station I like went on the air", context: "notification topic")
        }
    }

    /// `December 5, 14:03` in the institution's time zone.
    private func when(_ date: Date, text: ScheduleText) -> String { text.moment(date, in: timeZone) }
}
