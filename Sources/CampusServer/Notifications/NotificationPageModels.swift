import Foundation

/// The inbox: what Campus told the user, newest first.
struct NotificationsPage: PageModel {
    static let template = "notifications"
    static let section: SiteSection? = .profile

    struct Item: Sendable {
        var id: Int64
        var title: String
        var body: String
        var link: String?
        var when: String
        var iso: String
        var unread: Bool
        var late: Bool
    }

    var items: [Item]
    var hasItems: Bool
    var hasUnread: Bool
    /// The next page's link, when there are older messages.
    var older: String?
}

/// What goes where: a row per topic with its channels, and the preferences.
struct NotificationSettingsPage: PageModel {
    static let template = "notification-settings"
    static let section: SiteSection? = .profile

    struct Topic: Sendable {
        var key: String
        var name: String
        var inbox: Bool
        var push: Bool
        var email: Bool
    }

    struct Browser: Sendable {
        var id: Int64
        var host: String
        var since: String
    }

    var topics: [Topic]
    var lessonMinutes: Int
    var examDays: Int
    var quietFrom: String
    var quietTo: String
    var timeZone: String
    var institutionTimeZone: String
    var emailDigest: Bool
    var browsers: [Browser]
    var hasBrowsers: Bool
}

/// The page a mail's "stop these e-mails" link opens.
struct UnsubscribePage: PageModel {
    static let template = "unsubscribe"
    static let section: SiteSection? = nil

    var topic: String
    var topicName: String
    var user: String
    var key: String
    var done: Bool
}
