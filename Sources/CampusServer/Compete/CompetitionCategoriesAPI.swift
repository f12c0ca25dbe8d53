import CampusAPI
import CampusHTTP
import Compete
import Foundation
import Storage

/// Categories and teams in the API (issue 41): changing an entry's category, team and birth
/// date, and the team ranking. The ranking of one category is `getRanking?category=`.
extension APIHandler {
    func updateEntry(_ input: Operations.updateEntry.Input) async throws -> Operations.updateEntry.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the changes as JSON.") }
        let id = input.path.competitionId
        let (entry, details) = try await compete.updateEntry(
            id, participant: input.path.userId, change: EntryChange(body), by: user)
        return .ok(.init(body: .json(try await rankedEntry(entry, in: id, for: user, bornOn: details.bornOn))))
    }

    func getTeamRanking(_ input: Operations.getTeamRanking.Input) async throws -> Operations.getTeamRanking.Output {
        let user = try await requireUser().user
        let snapshot = try await compete.ranking(input.path.competitionId, for: user)
        let competition = snapshot.competition
        let places = Dictionary(
            snapshot.ranked.map { ($0.entry.participantID, $0.rank) }, uniquingKeysWith: { first, _ in first })
        return .ok(
            .init(
                body: .json(
                    .init(
                        competitionId: competition.id, version: snapshot.version, metric: .init(competition.metric),
                        unit: competition.unit, teams: .init(competition.teams),
                        items: compete.teams(snapshot).map { standing in
                            .init(
                                rank: standing.rank, team: standing.team, score: standing.score,
                                scoreText: standing.score.map {
                                    ResultText.format($0, metric: competition.metric, unit: competition.unit)
                                }, counted: standing.counted,
                                members: standing.members.map {
                                    $0.api(rank: places[$0.participantID] ?? nil, competition: competition)
                                })
                        }))))
    }
}

extension EntryChange {
    init(_ body: Components.Schemas.EntryChange) {
        let clear = Set(body.clear ?? [])
        self.init(
            category: clear.contains(.category) ? .some(nil) : body.category.map { .some($0) },
            team: clear.contains(.team) ? .some(nil) : body.team.map { .some($0) },
            bornOn: clear.contains(.bornOn) ? .some(nil) : body.bornOn.map { .some($0) })
    }

}
