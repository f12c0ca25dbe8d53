import Accounts
import Foundation
import InputRules
import Listen
import SQLKit
import Storage

/// A station's AutoDJ playlists (issue 42): admins make and change them; anyone reads what the
/// station played.
extension StationService {
    /// A playlist as written: what the API or a form sends.
    struct PlaylistDraft: Sendable {
        var name: String
        var rule: RotationPlaylist.Rule
        var sources: [RotationPlaylist.Source]
        var enabled = true
    }

    /// The station's playlists, with how many tracks with a file each holds now.
    func playlists(mount: String, by actor: Account?) async throws -> (Station, [(RotationPlaylist, tracks: Int)]) {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        let playlists = try await database.read { db in
            let store = RadioStore(db)
            var found: [(RotationPlaylist, tracks: Int)] = []
            for playlist in try await store.playlists(stationID: station.id) {
                found.append((playlist, try await store.playableMedia(playlist.sources).count))
            }
            return found
        }
        return (station, playlists)
    }

    /// Adds a playlist to the station.
    func addPlaylist(mount: String, _ draft: PlaylistDraft, by actor: Account?) async throws -> (
        Station, RotationPlaylist
    ) {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        let checked = try Self.checked(draft, id: 0, stationID: station.id)
        let now = now()
        var playlist = checked
        playlist.id = try await database.write { [playlist = checked] db in
            let store = RadioStore(db)
            try await Self.requireKnown(playlist.sources, in: store)
            guard try await store.playlists(stationID: station.id).count < RotationPlaylist.stationLimit else {
                throw Refusal.conflict(
                    "A station has at most {count} playlists.", ["count": String(RotationPlaylist.stationLimit)])
            }
            let id = try await store.add(playlist, now: now)
            try await Self.recordChange(of: station, "playlist \(playlist.name) added", by: actor, at: now, in: db)
            return id
        }
        return (station, playlist)
    }

    /// Replaces a playlist of the station; 404 when it has none of that id.
    func updatePlaylist(mount: String, id: Int64, _ draft: PlaylistDraft, by actor: Account?) async throws -> (
        Station, RotationPlaylist
    ) {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        let playlist = try Self.checked(draft, id: id, stationID: station.id)
        let now = now()
        try await database.write { db in
            let store = RadioStore(db)
            try await Self.requireKnown(playlist.sources, in: store)
            guard try await store.update(playlist, now: now) else { throw Self.noPlaylist(id, station) }
            try await Self.recordChange(of: station, "playlist \(playlist.name) changed", by: actor, at: now, in: db)
        }
        return (station, playlist)
    }

    /// Removes a playlist of the station; 404 when it has none of that id.
    func deletePlaylist(mount: String, id: Int64, by actor: Account?) async throws -> Station {
        try Self.requireAdmin(actor)
        let station = try await station(mount: mount)
        let now = now()
        try await database.write { db in
            guard try await RadioStore(db).deletePlaylist(id: id, stationID: station.id) else {
                throw Self.noPlaylist(id, station)
            }
            try await Self.recordChange(of: station, "playlist \(id) removed", by: actor, at: now, in: db)
        }
        return station
    }

    /// What the station played, newest first: AutoDJ's tracks, requests and live sources' titles.
    func history(mount: String, limit: Int) async throws -> [RadioStore.PlayRecord] {
        let station = try await station(mount: mount)
        return try await database.read { db in try await RadioStore(db).plays(stationID: station.id, limit: limit) }
    }

    /// The audit log's entry of a change to the station's playlists or shows.
    static func recordChange(
        of station: Station, _ what: String, by actor: Account?, at now: Date, in db: any SQLDatabase
    )
        async throws
    {
        try await AuditStore(db).record(
            AuditEntry(
                at: now, action: .stationChanged, actor: AuditActor(actor), target: auditTarget(station), after: what))
    }

    private static func noPlaylist(_ id: Int64, _ station: Station) -> Refusal {
        Refusal.notFound("{name} has no playlist {id}.", ["name": station.name, "id": String(id)])
    }

    /// 422 naming `sources` when one of them names nothing in the catalogue.
    private static func requireKnown(_ sources: [RotationPlaylist.Source], in store: RadioStore) async throws {
        guard let missing = try await store.missing(sources).first else { return }
        throw Refusal.invalid(
            FieldProblem(
                field: "sources", detail: "The catalogue has no {kind} {id}.",
                ["kind": missing.kind, "id": String(missing.id)]))
    }

    /// A playlist after the rules: a name of one line, a weight, a count of songs, days and
    /// times in range, one to ``RotationPlaylist/sourceLimit`` sources.
    static func checked(_ draft: PlaylistDraft, id: Int64, stationID: Int64) throws -> RotationPlaylist {
        var validator = Validator()
        let name = TextRules.trimmed(draft.name)
        if name.isEmpty {
            validator.add(FieldProblem(field: "name", detail: "{field} is empty.", ["field": "name"]))
        } else if var problem = TextRules.problem(in: name, limit: RotationPlaylist.nameLength) {
            problem.values["field"] = "name"
            validator.add(FieldProblem(field: "name", problem))
        }
        func weight(_ weight: Int) {
            guard !RotationPlaylist.weights.contains(weight) else { return }
            validator.add(
                FieldProblem(
                    field: "weight", detail: "A weight is {minimum} to {maximum}.",
                    ["minimum": "1", "maximum": String(RotationPlaylist.weights.upperBound)]))
        }
        switch draft.rule {
        case .rotation(let value): weight(value)
        case .every(let songs):
            if !RotationPlaylist.songsBetween.contains(songs) {
                validator.add(
                    FieldProblem(
                        field: "everySongs", detail: "One track comes every {minimum} to {maximum} songs.",
                        ["minimum": "1", "maximum": String(RotationPlaylist.songsBetween.upperBound)]))
            }
        case .block(let block, let value):
            weight(value)
            if block.weekdays.isEmpty || !block.weekdays.isSubset(of: Set(TimeBlock.days)) {
                validator.add(FieldProblem(field: "weekdays", detail: "Choose the days of the week it plays."))
            }
            if block.from == block.to {
                validator.add(FieldProblem(field: "to", detail: "A time block ends at another time than it starts."))
            }
        }
        if draft.sources.isEmpty || draft.sources.count > RotationPlaylist.sourceLimit {
            validator.add(
                FieldProblem(
                    field: "sources", detail: "A playlist takes its tracks from 1 to {maximum} sources.",
                    ["maximum": String(RotationPlaylist.sourceLimit)]))
        }
        try validator.finish()
        return RotationPlaylist(
            id: id, stationID: stationID, name: name, rule: draft.rule, sources: draft.sources, enabled: draft.enabled)
    }
}
