import Accounts
import Compete
import Foundation
import InputRules
import Storage

/// Challenges (issue 41): participants log activities over the challenge's period, and their
/// result is the sum; a challenge (or a race) may be open to one faculty's students only.
extension CompeteService {
    /// Logs an activity: the participant themselves (or an organizer for them, from a track),
    /// while active; the result becomes the sum of the participant's activities.
    func addActivity(
        _ id: Int64, participant: Int64, value: Double, at: Date?, note: String, source: ActivitySource,
        by user: Account
    ) async throws -> (Activity, Entry) {
        let visible = try await visible(id, to: user)
        let competition = visible.competition
        guard participant == user.id || visible.canManage else {
            throw Refusal.notAllowed("Only the participant or the competition's organizers may log this activity.")
        }
        try Self.requireChallenge(competition)
        try Self.requireActiveResults(competition)
        let now = now()
        let kept: (value: Double, at: Date, note: String)
        do {
            kept = try ActivityRules.validated(value: value, at: at ?? now, note: note, in: competition, now: now)
        } catch {
            throw Refusal.invalid(error.fieldProblem)
        }
        let changed = try await database.write { db -> (Activity, Entry, Int64)? in
            let store = CompeteStore(db)
            guard try await store.entry(competitionID: id, userID: participant) != nil else { return nil }
            guard
                try await store.activityTotal(competitionID: id, userID: participant).count
                    < ActivityRules.perParticipant
            else {
                throw Refusal.conflict(
                    "A participant logs at most {limit} activities in a challenge.",
                    ["limit": String(ActivityRules.perParticipant)])
            }
            let activity = try await store.addActivity(
                competitionID: id, userID: participant, value: kept.value, at: kept.at, note: kept.note, source: source,
                now: now)
            guard
                let (entry, version) = try await Self.total(
                    store, competitionID: id, participant: participant, now: now)
            else { return nil }
            return (activity, entry, version)
        }
        guard let (activity, entry, version) = changed else {
            throw Self.notParticipant(detail: "Account {id} is not in this competition.", ["id": String(participant)])
        }
        await leaderboards.changed(id, version: version, participant: participant, entry: entry)
        return (activity, entry)
    }

    /// Deletes an activity: its participant or the competition's organizers, while active.
    func deleteActivity(_ id: Int64, activity activityID: Int64, by user: Account) async throws -> Entry {
        let visible = try await visible(id, to: user)
        let competition = visible.competition
        try Self.requireChallenge(competition)
        let now = now()
        let changed = try await database.write { db -> (Entry, Int64)? in
            let store = CompeteStore(db)
            guard let activity = try await store.activity(id: activityID, competitionID: id) else {
                throw Refusal.notFound("There is no activity {id} in this challenge.", ["id": String(activityID)])
            }
            guard activity.participantID == user.id || visible.canManage else {
                throw Refusal.notAllowed(
                    "Only the participant or the competition's organizers may delete this activity.")
            }
            try Self.requireActiveResults(competition)
            try await store.deleteActivity(id: activityID)
            return try await Self.total(store, competitionID: id, participant: activity.participantID, now: now)
        }
        guard let (entry, version) = changed else { throw Self.notFound(id) }
        await leaderboards.changed(id, version: version, participant: entry.participantID, entry: entry)
        return entry
    }

    /// A participant's activities: to themselves and the competition's organizers.
    func activities(_ id: Int64, participant: Int64, by user: Account) async throws -> (Visible, [Activity]) {
        let visible = try await visible(id, to: user)
        return (visible, try await activities(visible, participant: participant, by: user))
    }

    /// The same, for a competition the caller has read already (the competition page).
    func activities(_ visible: Visible, participant: Int64, by user: Account) async throws -> [Activity] {
        let id = visible.competition.id
        guard participant == user.id || visible.canManage else {
            throw Refusal.notAllowed("Only the participant or the competition's organizers see these activities.")
        }
        try Self.requireChallenge(visible.competition)
        return try await database.read { db in
            try await CompeteStore(db).activities(competitionID: id, userID: participant)
        }
    }

    /// The participant's result made the sum of their activities (none: no result).
    private static func total(_ store: CompeteStore, competitionID id: Int64, participant: Int64, now: Date)
        async throws -> (Entry, Int64)?
    {
        let total = try await store.activityTotal(competitionID: id, userID: participant)
        try await store.setResult(competitionID: id, userID: participant, value: total.sum, track: nil, now: now)
        guard let entry = try await store.entry(competitionID: id, userID: participant),
            let version = try await store.resultsVersion(id: id)
        else { return nil }
        return (entry, version)
    }

    static func requireChallenge(_ competition: Competition) throws {
        guard competition.kind == .challenge else {
            throw Refusal.conflict("Only a challenge takes activities; a race takes one result per participant.")
        }
    }

    /// A race's results are entered; a challenge's are the sum of its activities.
    static func requireRace(_ competition: Competition) throws {
        guard competition.kind == .race else {
            throw Refusal.conflict("A challenge's results are the sum of its participants' activities.")
        }
    }

    /// A competition open to one faculty takes only students whose profile's group is of it.
    func checkFaculty(_ competition: Competition, user: Account) async throws {
        guard let faculty = competition.faculty else { return }
        let theirs = try await database.read { db -> String? in
            let store = TimetableStore(db)
            guard let name = user.group, let group = try await store.group(named: name),
                let facultyID = group.facultyID
            else { return nil }
            return try await store.faculties().first { $0.id == facultyID }?.abbreviation
        }
        guard theirs?.lowercased() == faculty.lowercased() else {
            throw Refusal.notAllowed(
                "“{name}” is for students of {faculty}: set your group in your profile if you are one.",
                ["name": competition.name, "faculty": faculty])
        }
    }
}
