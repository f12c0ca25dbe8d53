import Compete
import Foundation

/// The fields an organizer changes; what is nil stays as it was.
struct CompetitionChange: Sendable {
    var name: String?
    var description: String?
    var metric: Metric?
    var unit: String?
    var startsAt: Date??
    var endsAt: Date??
    var participantUploads: Bool?
    var categoryRule: CategoryRule?
    var categories: [Category]?
    var teams: TeamScoring?
    var sport: Sport?
    var courseKm: Double??
    var faculty: String??
    /// Only when creating: a race or a challenge.
    var kind: CompetitionKind?

    func applied(to draft: CompetitionDraft) -> CompetitionDraft {
        var draft = draft
        if let name { draft.name = name }
        if let description { draft.description = description }
        if let metric, metric != draft.metric {
            draft.metric = metric
            if unit == nil { draft.unit = nil }
        }
        if let unit { draft.unit = unit }
        if let startsAt { draft.startsAt = startsAt }
        if let endsAt { draft.endsAt = endsAt }
        if let participantUploads { draft.participantUploads = participantUploads }
        if let categoryRule { draft.categoryRule = categoryRule }
        if let categories { draft.categories = categories }
        if let teams { draft.teams = teams }
        if let sport { draft.sport = sport }
        if let courseKm { draft.courseKm = courseKm }
        if let faculty { draft.faculty = faculty }
        if let kind { draft.kind = kind }
        return draft
    }
}
