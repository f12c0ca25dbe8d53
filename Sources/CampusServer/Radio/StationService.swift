import Accounts
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// Radio stations: admins add, change and remove them (the API, the web app and `campus
/// station`); a source that broadcasts to a mount proves itself with the station's password,
/// which is kept only as a bcrypt hash.
struct StationService: Sendable {
    let database: Database
    let hasher: PasswordHasher
    let now: @Sendable () -> Date
    /// Wrong source passwords, per address and mount: the login throttle's rule, kept apart from
    /// logins and in memory (``FailureMemory``).
    var sourceFailures = FailureMemory<SourceFailure>(throttle: LoginThrottle())
    /// The institution's: when shows are on.
    var timeZone: TimeZone = .gmt

    /// Why a source was refused, as ``FailureMemory`` keeps it.
    enum SourceFailure: Sendable { case wrongPassword }

    /// A station as written: what a form, the API or the command line sends. A new station needs
    /// a source password; a change without one keeps the old.
    struct Draft: Sendable {
        var name: String
        var mount: String
        var description: String = ""
        var genre: String = ""
        var region: String = ""
        var listenerLimit: Int = Station.defaultListenerLimit
        var programmeID: Int64?
        var recordsBroadcasts = false
        var repeatWindowMinutes = Station.defaultRepeatWindow
        var sourcePassword: String?
    }

    func stations() async throws -> [Station] {
        try await database.read { db in try await RadioStore(db).stations() }
    }

    /// The station at a mount; 404 when there is none.
    func station(mount: String) async throws -> Station {
        guard Station.isMount(mount),
            let station = try await database.read({ db in try await RadioStore(db).station(mount: mount) })
        else { throw Refusal.notFound("There is no station at {mount}.", ["mount": mount]) }
        return station
    }

