import Accounts
import CampusHTTP
import Compete
import Foundation
import InputRules
import Storage

/// Challenges on the competition page (issue 41): the participant logs an activity (how much,
/// when, a note) and sees and deletes their own; the total is their result.
struct ChallengePages: Sendable {
    let compete: CompeteService
    let configuration: ServerConfiguration

    func register(on pages: PageRouter) {
        pages.form(SiteRoutes.addActivity, ActivityForm.self) { request, account, form in
            try await CompetitionActionAnswer.shown(request) { id in
                let competition = try await compete.visible(id, to: account.user).competition
                let text = form.value?.trimmingCharacters(in: .whitespaces) ?? ""
                guard let value = ResultText.parse(text, metric: competition.metric) else {
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "value",
                            detail: "“{text}” is not an activity: write h:mm:ss, m:ss, seconds, km or points.",
                            ["text": text]))
                }
                guard let at = DateTimeField.read(form.at, in: configuration.timeZone) else {
                    throw Refusal.invalid(
                        FieldProblem(field: "at", detail: "Write a date and time between 1900 and 2200."))
                }
                _ = try await compete.addActivity(
                    id, participant: account.user.id, value: value, at: at, note: form.note ?? "", source: .manual,
                    by: account.user)
                return request.t("Activity logged.")
            }
        }
        pages.form(SiteRoutes.deleteActivity, CSRFForm.self) { request, account, _ in
            let activity = try request.id("activityId")
            return try await CompetitionActionAnswer.shown(request) { id in
                _ = try await compete.deleteActivity(id, activity: activity, by: account.user)
                return request.t("Activity deleted.")
            }
        }
    }

    struct ActivityForm: PageForm {
        var _csrf: String?
        var value: String?
        var at: String?
        var note: String?
    }

    /// The participant's panel in a challenge they joined: the form and their activities.
    func panel(_ visible: CompeteService.Visible, user: Account, _ text: CompeteText) async throws
        -> CompetitionPage.ChallengePanel?
    {
        let competition = visible.competition
        guard competition.kind == .challenge, visible.isJoined else { return nil }
        let id = competition.id
        let activities = try await compete.activities(visible, participant: user.id, by: user)
        let zone = configuration.timeZone
        return .init(
            addURL: competition.isActive ? SiteRoutes.addActivity.path(id) : nil,
            placeholder: text.unit(competition.unit, metric: competition.metric),
            now: DateTimeField.value(compete.now(), in: zone) ?? "",
            activities: activities.map { activity in
                .init(
                    value: text.result(activity.value, metric: competition.metric, unit: competition.unit),
                    at: DateTimeField.text(activity.at, in: zone) ?? "", note: activity.note,
                    deleteURL: competition.isActive ? SiteRoutes.deleteActivity.path(id, activity.id) : nil)
            }, empty: activities.isEmpty)
    }
}
