import Accounts
import CampusHTTP
import Foundation
import Localization
import Timetable

/// `/admin/audit`: the audit log for admins, newest first, filtered by action and by what was
/// acted on, a page of 50 at a time.
struct AuditPages: Sendable {
    let audit: AuditService
    let timeZone: TimeZone

    static let pageSize = 50

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.adminAudit) { request, account in
            let action = request.query("action", maxLength: 40).flatMap(AuditAction.init(rawValue:))
            let kind = request.query("target", maxLength: 40).flatMap { $0.isEmpty ? nil : $0 }
            let pageNumber = max(1, min(5000, Int(request.query("page", maxLength: 5) ?? "1") ?? 1))
            let result = try await audit.entries(
                AuditFilter(action: action, targetKind: kind), limit: Self.pageSize,
                offset: (pageNumber - 1) * Self.pageSize, by: account.user)
            let pageCount = max(1, (result.total + Self.pageSize - 1) / Self.pageSize)
            func pageURL(_ number: Int) -> String {
                SiteRoutes.adminAudit.path(query: [
                    ("action", action?.rawValue), ("target", kind), ("page", String(number)),
                ])
            }
            let text = ScheduleText(t: request.t)
            return .page(
                AuditLogPage(
                    actions: AuditAction.allCases.map {
                        .init(value: $0.rawValue, label: $0.name(request.t), selected: $0 == action)
                    },
                    targetKind: kind ?? "",
                    totalText: request.t.plural("{count} entry", "{count} entries", result.total),
                    entries: result.entries.map { entry in
                        AuditLogPage.Entry(
                            when: text.moment(entry.at, in: timeZone, withYear: true),
                            iso: entry.at.formatted(.iso8601), action: entry.action.name(request.t),
                            actor: entry.actor.name(request.t), address: entry.actor.address,
                            target: [entry.target.kind, entry.target.id.map { "#\($0)" }, entry.target.label]
                                .compactMap { $0 }.joined(separator: " "),
                            change: entry.before == nil && entry.after == nil
                                ? nil : [entry.before, entry.after].compactMap { $0 }.joined(separator: " → "))
                    },
                    hasEntries: !result.entries.isEmpty,
                    previousURL: pageNumber > 1 ? pageURL(pageNumber - 1) : nil,
                    nextURL: pageNumber < pageCount ? pageURL(pageNumber + 1) : nil))
        }
    }
}

struct AuditLogPage: PageModel {
    static let template = "admin-audit"
    static let section: SiteSection? = .admin

    struct Entry: Sendable {
        var when: String
        var iso: String
        var action: String
        var actor: String
        var address: String?
        var target: String
        /// `before → after`, or the one of them there is.
        var change: String?
    }

    var actions: [SelectOption]
    var targetKind: String
    /// "12 entries", in the page's language.
    var totalText: String
    var entries: [Entry]
    var hasEntries: Bool
    var previousURL: String?
    var nextURL: String?
}