    /// Adds a station; `actor` nil is the command line, which the server's owner runs.
    func add(_ draft: Draft, by actor: Account?) async throws -> Station {
        try Self.requireAdmin(actor)
        let station = try Self.checked(draft, id: 0, new: true)
        try await checkProgramme(station.programmeID)
        let hash = try await hasher.hash(draft.sourcePassword ?? "")
        let now = now()
        let added = try await database.write { db -> Station? in
            guard let added = try await RadioStore(db).add(station, sourcePasswordHash: hash, now: now) else {
                return nil
            }
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .stationCreated, actor: AuditActor(actor), target: Self.auditTarget(added),
                    after: Self.auditText(added)))
            return added
        }
        guard let added else {
            throw Refusal.conflict("Another station broadcasts at {mount}.", ["mount": station.mount])
        }
        return added
    }

    /// Changes the station at `mount`.
    func update(mount: String, _ draft: Draft, by actor: Account?) async throws -> Station {
        try Self.requireAdmin(actor)
        let existing = try await station(mount: mount)
        let station = try Self.checked(draft, id: existing.id, new: false)
        try await checkProgramme(station.programmeID)
        var newHash: String?
        if let password = draft.sourcePassword { newHash = try await hasher.hash(password) }
        let hash = newHash
        let now = now()
        let updated = try await database.write { db in
            let store = RadioStore(db)
            if station.mount != existing.mount, try await store.station(mount: station.mount) != nil {
                throw Refusal.conflict("Another station broadcasts at {mount}.", ["mount": station.mount])
            }
            guard try await store.update(station, sourcePasswordHash: hash, now: now) else { return false }
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .stationChanged, actor: AuditActor(actor), target: Self.auditTarget(station),
                    before: Self.auditText(existing),
                    after: Self.auditText(station) + (hash == nil ? "" : "; new source password")))
            return true
        }
        guard updated else { throw Refusal.notFound("There is no station at {mount}.", ["mount": mount]) }
        return station
    }

    // MARK: Images

    /// Stores a station's image (PNG, JPEG or WebP by its bytes, at most 2 MiB).
    func setImage(mount: String, contentType: String, data: [UInt8], by actor: Account?) async throws -> Station {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        guard data.count <= BodyLimits.stationImage else { throw Refusal.tooLarge(limit: BodyLimits.stationImage) }
        let kind = try ImageKind.of(
            data, sentAs: contentType, field: "image",
            notAnImage: Phrase("A station's image must be a PNG, JPEG or WebP image."))
        let now = now()
        try await database.write { db in
            try await RadioStore(db).setImage(stationID: station.id, contentType: kind.mediaType, data: data, now: now)
        }
        return station
    }

    func deleteImage(mount: String, by actor: Account?) async throws {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        try await database.write { db in try await RadioStore(db).deleteImage(stationID: station.id) }
    }

    /// A station's image; 404 when it has none.
    func image(mount: String) async throws -> StoredImage {
        let station = try await station(mount: mount)
        guard let image = try await database.read({ db in try await RadioStore(db).image(stationID: station.id) })
        else { throw Refusal.notFound("{name} has no image.", ["name": station.name]) }
        return image
    }

    /// Where each of `stations`' image is, for those that have one (one read of the versions).
    func imageURLs(of stations: [Station]) async throws -> [Int64: String] {
        let versions = try await database.read { db in try await RadioStore(db).imageVersions() }
        var urls: [Int64: String] = [:]
        for station in stations {
            if let version = versions[station.id] {
                urls[station.id] = Self.imageURL(mount: station.mount, version: version)
            }
        }
        return urls
    }

    /// A station's image's address: it changes with the image, so that it can be kept long.
    static func imageURL(mount: String, version: Date) -> String {
        APIRoutes.stationImage.path(mount, query: [("v", String(version.epoch))])
    }

    /// Likes the station at `mount`, or no longer: a liked station tells the user when it goes on
    /// the air.
    func like(mount: String, _ liked: Bool, by user: Account) async throws {
        let station = try await station(mount: mount)
        try await database.write { db in
            try await RadioStore(db).setLike(userID: user.id, stationID: station.id, liked: liked, now: now())
        }
    }

    /// The ids of the stations the user likes.
    func liked(by user: Account) async throws -> Set<Int64> {
        try await database.read { db in try await RadioStore(db).likedStations(userID: user.id) }
    }

    /// The listener's radio events, newest first, with the mount of each station that is still there.
    func history(of user: Account, limit: Int) async throws -> [(RadioStore.Listening, String?)] {
        try await database.read { db in
            let store = RadioStore(db)
            let mounts = Dictionary(uniqueKeysWithValues: try await store.stations().map { ($0.id, $0.mount) })
            return try await store.listening(userID: user.id, limit: limit).map {
                ($0, $0.stationID.flatMap { mounts[$0] })
            }
        }
    }

    func remove(mount: String, by actor: Account?) async throws {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        let now = now()
        try await database.write { db in
            guard try await RadioStore(db).delete(stationID: station.id) else { return }
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .stationDeleted, actor: AuditActor(actor), target: Self.auditTarget(station),
                    before: Self.auditText(station)))
        }
    }

    /// A station as the audit log names it, and what it keeps of its settings (never a password).
    static func auditTarget(_ station: Station) -> AuditTarget {
        AuditTarget(kind: "station", id: station.id, label: station.name)
    }

    private static func auditText(_ station: Station) -> String {
        "\(station.name) at /\(station.mount), \(station.listenerLimit) listeners"
            + (station.recordsBroadcasts ? ", recorded" : "")
    }

    /// The station a source may broadcast to: its mount exists and the password is its own.
    /// nil for a wrong password; 404 for a mount no station has; 429 while `address` has tried
    /// too many wrong passwords for the mount (then the password is not even checked), as a login
    /// is throttled, but counted apart from logins: neither locks the other out.
    func authenticateSource(mount: String, password: String, from address: String) async throws -> Station? {
        let station = try await station(mount: mount)
        let scope = "source \(station.mount) \(address)"
        let digest = Token.hash(password)
        switch sourceFailures.begin(scope: scope, digest: digest, now: now()) {
        case .allowed: break
        case .failedBefore: return nil
        case .blocked(let seconds): throw Self.tooManyWrongPasswords(retryAfterSeconds: seconds)
        }
        guard
            let hash = try await database.read({ db in
                try await RadioStore(db).sourcePasswordHash(stationID: station.id)
            }),
            try await hasher.verify(password, hash: hash)
        else {
            sourceFailures.failed(.wrongPassword, scope: scope, digest: digest, now: now())
            return nil
        }
        sourceFailures.succeeded(scope: scope, digest: digest)
        return station
    }

    /// 429: the address tried too many wrong source passwords; it may try again after
    /// `retryAfterSeconds`.
    static func tooManyWrongPasswords(retryAfterSeconds: Int) -> Refusal {
        Refusal.tooManyAttempts(
            retryAfterSeconds: retryAfterSeconds,
            oneMinute: Phrase("Too many wrong source passwords from your address. Try again in {minutes} minute."),
            minutes: Phrase("Too many wrong source passwords from your address. Try again in {minutes} minutes."))
    }

    /// 422 unless `id` names a radio programme of the catalogue.
    func checkProgramme(_ id: Int64?) async throws {
        guard let id else { return }
        let parent = try await database.read { db in try await ListenStore(db).parent(id: id) }
        guard let parent, parent.kind == .programme else {
            throw Refusal.invalid(
                FieldProblem(field: "programmeId", detail: "There is no radio programme {id}.", ["id": String(id)]))
        }
    }

    static func requireAdmin(_ actor: Account?) throws {
        if let actor, actor.role != .admin { throw Refusal.notAllowed("Only admins manage radio stations.") }
    }

    /// A draft after the rules: names and words of one line within their lengths, a mount Icecast
    /// clients can use, a listener limit in range, a source password long enough.
    static func checked(_ draft: Draft, id: Int64, new: Bool) throws -> Station {
        var validator = Validator()
        func line(_ text: String, _ field: String, limit: Int, required: Bool) -> String {
            let trimmed = TextRules.trimmed(text)
            if required, trimmed.isEmpty {
                validator.add(FieldProblem(field: field, detail: "{field} is empty.", ["field": field]))
            } else if var problem = TextRules.problem(in: trimmed, limit: limit) {
                problem.values["field"] = field
                validator.add(FieldProblem(field: field, problem))
            }
            return trimmed
        }
        let name = line(draft.name, "name", limit: Station.nameLength, required: true)
        let genre = line(draft.genre, "genre", limit: Station.genreLength, required: false)
        let region = line(draft.region, "region", limit: Station.regionLength, required: false)
        let description = TextRules.trimmed(draft.description)
        if var problem = TextRules.problem(in: description, limit: Station.descriptionLength, multiline: true) {
            problem.values["field"] = "description"
            validator.add(FieldProblem(field: "description", problem))
        }
        if !Station.isMount(draft.mount) {
            validator.add(
                FieldProblem(
                    field: "mount",
                    detail:
                        "A mount has 1 to 64 lower-case letters, digits, dots, hyphens and underscores, and starts with a letter or digit."
                ))
        }
        if !Station.listenerLimits.contains(draft.listenerLimit) {
            validator.add(
                FieldProblem(
                    field: "listenerLimit", detail: "A station takes {minimum} to {maximum} listeners at once.",
                    ["minimum": "1", "maximum": String(Station.listenerLimits.upperBound)]))
        }
        if !Station.repeatWindows.contains(draft.repeatWindowMinutes) {
            validator.add(
                FieldProblem(
                    field: "repeatWindowMinutes", detail: "A track waits {minimum} to {maximum} minutes to play again.",
                    ["minimum": "0", "maximum": String(Station.repeatWindows.upperBound)]))
        }
        if let password = draft.sourcePassword {
            if !Station.passwordLengths.contains(password.count) {
                validator.add(
                    FieldProblem(
                        field: "sourcePassword",
                        detail: "A source password has {minimum} to {maximum} characters.",
                        [
                            "minimum": String(Station.passwordLengths.lowerBound),
                            "maximum": String(Station.passwordLengths.upperBound),
                        ]))
            }
        } else if new {
            validator.add(FieldProblem(field: "sourcePassword", detail: "A new station needs a source password."))
        }
        if draft.recordsBroadcasts, draft.programmeID == nil {
            validator.add(
                FieldProblem(
                    field: "recordsBroadcasts",
                    detail: "A station records its broadcasts into a radio programme: choose one."))
        }
        try validator.finish()
        return Station(
            id: id, name: name, mount: draft.mount, description: description, genre: genre, region: region,
            listenerLimit: draft.listenerLimit, programmeID: draft.programmeID,
            recordsBroadcasts: draft.recordsBroadcasts, repeatWindowMinutes: draft.repeatWindowMinutes)
    }
}
