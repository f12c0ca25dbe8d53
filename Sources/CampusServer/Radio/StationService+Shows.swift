import Accounts
import Foundation
import InputRules
import Listen
import SQLKit
import Storage

/// A station's show schedule and its DJs (issue 42): admins make the shows; each show's hosts get
/// their own source credentials for the station, accepted only while one of their shows is on
/// (``RadioShow/admits(_:calendar:grace:)``).
extension StationService {
    /// A show as written: what the API or a form sends.
    struct ShowDraft: Sendable {
        var title: String
        var description = ""
        var hostIDs: [Int64]
        var when: RadioShow.When
        var programmeID: Int64?
    }

    /// A show with its hosts' names, as the schedule shows it.
    struct ScheduledShow: Sendable {
        var show: RadioShow
        var hosts: [(id: Int64, name: String)]
    }

    /// The Gregorian calendar in the institution's zone, where shows are on.
    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The station's shows, with their hosts' names.
    func shows(mount: String) async throws -> (Station, [ScheduledShow]) {
        let station = try await station(mount: mount)
        let shows = try await database.read { db in
            let store = AccountStore(db)
            var found: [ScheduledShow] = []
            for show in try await RadioStore(db).shows(stationID: station.id) {
                var hosts: [(Int64, String)] = []
                for id in show.hostIDs {
                    if let user = try await store.user(id: id) {
                        hosts.append((id, "\(user.firstName) \(user.lastName)"))
                    }
                }
                found.append(ScheduledShow(show: show, hosts: hosts))
            }
            return found
        }
        return (station, shows)
    }

    func addShow(mount: String, _ draft: ShowDraft, by actor: Account?) async throws -> (Station, RadioShow) {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        let checked = try Self.checked(draft, id: 0, stationID: station.id)
        try await checkProgramme(checked.programmeID)
        let now = now()
        var show = checked
        show.id = try await database.write { [show = checked] db in
            try await Self.requireAccounts(show.hostIDs, in: db)
            let store = RadioStore(db)
            guard try await store.shows(stationID: station.id).count < RadioShow.stationLimit else {
                throw Refusal.conflict(
                    "A station has at most {count} shows.", ["count": String(RadioShow.stationLimit)])
            }
            let id = try await store.add(show, now: now)
            try await Self.recordChange(of: station, "show \(show.title) added", by: actor, at: now, in: db)
            return id
        }
        return (station, show)
    }

    func updateShow(mount: String, id: Int64, _ draft: ShowDraft, by actor: Account?) async throws -> (
        Station, RadioShow
    ) {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        let show = try Self.checked(draft, id: id, stationID: station.id)
        try await checkProgramme(show.programmeID)
        let now = now()
        try await database.write { db in
            try await Self.requireAccounts(show.hostIDs, in: db)
            guard try await RadioStore(db).update(show, now: now) else { throw Self.noShow(id, station) }
            try await Self.recordChange(of: station, "show \(show.title) changed", by: actor, at: now, in: db)
        }
        return (station, show)
    }

    func deleteShow(mount: String, id: Int64, by actor: Account?) async throws {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        let now = now()
        try await database.write { db in
            guard try await RadioStore(db).deleteShow(id: id, stationID: station.id) else {
                throw Self.noShow(id, station)
            }
            try await Self.recordChange(of: station, "show \(id) removed", by: actor, at: now, in: db)
        }
    }

    /// New source credentials for a host of one of the station's shows (an admin may make them for
    /// themselves on any station): the user name and a password shown once, which replaces the
    /// one before. 403 for anyone else.
    func djCredentials(mount: String, for user: Account) async throws -> (user: String, password: String) {
        let station = try await station(mount: mount)
        let hosts = try await database.read { db in try await RadioStore(db).shows(stationID: station.id) }
        guard user.role == .admin || hosts.contains(where: { $0.hostIDs.contains(user.id) }) else {
            throw Refusal.notAllowed("Only the hosts of {name}'s shows broadcast as its DJs.", ["name": station.name])
        }
        let password = AppCredentialService.makePassword()
        let hash = try await hasher.hash(password)
        let now = now()
        try await database.write { db in
            try await RadioStore(db).setDJPassword(stationID: station.id, userID: user.id, hash: hash, now: now)
        }
        return (RadioShow.djUser(user.id), password)
    }

