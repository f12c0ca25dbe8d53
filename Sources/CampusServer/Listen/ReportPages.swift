import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// Seed 001's settings screen: report content (from the settings, a parent's page or an item's),
/// send feedback, and — for admins — the queue of what listeners reported.
struct ReportPages: Sendable {
    let reports: ReportService

    /// The reasons a listener picks from, in the page's language (feedback has its own form).
    static func reasons(_ t: Translator) -> [(ContentReport.Reason, String)] {
        [
            (.inappropriate, t("Offensive or inappropriate")), (.explicitUnmarked, t("Explicit, but not marked so")),
            (.copyright, t("Infringes copyright")), (.wrongInformation, t("Wrong title, author or cover")),
            (.poorQuality, t("Does not play or sounds broken")), (.other, t("Something else")),
        ]
    }

    static func reasonName(_ reason: ContentReport.Reason, _ t: Translator) -> String {
        reason == .feedback ? t("Feedback") : reasons(t).first { $0.0 == reason }?.1 ?? reason.rawValue
    }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.report) { request, account in
            let target = request.query("target", maxLength: 40)
            return .page(
                ReportPage(
                    feedback: false, target: target ?? "", targetTitle: await title(of: target, for: account.user),
                    reasons: Self.reasons(request.t).map { .init(value: $0.0.rawValue, label: $0.1, selected: false) },
                    back: SignInPages.safeNext(request.query("back", maxLength: 300) ?? SiteRoutes.listenSettings.path))
            )
        }
        pages.signedInPage(SiteRoutes.feedback) { request, _ in
            .page(
                ReportPage(
                    feedback: true, target: "", targetTitle: "", reasons: [], back: SiteRoutes.listenSettings.path))
        }
        pages.form(SiteRoutes.report, ReportForm.self, send)
        pages.signedInPage(SiteRoutes.reportQueue) { request, account in
            try Self.requireAdmin(account)
            let show = { (views: [ReportService.ReportView]) in
                views.map { ReportQueuePage.Row($0, request.t) }
            }
            let waiting = show(try await reports.reports(resolved: false))
            return .page(
                ReportQueuePage(
                    waiting: waiting, none: waiting.isEmpty, resolved: show(try await reports.reports(resolved: true))))
        }
        pages.form(SiteRoutes.resolveReport, CSRFForm.self) { request, account, _ in
            try Self.requireAdmin(account)
            _ = try await reports.resolveReport(try request.id(), by: account.user)
            return .redirect(SiteRoutes.reportQueue.path, flash: request.t("Marked resolved."))
        }
    }

    /// The report form's address for an item, coming back to `back`.
    static func url(target: String, back: String) -> String {
        SiteRoutes.report.path(query: [("target", target), ("back", back)])
    }

    static func requireAdmin(_ account: Authenticated) throws {
        guard account.user.role == .admin else { throw Refusal.notAllowed("Only admins read the reports.") }
    }

    /// What the report names, for the form to say; "" when it names nothing the listener may name.
    private func title(of target: String?, for user: Account) async -> String {
        guard let target, let reference = Reference(target) else { return "" }
        return ((try? await reports.reportTargetTitle(reference, for: user)) ?? nil) ?? ""
    }

    struct ReportForm: PageForm {
        var _csrf: String?
        var target: String?
        var reason: String?
        var note: String?
        var back: String?
    }

    @Sendable func send(_ request: PageRequest, _ account: Authenticated, _ form: ReportForm) async throws
        -> PageAnswer
    {
        let back = SignInPages.safeNext(form.back ?? SiteRoutes.listenSettings.path)
        let target = form.target.flatMap { $0.isEmpty ? nil : $0 }
        let reason = form.reason.flatMap(ContentReport.Reason.init(rawValue:)) ?? (target == nil ? .feedback : .other)
        do {
            _ = try await reports.report(target: target, reason: reason, note: form.note, by: account.user)
        } catch let refusal as Refusal where [.invalid, .conflict].contains(refusal.reason) {
            let again =
                reason == .feedback
                ? SiteRoutes.feedback.path
                : SiteRoutes.report.path(query: [("target", target ?? ""), ("back", back)])
            return .redirect(again, flash: request.t.detail(refusal), kind: .error)
        }
        return .redirect(back, flash: request.t("Thank you: the admins will look at it."))
    }
}

/// The form that reports content, or sends feedback.
struct ReportPage: PageModel {
    static let template = "listen-report"
    static let section: SiteSection? = .listen

    var feedback: Bool
    var target: String
    /// What the report is about, "" when the listener says it in the note.
    var targetTitle: String
    var hasTargetTitle: Bool
    var reasons: [SelectOption]
    var back: String

    init(feedback: Bool, target: String, targetTitle: String, reasons: [SelectOption], back: String) {
        self.feedback = feedback
        self.target = target
        self.targetTitle = targetTitle
        hasTargetTitle = !targetTitle.isEmpty
        self.reasons = reasons
        self.back = back
    }
}

/// The admins' queue of reports.
struct ReportQueuePage: PageModel {
    static let template = "listen-reports"
    static let section: SiteSection? = .listen

    struct Row: Sendable {
        var id: Int64
        var reporter: String
        var date: String
        var reason: String
        var note: String
        var target: String
        var targetTitle: String
        var targetUrl: String
        var hasTarget: Bool
        var hasReference: Bool
        var hasNote: Bool
        var resolveUrl: String

        init(_ view: ReportService.ReportView, _ t: Translator) {
            id = view.report.id
            reporter = view.report.reporterName
            date = ListenText.day(view.report.createdAt)
            reason = ReportPages.reasonName(view.report.reason, t)
            note = view.report.note
            target = view.report.target?.description ?? ""
            targetTitle = view.targetTitle ?? target
            targetUrl = view.targetPath ?? ""
            hasTarget = view.targetPath != nil
            hasReference = !target.isEmpty
            hasNote = !note.isEmpty
            resolveUrl = SiteRoutes.resolveReport.path(view.report.id)
        }
    }

    var waiting: [Row]
    var none: Bool
    var resolved: [Row]
}
