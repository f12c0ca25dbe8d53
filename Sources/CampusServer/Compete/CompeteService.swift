import Accounts
import Compete
import Foundation
import InputRules
import Logging
import Storage

/// Who may do what to competitions, and doing it: the rules the API, the web app and the
/// demo share. Every permission is checked here, on the server (seed 002 only hid buttons).
struct CompeteService: Sendable {
    let database: Database
    let leaderboards: Leaderboards
    /// The live streams of tracks (issue 41).
    let liveTracks: LiveTracks
    /// The live streams of chats (issue 41).
    let liveChat: LiveChat
    let seriesRecords: SeriesRecords
    /// What participants are told (issue 39); nil tells nobody.
    var notices: CompetitionNotices?
    /// The institution's time zone: the race day's calendar.
    let timeZone: TimeZone
    let now: @Sendable () -> Date
    let logger: Logger

    /// A competition with what the viewer may do with it.
    struct Visible: Sendable {
        var row: CompetitionRow
        /// Its owner, a co-organizer or an admin: results, participants, its details.
        var canManage: Bool
        /// Its owner or an admin: also deleting it, (de)activating it, and its co-organizers.
        var canOwn: Bool
        var competition: Competition { row.competition }
        var isJoined: Bool { row.myEntry != nil }
    }

    // MARK: Permissions

    static func canOwn(_ competition: Competition, _ user: Account) -> Bool {
        user.role == .admin || competition.ownerID == user.id
    }

    static func canManage(_ row: CompetitionRow, _ user: Account) -> Bool {
        canOwn(row.competition, user) || row.viewerOrganizes
    }

    /// The competition with what the user may do with it. Every signed-in user may see every
    /// competition: a deactivated one keeps its ranking visible (seed 002), and a join is then
    /// refused with 409, not hidden.
    func visible(_ id: Int64, to user: Account) async throws -> Visible {
        guard
            let row = try await database.read({ db in
                try await CompeteStore(db).competitionRow(id: id, viewerID: user.id)
            })
        else { throw Self.notFound(id) }
        return Self.visible(row, to: user)
    }

    static func visible(_ row: CompetitionRow, to user: Account) -> Visible {
        Visible(row: row, canManage: canManage(row, user), canOwn: canOwn(row.competition, user))
    }

    /// The competition if the user may manage it (its owner, a co-organizer or an admin): 403
    /// otherwise.
    func managed(_ id: Int64, by user: Account) async throws -> Visible {
        let visible = try await visible(id, to: user)
        guard visible.canManage else {
            throw Refusal.notAllowed("Only the competition's organizers or an admin may do this.")
        }
        return visible
    }

    /// The competition if the user owns it (or is an admin): 403 to co-organizers and others.
    func owned(_ id: Int64, by user: Account) async throws -> Visible {
        let visible = try await visible(id, to: user)
        guard visible.canOwn else {
            throw Refusal.notAllowed("Only the competition's owner or an admin may do this.")
        }
        return visible
    }

    /// The ranking kept in memory, so that reading a page of a big ranking costs at most one
    /// query for its version.
    func ranking(_ id: Int64, for user: Account) async throws -> Leaderboards.Snapshot {
        guard let snapshot = try await leaderboards.snapshot(id) else { throw Self.notFound(id) }
        return snapshot
    }

    /// A competition's participants with their emails, by name, for its organizer (or an admin).
    func participants(_ id: Int64, by user: Account) async throws -> (
        visible: Visible, entries: [(entry: Entry, email: String)]
    ) {
        let visible = try await managed(id, by: user)
        let entries = try await database.read { db in try await CompeteStore(db).entries(competitionID: id) }
        return (visible, entries.sorted { $0.entry.participantName < $1.entry.participantName })
    }

    /// `detail` is a literal message (scripts/extract-messages finds it), `values` its changing parts.
    static func notParticipant(detail message: String, _ values: [String: String]) -> Refusal {
        Refusal(.conflict, detail: message, values, kind: Refusal.Kind("not-a-participant", title: "Not a participant"))
    }

    /// A GPX file that gives no result.
    static let unusableGPX = Refusal.Kind("unusable-gpx", title: "The GPX file cannot give a result")

