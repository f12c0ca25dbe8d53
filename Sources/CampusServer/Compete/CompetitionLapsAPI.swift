import CampusAPI
import CampusHTTP
import Compete
import Foundation

/// Laps and splits in the API (issue 41): entering a result as laps, and the lap records.
extension APIHandler {
    func setLaps(_ input: Operations.setLaps.Input) async throws -> Operations.setLaps.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the laps as JSON.") }
        let id = input.path.competitionId
        let entry = try await compete.setLaps(
            id, participant: input.path.userId, laps: body.laps, splits: body.splits, by: user)
        return .ok(.init(body: .json(try await rankedEntry(entry, in: id, for: user))))
    }

    func getLapRecords(_ input: Operations.getLapRecords.Input) async throws -> Operations.getLapRecords.Output {
        let user = try await requireUser().user
        let snapshot = try await compete.ranking(input.path.competitionId, for: user)
        let competition = snapshot.competition
        let records = compete.lapRecords(snapshot)
        func api(_ record: LapRecord) -> Components.Schemas.LapRecord {
            .init(
                lap: record.lap, value: record.value,
                valueText: ResultText.format(record.value, metric: competition.metric, unit: competition.unit),
                holders: record.holders.map { .init(id: $0.participantID, name: $0.participantName) })
        }
        return .ok(.init(body: .json(.init(best: records.best.map(api), laps: records.laps.map(api)))))
    }
}
