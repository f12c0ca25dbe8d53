import Accounts
import CampusHTTP
import Foundation
import Localization
import Timetable

/// `/admin`: the server at a glance for admins (``OverviewService``).
struct OverviewPages: Sendable {
    let overview: OverviewService
    let timeZone: TimeZone
    /// Campus's version: the API document's `info.version`, as the about page shows it.
    let version: String

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.admin) { request, account in
            let found = try await overview.overview(by: account.user)
            return .page(ServerOverviewPage(found, version: version, t: request.t, timeZone: timeZone))
        }
    }
}

struct ServerOverviewPage: PageModel {
    static let template = "admin-overview"
    static let section: SiteSection? = .admin

    struct Job: Sendable {
        var name: String
        var lastRun: String?
        var outcome: String?
        var failed: Bool
        var next: String?
        var holder: String?
        var failures: String?
    }

    struct Folder: Sendable {
        var name: String
        var path: String
        var size: String
    }

    struct Instance: Sendable {
        var name: String
        var since: String
        var isThis: Bool
    }

    var version: String
    var instance: String
    var uptime: String
    var database: String
    var jobs: [Job]
    var hasJobs: Bool
    var mailWaiting: String
    var notificationsWaiting: String
    var folders: [Folder]
    var lastBackup: String?
    var lastBackupFolder: String?
    var instances: [Instance]

    init(_ overview: ServerOverview, version: String, t: Translator, timeZone: TimeZone) {
        let text = ScheduleText(t: t)
        func moment(_ date: Date) -> String { text.moment(date, in: timeZone, withYear: true) }
        self.version = version
        instance = overview.instance
        uptime = Self.duration(overview.now.timeIntervalSince(overview.startedAt), t: t)
        database =
            (overview.databaseKind == .sqlite ? "SQLite" : "PostgreSQL") + ", "
            + Self.size(overview.databaseBytes, t: t)
        jobs = overview.jobs.map { job in
            Job(
                name: job.name, lastRun: job.lastStarted.map(moment),
                outcome: job.lastOutcome.map { $0 == "ok" ? t("ok", context: "job run") : $0 },
                failed: job.lastOutcome.map { $0 != "ok" } ?? false, next: job.next.map(moment), holder: job.holder,
                failures: job.failuresThisWeek == 0
                    ? nil
                    : t.plural(
                        "{count} failed run this week", "{count} failed runs this week", job.failuresThisWeek))
        }
        hasJobs = !jobs.isEmpty
        mailWaiting = t.plural("{count} message waits", "{count} messages wait", overview.mailWaiting)
        notificationsWaiting = t.plural(
            "{count} notification waits", "{count} notifications wait", overview.notificationsWaiting)
        folders = overview.folders.map { folder in
            Folder(
                name: folder.name, path: folder.path,
                size: Self.size(folder.bytes, t: t) + " · "
                    + t.plural("{count} file", "{count} files", folder.files))
        }
        lastBackup = overview.lastBackup.map { entry in
            [moment(entry.at), entry.after].compactMap { $0 }.joined(separator: " · ")
        }
        lastBackupFolder = overview.lastBackup?.target.label
        instances = overview.instances.map { found in
            Instance(
                name: found.name,
                since: t("running since {time}", ["time": moment(found.startedAt)]),
                isThis: found.name == overview.instance)
        }
    }

    /// Bytes as mebibytes with one decimal (or kibibytes under one MiB).
    static func size(_ bytes: Int64, t: Translator) -> String {
        let value = Double(bytes)
        if value < 1024 * 1024 {
            return t("{size} KiB", ["size": t.number(value / 1024, fractionDigits: 1)])
        }
        if value < 1024 * 1024 * 1024 {
            return t("{size} MiB", ["size": t.number(value / 1024 / 1024, fractionDigits: 1)])
        }
        return t("{size} GiB", ["size": t.number(value / 1024 / 1024 / 1024, fractionDigits: 1)])
    }

    /// A time running, in days, hours and minutes.
    static func duration(_ seconds: TimeInterval, t: Translator) -> String {
        let minutes = max(0, Int(seconds) / 60)
        let (days, hours, rest) = (minutes / 1440, minutes / 60 % 24, minutes % 60)
        var parts: [String] = []
        if days > 0 { parts.append(t.plural("{count} day", "{count} days", days)) }
        if days > 0 || hours > 0 { parts.append(t.plural("{count} hour", "{count} hours", hours)) }
        parts.append(t.plural("{count} minute", "{count} minutes", rest))
        return parts.joined(separator: " ")
    }
}