    static func notFound(_ id: Int64) -> Refusal {
        Refusal.notFound("There is no competition {id}.", ["id": String(id)])
    }

    /// `detail` is a literal message (scripts/extract-messages finds it) that names the
    /// competition as `{name}`: a whole sentence for each thing that cannot happen.
    static func inactive(_ competition: Competition, detail message: String) -> Refusal {
        Refusal(
            .conflict, detail: message, ["name": competition.name],
            kind: Refusal.Kind("competition-inactive", title: "The competition is deactivated"))
    }

    // MARK: Organizer

    func create(_ draft: CompetitionDraft, by user: Account, reusing template: Competition? = nil) async throws
        -> Competition
    {
        guard user.role.includes(.organizer) else {
            throw Refusal.notAllowed(
                "Only organizers create competitions. An admin can make your account an organizer.")
        }
        let draft = try CompetitionRules.validated(draft)
        let now = now()
        let competition = try await database.write { db in
            let store = CompeteStore(db)
            guard try await store.competitionCount(ownerID: user.id) < CompetitionRules.ownedLimit else {
                throw Refusal.conflict(
                    "You have {limit} competitions already; delete some you no longer need first.",
                    ["limit": String(CompetitionRules.ownedLimit)])
            }
            return try await store.createCompetition(draft, ownerID: user.id, template: template, now: now)
        }
        logger.info(
            "competition created",
            metadata: ["competition": "\(competition.id)", "by": "\(user.id)", "template": "\(template?.id ?? 0)"])
        return competition
    }

    /// A new competition pre-filled from one in the organizer's library, with `change` applied.
    func reuse(_ id: Int64, change: CompetitionChange, by user: Account) async throws -> Competition {
        let template = try await managed(id, by: user).competition
        return try await create(change.applied(to: CompetitionDraft(reusing: template)), by: user, reusing: template)
    }

    /// Edits a competition while it is active.
    func edit(_ id: Int64, change: CompetitionChange, by user: Account) async throws -> Competition {
        let competition = try await managed(id, by: user).competition
        guard competition.isActive else {
            throw Self.inactive(
                competition,
                detail: "“{name}” is deactivated: it cannot be edited. Its organizer can activate it again.")
        }
        let draft = try CompetitionRules.validated(change.applied(to: CompetitionDraft(reusing: competition)))
        if draft.kind != competition.kind {
            throw Refusal.invalid(
                FieldProblem(
                    field: "kind", detail: "A race stays a race and a challenge a challenge; reuse it instead."))
        }
        if draft.metric != competition.metric {
            let hasResults = try await database.read { db in
                try await CompeteStore(db).entries(competitionID: id).contains { $0.entry.result != nil }
            }
            if hasResults {
                throw Refusal.invalid(
                    FieldProblem(
                        field: "metric",
                        detail:
                            "The metric cannot change once results are entered; clear them or reuse the competition."))
            }
        }
        let now = now()
        try await database.write { db in
            let store = CompeteStore(db)
            try await store.updateCompetition(id: id, draft, now: now)
            if let updated = try await store.competition(id: id) {
                try await recategorize(updated, was: competition, in: store)
            }
        }
        await leaderboards.changed(id)
        return try await visible(id, to: user).competition
    }

    func setActive(_ id: Int64, _ active: Bool, by user: Account) async throws -> Competition {
        let competition = try await owned(id, by: user).competition
        if competition.isActive != active {
            let now = now()
            try await database.write { [notices] db in
                try await CompeteStore(db).setActive(id: id, active, now: now)
                try await notices?.activeChanged(competition, active: active, in: db, now: now)
            }
            await leaderboards.changed(id)
            logger.info("competition \(active ? "activated" : "deactivated")", metadata: ["competition": "\(id)"])
        }
        return try await visible(id, to: user).competition
    }

