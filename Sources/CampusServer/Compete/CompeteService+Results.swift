import Accounts
import Compete
import Foundation
import InputRules
import Storage

/// Results: an organizer's, and storing any result with its audit entry, its notices and, for
/// one a participant sent, its plausibility review.
extension CompeteService {
    /// A deactivated competition's results stay as they are (409).
    static func requireActiveResults(_ competition: Competition) throws {
        guard competition.isActive else {
            throw inactive(
                competition,
                detail: "“{name}” is deactivated: results cannot change. Its organizer can activate it again.")
        }
    }

    /// Enters, corrects (or with nil clears) a participant's result.
    func setResult(_ id: Int64, participant: Int64, value: Double?, by user: Account) async throws -> Entry {
        let competition = try await managed(id, by: user).competition
        try Self.requireActiveResults(competition)
        try Self.requireRace(competition)
        var stored: Double?
        if let value {
            do {
                stored = try CompetitionRules.result(value, for: competition.metric)
            } catch {
                throw Refusal.invalid(error.fieldProblem)
            }
        }
        return try await store(stored, track: nil, in: competition, participant: participant, correctedBy: user)
    }

    /// Stores a result; one set by somebody other than the participant (`correctedBy`, an
    /// organizer or an admin) leaves its entry in the audit log, in the same transaction. One
    /// that the participant sent (a track, a live track) that looks implausible waits for an
    /// organizer's review instead of counting (``CompeteService/review(of:track:facts:in:participant:others:)``).
    func store(
        _ value: Double?, track: TrackStatistics?, laps: [Double]? = nil, facts: TrackFacts? = nil,
        in competition: Competition, participant: Int64, correctedBy corrector: Account?
    ) async throws -> Entry {
        let now = now()
        let id = competition.id
        // An organizer vouches for what they enter; a challenge's total is checked by nobody.
        let trusted = corrector.map { $0.id != participant } ?? false || competition.kind == .challenge
        let others =
            trusted
            ? []
            : try await leaderboards.snapshot(id)?.ranked.compactMap {
                $0.entry.participantID == participant ? nil : $0.entry.result
            } ?? []
        let review =
            trusted
            ? nil
            : Self.review(
                of: value, track: track, facts: facts, in: competition, others: others, now: now)
        let changed = try await database.write { [notices] db -> (Entry, Int64)? in
            let store = CompeteStore(db)
            guard let previous = try await store.entry(competitionID: id, userID: participant) else { return nil }
            let before = try await notices?.standing(of: competition, in: db)
            try await store.setResult(
                competitionID: id, userID: participant, value: value, track: track, laps: laps, review: review,
                now: now)
            guard let entry = try await store.entry(competitionID: id, userID: participant),
                let version = try await store.resultsVersion(id: id)
            else { return nil }
            if let corrector, corrector.id != participant {
                try await AuditStore(db).record(
                    AuditEntry(
                        at: now, action: .resultCorrected, actor: AuditActor(corrector),
                        target: AuditTarget(
                            kind: "entry", id: "\(id)/\(participant)",
                            label: "\(competition.name): \(entry.participantName)"),
                        before: previous.result.map {
                            ResultText.format($0, metric: competition.metric, unit: competition.unit)
                        },
                        after: entry.result.map {
                            ResultText.format($0, metric: competition.metric, unit: competition.unit)
                        }))
            }
            if let notices, let before {
                try await notices.resultChanged(
                    competition, participant: participant, result: entry.result, version: version, before: before,
                    in: db, now: now)
            }
            return (entry, version)
        }
        guard let (entry, version) = changed else {
            throw Self.notParticipant(
                detail: "Account {id} is not in this competition.", ["id": String(participant)])
        }
        await leaderboards.changed(id, version: version, participant: participant, entry: entry)
        return entry
    }
}
