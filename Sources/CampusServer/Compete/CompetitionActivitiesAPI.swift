import CampusAPI
import CampusHTTP
import Compete
import Foundation

/// Challenges in the API (issue 41): logging, listing and deleting activities.
extension APIHandler {
    func addActivity(_ input: Operations.addActivity.Input) async throws -> Operations.addActivity.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the activity as JSON.") }
        let id = input.path.competitionId
        let (activity, entry) = try await compete.addActivity(
            id, participant: input.path.userId, value: body.value, at: body.at, note: body.note ?? "", source: .manual,
            by: user)
        let competition = try await compete.visible(id, to: user).competition
        return .created(
            .init(
                body: .json(
                    .init(
                        activity: activity.api(competition), entry: try await rankedEntry(entry, in: id, for: user)))))
    }

    func listActivities(_ input: Operations.listActivities.Input) async throws -> Operations.listActivities.Output {
        let user = try await requireUser().user
        let (visible, activities) = try await compete.activities(
            input.path.competitionId, participant: input.path.userId, by: user)
        return .ok(.init(body: .json(activities.map { $0.api(visible.competition) })))
    }

    func deleteActivity(_ input: Operations.deleteActivity.Input) async throws -> Operations.deleteActivity.Output {
        let user = try await requireUser().user
        let id = input.path.competitionId
        let entry = try await compete.deleteActivity(id, activity: input.path.activityId, by: user)
        return .ok(.init(body: .json(try await rankedEntry(entry, in: id, for: user))))
    }
}

extension Activity {
    func api(_ competition: Competition) -> Components.Schemas.Activity {
        .init(
            id: id, participant: participantID, value: value,
            valueText: ResultText.format(value, metric: competition.metric, unit: competition.unit), at: at, note: note,
            source: source == .track ? .track : .manual, createdAt: createdAt)
    }
}