    func delete(_ id: Int64, by user: Account) async throws {
        let competition = try await owned(id, by: user).competition
        let now = now()
        try await database.write { db in
            try await CompeteStore(db).deleteCompetition(id: id)
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .competitionDeleted, actor: AuditActor(user),
                    target: AuditTarget(kind: "competition", id: id, label: competition.name)))
        }
        await leaderboards.changed(id)
        logger.info("competition deleted", metadata: ["competition": "\(id)", "by": "\(user.id)"])
    }

    func kick(_ id: Int64, participant: Int64, by user: Account) async throws {
        let competition = try await managed(id, by: user).competition
        guard competition.isActive else {
            throw Self.inactive(
                competition,
                detail: "“{name}” is deactivated: nobody can be removed. Its organizer can activate it again.")
        }
        let version = try await database.write { db -> Int64? in
            let store = CompeteStore(db)
            guard try await store.leave(competitionID: id, userID: participant) else { return nil }
            return try await store.resultsVersion(id: id)
        }
        guard let version else {
            throw Self.notParticipant(
                detail: "Account {id} is not in this competition.", ["id": String(participant)])
        }
        await leaderboards.changed(id, version: version, participant: participant, entry: nil)
    }

    // MARK: Participant

    /// Joins, with the category, team or birth date in `details`.
    func join(_ id: Int64, user: Account, details change: EntryChange = EntryChange()) async throws -> Entry {
        let visible = try await visible(id, to: user)
        guard visible.competition.isActive else {
            throw Self.inactive(
                visible.competition,
                detail: "“{name}” is deactivated: nobody can join. Its organizer can activate it again.")
        }
        try await checkFaculty(visible.competition, user: user)
        let now = now()
        let joined: (Entry, Int64)?
        do {
            joined = try await database.write { db -> (Entry, Int64)? in
                let store = CompeteStore(db)
                let teams =
                    change.team == nil ? [] : try await store.details(competitionID: id).values.compactMap(\.team)
                let details = try joiningDetails(change, in: visible.competition, user: user, teams: teams)
                try await store.join(competitionID: id, userID: user.id, now: now)
                if details != EntryDetails() {
                    try await store.setDetails(competitionID: id, userID: user.id, details, announce: false)
                }
                guard let entry = try await store.entry(competitionID: id, userID: user.id),
                    let version = try await store.resultsVersion(id: id)
                else { return nil }
                return (entry, version)
            }
        } catch CompeteStoreError.alreadyJoined {
            throw Refusal(
                .conflict, detail: "You are in “{name}” already.", ["name": visible.competition.name],
                kind: Refusal.Kind("already-joined", title: "Already joined"))
        }
        guard let (entry, version) = joined else { throw Self.notFound(id) }
        await leaderboards.changed(id, version: version, participant: user.id, entry: entry)
        return entry
    }

    func leave(_ id: Int64, user: Account) async throws {
        let visible = try await visible(id, to: user)
        guard visible.isJoined else {
            throw Self.notParticipant(detail: "You are not in competition {id}.", ["id": String(id)])
        }
        guard visible.competition.isActive else {
            throw Self.inactive(
                visible.competition,
                detail: "“{name}” is deactivated: nobody can leave it. Its organizer can activate it again.")
        }
        let version = try await database.write { db -> Int64? in
            let store = CompeteStore(db)
            _ = try await store.leave(competitionID: id, userID: user.id)
            return try await store.resultsVersion(id: id)
        }
        if let version { await leaderboards.changed(id, version: version, participant: user.id, entry: nil) }
    }

    // MARK: Reading

    func list(_ filter: CompetitionFilter, for user: Account, limit: Int, offset: Int) async throws -> (
        rows: [Visible], total: Int
    ) {
        let result = try await database.read { [filter] db in
            try await CompeteStore(db).competitions(filter, viewerID: user.id, limit: limit, offset: offset)
        }
        return (result.rows.map { Self.visible($0, to: user) }, result.total)
    }

    func statistics(of user: Account) async throws -> Statistics {
        let (results, count) = try await database.read { db in
            let store = CompeteStore(db)
            return (
                try await store.results(participantID: user.id),
                try await store.competitionIDs(participantID: user.id).count
            )
        }
        return Statistics(results: results, competitions: count)
    }

    /// The best of this competition and of every run of its template.
    /// The best of this competition, of every run of its template, and how many runs have results.
    func records(of competition: Competition) async throws -> SeriesRecords.Answer {
        try await seriesRecords.records(of: competition)
    }

    func allRecords() async throws -> (allTime: [Record], series: [Int64: Record]) {
        let results = try await database.read { db in try await CompeteStore(db).bestResults() }
        return (Records.allTime(results), Records.bySeries(results))
    }
}
