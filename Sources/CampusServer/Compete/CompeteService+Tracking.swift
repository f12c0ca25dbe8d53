import Accounts
import Compete
import Foundation
import InputRules
import Storage

/// Live tracking from the phone (issue 41): participants send their positions in batches, the
/// track's figures follow, and a finished track can become the participant's result.
extension CompeteService {
    /// A competition is live while it is active and not past its end: then every signed-in user
    /// may watch its tracks.
    func isLive(_ competition: Competition) -> Bool {
        guard competition.isActive else { return false }
        if let endsAt = competition.endsAt { return now() <= endsAt }
        return true
    }

    /// Refuses who may not watch `participant`'s track (or with nil, the competition's tracks):
    /// its organizers and admins may always, a participant their own, everybody while it is live.
    func checkWatching(_ visible: Visible, participant: Int64?, by user: Account) throws {
        let own = participant.map { $0 == user.id } ?? visible.isJoined
        guard visible.canManage || own || isLive(visible.competition) else {
            throw Refusal.notAllowed(
                "The tracks of a competition that is over are for its organizers and each participant's own.")
        }
    }

    /// Stores a batch of the signed-in participant's positions.
    func track(_ id: Int64, points: [TrackPoint], by user: Account) async throws -> TrackingBatch {
        let visible = try await visible(id, to: user)
        let competition = visible.competition
        guard visible.isJoined else {
            throw Self.notParticipant(
                detail: "Join “{name}” before tracking yourself in it.", ["name": competition.name])
        }
        guard competition.isActive else {
            throw Self.inactive(
                competition,
                detail: "“{name}” is deactivated: it takes no positions. Its organizer can activate it again.")
        }
        guard competition.metric != .points else {
            throw Refusal.conflict("A points competition does not take results from tracks.")
        }
        let now = now()
        // Every broken rule, as a 422 naming `points[i].field` (ProblemMapping).
        let valid = try TrackingRules.validated(points, now: now)
        let batch: TrackingBatch
        do {
            batch = try await database.write { db in
                try await CompeteStore(db).addTrackingPoints(competitionID: id, userID: user.id, valid, now: now)
            }
        } catch TrackingStoreError.full {
            throw Refusal.conflict(
                "A track holds at most {limit} positions.", ["limit": String(TrackingRules.trackLimit)])
        } catch TrackingStoreError.finished {
            throw Refusal.conflict("You finished this track: it takes no more positions.")
        }
        liveTracks.stored(batch)
        return batch
    }

    /// A participant's name and track with its positions; no track before they start.
    func tracking(_ id: Int64, participant: Int64, for user: Account) async throws -> (
        name: String, tracking: Tracking?, points: [TrackPoint]
    ) {
        try checkWatching(try await visible(id, to: user), participant: participant, by: user)
        let read = try await database.read { db -> (String, Tracking?, [TrackPoint])? in
            let store = CompeteStore(db)
            guard let entry = try await store.entry(competitionID: id, userID: participant) else { return nil }
            let tracking = try await store.tracking(competitionID: id, userID: participant)
            let points =
                tracking == nil ? [] : try await store.trackingPoints(competitionID: id, userID: participant)
            return (entry.participantName, tracking, points)
        }
        guard let read else {
            throw Self.notParticipant(detail: "Account {id} is not in this competition.", ["id": String(participant)])
        }
        return read
    }

    /// The signed-in account's own track in a competition, if it started one.
    func ownTracking(_ id: Int64, of user: Account) async throws -> Tracking? {
        try await database.read { db in try await CompeteStore(db).tracking(competitionID: id, userID: user.id) }
    }

    /// Every participant's track (figures and last position).
    func trackings(_ id: Int64, for user: Account) async throws -> (Visible, [Tracking]) {
        let visible = try await visible(id, to: user)
        try checkWatching(visible, participant: nil, by: user)
        let trackings = try await database.read { db in try await CompeteStore(db).trackings(competitionID: id) }
        if visible.canManage || isLive(visible.competition) { return (visible, trackings) }
        return (visible, trackings.filter { $0.userID == user.id })
    }

    /// The tracks and their positions (about `limit` in all) for the live page.
    func liveMap(_ id: Int64, for user: Account, limit: Int) async throws -> (
        visible: Visible, trackings: [Tracking], points: [Int64: [TrackPoint]]
    ) {
        let (visible, trackings) = try await trackings(id, for: user)
        let points = try await database.read { db in
            try await CompeteStore(db).trackingPoints(competitionID: id, limit: limit)
        }
        let shown = Set(trackings.map(\.userID))
        return (visible, trackings, points.filter { shown.contains($0.key) })
    }

    /// The signed-in participant finished: the track takes no more positions, and where the
    /// competition takes participants' own results it becomes theirs at once.
    func finishTracking(_ id: Int64, by user: Account) async throws -> (Tracking, Entry?) {
        let competition = try await visible(id, to: user).competition
        guard competition.isActive else {
            throw Self.inactive(
                competition,
                detail: "“{name}” is deactivated: it takes no positions. Its organizer can activate it again.")
        }
        let now = now()
        let finished = try await database.write { db -> Tracking? in
            let store = CompeteStore(db)
            guard try await store.finishTracking(competitionID: id, userID: user.id, now: now) else { return nil }
            return try await store.tracking(competitionID: id, userID: user.id)
        }
        guard let finished else {
            throw Refusal.conflict("There is no unfinished track of yours in this competition.")
        }
        liveTracks.changed(finished)
        guard competition.participantUploads else { return (finished, nil) }
        let entry = try await store(finished, in: competition, participant: user.id, by: nil)
        return (finished, entry)
    }

    /// An organizer makes a participant's track their result.
    func confirmTracking(_ id: Int64, participant: Int64, by user: Account) async throws -> Entry {
        let competition = try await managed(id, by: user).competition
        try Self.requireActiveResults(competition)
        let tracking = try await database.read { db in
            try await CompeteStore(db).tracking(competitionID: id, userID: participant)
        }
        guard let tracking else {
            throw Self.notParticipant(
                detail: "Account {id} has no live track in this competition.", ["id": String(participant)])
        }
        return try await store(tracking, in: competition, participant: participant, by: user)
    }

    private func store(_ tracking: Tracking, in competition: Competition, participant: Int64, by user: Account?)
        async throws -> Entry
    {
        let value: Double
        do {
            value = try CompetitionRules.result(
                try tracking.track.result(for: competition.metric), for: competition.metric)
        } catch {
            throw Refusal(
                .invalid, phrase: error.phrase, kind: Self.unusableGPX,
                fields: [FieldProblem(field: "tracking", error.phrase)])
        }
        return try await store(
            value, track: tracking.track.statistics, in: competition, participant: participant, correctedBy: user)
    }
}