    /// The station and the show a DJ broadcasts in, when `password` is the DJ's for the station
    /// and one of their shows is on (within its grace); nil for a wrong password (throttled as a
    /// source's); 403 outside their shows' time.
    func authenticateDJ(mount: String, userID: Int64, password: String, from address: String) async throws -> (
        Station, RadioShow
    )? {
        let station = try await station(mount: mount)
        let scope = "dj \(station.mount) \(address)"
        let digest = Token.hash(password)
        switch sourceFailures.begin(scope: scope, digest: digest, now: now()) {
        case .allowed: break
        case .failedBefore: return nil
        case .blocked(let seconds): throw Self.tooManyWrongPasswords(retryAfterSeconds: seconds)
        }
        let (hash, shows) = try await database.read { db in
            let store = RadioStore(db)
            return (
                try await store.djPasswordHash(stationID: station.id, userID: userID),
                try await store.shows(stationID: station.id)
            )
        }
        guard let hash, try await hasher.verify(password, hash: hash) else {
            sourceFailures.failed(.wrongPassword, scope: scope, digest: digest, now: now())
            return nil
        }
        sourceFailures.succeeded(scope: scope, digest: digest)
        let now = now()
        guard let show = shows.first(where: { $0.hostIDs.contains(userID) && $0.admits(now, calendar: calendar) })
        else {
            throw Refusal.notAllowed(
                "None of your shows on {name} is on now: a DJ broadcasts in their show's time.", ["name": station.name])
        }
        return (station, show)
    }

    /// The accounts of these e-mail addresses, in order; 422 naming `hosts` for one that is none.
    func accountIDs(emails: [String]) async throws -> [Int64] {
        try await database.read { db in
            let store = AccountStore(db)
            var ids: [Int64] = []
            for email in emails.prefix(RadioShow.hostLimit + 1) {
                guard let account = try await store.credentials(email: email)?.user else {
                    throw Refusal.invalid(
                        FieldProblem(field: "hosts", detail: "Nobody has the address {email}.", ["email": email]))
                }
                ids.append(account.id)
            }
            return ids
        }
    }

    private static func noShow(_ id: Int64, _ station: Station) -> Refusal {
        Refusal.notFound("{name} has no show {id}.", ["name": station.name, "id": String(id)])
    }

    /// 422 naming `hosts` unless every id is an account.
    private static func requireAccounts(_ ids: [Int64], in db: any SQLDatabase) async throws {
        let store = AccountStore(db)
        for id in ids where try await store.user(id: id) == nil {
            throw Refusal.invalid(FieldProblem(field: "hosts", detail: "There is no account {id}.", ["id": String(id)]))
        }
    }

    /// A show after the rules: a title of one line, a description, 1 to ``RadioShow/hostLimit``
    /// hosts, days and times that make a slot, a one-off that ends after it starts, within a day.
    static func checked(_ draft: ShowDraft, id: Int64, stationID: Int64) throws -> RadioShow {
        var validator = Validator()
        let title = TextRules.trimmed(draft.title)
        if title.isEmpty {
            validator.add(FieldProblem(field: "title", detail: "{field} is empty.", ["field": "title"]))
        } else if var problem = TextRules.problem(in: title, limit: RadioShow.titleLength) {
            problem.values["field"] = "title"
            validator.add(FieldProblem(field: "title", problem))
        }
        let description = TextRules.trimmed(draft.description)
        if var problem = TextRules.problem(in: description, limit: RadioShow.descriptionLength, multiline: true) {
            problem.values["field"] = "description"
            validator.add(FieldProblem(field: "description", problem))
        }
        let hosts = Array(Set(draft.hostIDs)).sorted()
        if hosts.isEmpty || hosts.count > RadioShow.hostLimit {
            validator.add(
                FieldProblem(
                    field: "hosts", detail: "A show has 1 to {maximum} hosts.",
                    ["maximum": String(RadioShow.hostLimit)]))
        }
        switch draft.when {
        case .weekly(let block):
            if block.weekdays.isEmpty || !block.weekdays.isSubset(of: Set(TimeBlock.days)) {
                validator.add(FieldProblem(field: "weekdays", detail: "Choose the days of the week it plays."))
            }
            if block.from == block.to {
                validator.add(FieldProblem(field: "to", detail: "A time block ends at another time than it starts."))
            }
        case .once(let start, let end):
            if end <= start || end.timeIntervalSince(start) > RadioShow.longest {
                validator.add(FieldProblem(field: "endsAt", detail: "A show ends after it starts, within a day."))
            }
        }
        try validator.finish()
        return RadioShow(
            id: id, stationID: stationID, title: title, description: description, hostIDs: hosts, when: draft.when,
            programmeID: draft.programmeID)
    }
}
