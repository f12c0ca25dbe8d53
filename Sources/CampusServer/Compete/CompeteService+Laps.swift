import Accounts
import Compete
import Foundation
import InputRules
import Storage

/// Laps and splits (issue 41): an organizer enters a result as its laps (or the splits of a
/// timing clock); the result is their sum, and the competition keeps lap records.
extension CompeteService {
    /// Enters a participant's result as laps, or as splits (running totals): organizers and
    /// admins, while active, in the audit log as any result an organizer enters.
    func setLaps(_ id: Int64, participant: Int64, laps: [Double]?, splits: [Double]?, by user: Account)
        async throws -> Entry
    {
        let competition = try await managed(id, by: user).competition
        try Self.requireActiveResults(competition)
        try Self.requireRace(competition)
        let kept: [Double]
        do throws(CompeteFieldError) {
            switch (laps, splits) {
            case (let laps?, nil): kept = try LapRules.laps(laps, for: competition.metric)
            case (nil, let splits?): kept = try LapRules.laps(splits: splits, for: competition.metric)
            default:
                throw CompeteFieldError(field: "laps", detail: "Send either the laps or the splits.")
            }
        } catch {
            throw Refusal.invalid(error.fieldProblem)
        }
        return try await store(
            LapRules.total(kept), track: nil, laps: kept, in: competition, participant: participant, correctedBy: user)
    }

    /// The competition's lap records.
    func lapRecords(_ snapshot: Leaderboards.Snapshot) -> (best: LapRecord?, laps: [LapRecord]) {
        Ranking.lapRecords(snapshot.ranked.map(\.entry), by: snapshot.competition.ranksBy)
    }
}
