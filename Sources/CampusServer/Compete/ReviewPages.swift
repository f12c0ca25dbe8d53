import Accounts
import CampusHTTP
import Compete
import Foundation
import InputRules
import Storage

/// Honest results on the competition page (issue 41): the organizer's review queue with its
/// accept and reject forms, and the participant's notice of a flagged result with the appeal.
struct ReviewPages: Sendable {
    let compete: CompeteService

    func register(on pages: PageRouter) {
        pages.form(SiteRoutes.reviewResult, DecisionForm.self) { request, account, form in
            let participant = try request.id("userId")
            return try await CompetitionActionAnswer.shown(request) { id in
                let accept = form.decision == "accept"
                _ = try await compete.decide(
                    id, participant: participant, accept: accept, reason: form.reason, by: account.user)
                return accept ? request.t("The result counts now.") : request.t("The result is rejected.")
            }
        }
        pages.form(SiteRoutes.appealResult, AppealForm.self) { request, account, form in
            try await CompetitionActionAnswer.shown(request) { id in
                _ = try await compete.appeal(id, text: form.text ?? "", user: account.user)
                return request.t("Your appeal is sent to the organizers.")
            }
        }
    }

    struct DecisionForm: PageForm {
        var _csrf: String?
        var decision: String?
        var reason: String?
    }

    struct AppealForm: PageForm {
        var _csrf: String?
        var text: String?
    }

    /// Why a result was flagged, in the reader's language.
    static func reasons(_ flags: [Flag], _ text: CompeteText) -> String {
        flags.map { flag in
            switch flag {
            case .tooFast: text.t("faster than the sport allows")
            case .teleport: text.t("the track jumps")
            case .noTimes: text.t("the track has no times")
            case .outlier: text.t("far better than the other results")
            }
        }.joined(separator: ", ")
    }

    /// The participant's notice of their flagged result, and the appeal while they may.
    static func notice(_ entry: Entry?, of competition: Competition, _ text: CompeteText) -> CompetitionPage.MyReview? {
        guard let review = entry?.review, review.status != .accepted else { return nil }
        let value = text.result(review.value, metric: competition.metric, unit: competition.unit)
        let reasons = reasons(review.flags, text)
        let message =
            switch review.status {
            case .pending:
                text.t(
                    "Your result {result} waits for an organizer's review: {reasons}.",
                    ["result": value, "reasons": reasons])
            case .rejected:
                text.t(
                    "An organizer rejected your result {result}: {note}", ["result": value, "note": review.note ?? ""])
            case .appealed, .accepted:
                text.t("Your appeal against the rejection of {result} waits for an organizer.", ["result": value])
            }
        return .init(
            message: message, rejected: review.status == .rejected,
            appealURL: review.status == .rejected && review.appeal == nil && competition.isActive
                ? SiteRoutes.appealResult.path(competition.id) : nil)
    }

    /// The organizer's queue: waiting results first, then the decided ones.
    static func queue(_ entries: [Entry], of competition: Competition, _ text: CompeteText)
        -> [CompetitionPage.ReviewRow]
    {
        entries.compactMap { entry in
            guard let review = entry.review else { return nil }
            let status =
                switch review.status {
                case .pending: text.t("waiting", context: "review")
                case .appealed: text.t("appealed", context: "review")
                case .accepted: text.t("accepted", context: "review")
                case .rejected: text.t("rejected", context: "review")
                }
            return .init(
                name: entry.participantName,
                value: text.result(review.value, metric: competition.metric, unit: competition.unit),
                reasons: reasons(review.flags, text), status: status, note: review.note, appeal: review.appeal,
                decideURL: review.status.isOpen && competition.isActive
                    ? SiteRoutes.reviewResult.path(competition.id, entry.participantID) : nil)
        }
    }
}
