import Accounts
import CampusHTTP
import Compete
import Foundation
import InputRules
import Storage

/// Categories and teams on the competition page (issue 41): joining with a category, team or
/// birth date, changing them afterwards (the participant, or an organizer for anyone), the
/// category tabs of the scoreboard and the team table.
struct CategoryPages: Sendable {
    let compete: CompeteService

    func register(on pages: PageRouter) {
        pages.form(SiteRoutes.joinCompetition, EntryForm.self) { request, account, form in
            try await CompetitionActionAnswer.shown(request) { id in
                _ = try await compete.join(id, user: account.user, details: form.change)
                return request.t("You joined.")
            }
        }
        pages.form(SiteRoutes.participantEntry, EntryForm.self) { request, account, form in
            let participant = try request.id("userId")
            return try await CompetitionActionAnswer.shown(request) { id in
                _ = try await compete.updateEntry(id, participant: participant, change: form.change, by: account.user)
                return request.t("Saved.")
            }
        }
    }

    /// The fields a form sends are set (an empty one is cleared); those it leaves out stay.
    struct EntryForm: PageForm {
        var _csrf: String?
        var category: String?
        var team: String?
        var bornOn: String?

        var change: EntryChange {
            func field(_ value: String?) -> String?? {
                guard let value else { return nil }
                let text = TextRules.trimmed(value)
                return .some(text.isEmpty ? nil : text)
            }
            return EntryChange(category: field(category), team: field(team), bornOn: field(bornOn))
        }
    }

    // MARK: The competition page

    /// The fields of joining (`joining`) or of the participant's entry, where the competition has
    /// categories to choose, asks for a birth date or has teams; nil otherwise.
    static func panel(
        _ competition: Competition, details: EntryDetails?, action: String, joining: Bool, _ text: CompeteText
    ) -> CompetitionPage.EntryPanel? {
        let rule = competition.categoryRule
        guard rule != .none || competition.teams != .off else { return nil }
        let current = details ?? EntryDetails()
        return .init(
            action: action, joining: joining, chooses: rule == .choice,
            categories: [.init(value: "", name: text.t("No category"), checked: current.category == nil)]
                + competition.categories.map {
                    .init(value: $0.name, name: $0.name, checked: $0.name == current.category)
                },
            asksBirth: rule == .age, bornOn: current.bornOn ?? "", hasTeams: competition.teams != .off,
            team: current.team ?? "",
            category: rule == .choice || joining ? nil : current.category,
            editable: rule == .choice || rule == .age || competition.teams != .off)
    }

    /// The scoreboard's tabs: everyone, then each category participants are in.
    static func tabs(_ snapshot: Leaderboards.Snapshot, current: String?, _ text: CompeteText)
        -> [CompetitionPage.Tab]
    {
        guard snapshot.competition.categoryRule != .none || !snapshot.categories.isEmpty else { return [] }
        let id = snapshot.competition.id
        return [.init(name: text.t("All categories"), url: SiteRoutes.competition.path(id), current: current == nil)]
            + snapshot.categories.map {
                .init(
                    name: $0, url: SiteRoutes.competition.path(id, query: [("category", $0)]), current: $0 == current)
            }
    }

    /// The team table, or nil where teams are off.
    static func teams(_ standings: [TeamStanding], of competition: Competition, _ text: CompeteText)
        -> CompetitionPage.Teams?
    {
        guard competition.teams != .off else { return nil }
        let rule =
            switch competition.teams {
            case .best(let count):
                text.t.plural(
                    "Teams rank by the sum of their best {count} result.",
                    "Teams rank by the sum of their best {count} results.",
                    count)
            default: text.t("Teams rank by the sum of every member's result.")
            }
        return .init(
            rule: rule,
            rows: standings.map { standing in
                .init(
                    rank: standing.rank, team: standing.team,
                    score: standing.score.map { text.result($0, metric: competition.metric, unit: competition.unit) },
                    members: standing.members.map(\.participantName).joined(separator: ", "))
            }, empty: standings.isEmpty)
    }
}
