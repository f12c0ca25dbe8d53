import Foundation
import Listen
import SQLKit
import SharedHelpers

/// A station's AutoDJ playlists and what it played (issue 42).
extension RadioStore {
    /// A track the station played, as its history shows it.
    public struct PlayRecord: Sendable, Equatable {
        public var id: Int64
        public var mediaID: Int64?
        public var playlistID: Int64?
        public var title: String
        /// `autodj`, `request` or `live`.
        public var source: String
        public var at: Date
    }

    /// Plays a station's history keeps (the newest).
    public static let historyLimit = 1000

    private static let playlistColumns = [
        "id", "station_id", "name", "kind", "weight", "every_songs", "weekdays", "starts_minute", "ends_minute",
        "enabled",
    ]

    /// The station's playlists, in the order they were made, with their sources.
    public func playlists(stationID: Int64) async throws -> [RotationPlaylist] {
        let rows = try await db.select().columns(Self.playlistColumns).from("radio_playlists")
            .where("station_id", .equal, stationID).orderBy("id").all()
        var sources: [Int64: [RotationPlaylist.Source]] = [:]
        let all = try await db.raw(
            """
            SELECT s.playlist_id, s.kind, s.ref_id FROM radio_playlist_sources s
            JOIN radio_playlists p ON p.id = s.playlist_id WHERE p.station_id = \(bind: stationID)
            ORDER BY s.playlist_id, s.position
            """
        ).all()
        for row in all {
            let kind = try row.decode(column: "kind", as: String.self)
            guard let source = RotationPlaylist.Source(kind: kind, id: try row.decode(column: "ref_id", as: Int64.self))
            else { throw StoreError.damaged("radio_playlist_sources: kind \(kind)") }
            sources[try row.decode(column: "playlist_id", as: Int64.self), default: []].append(source)
        }
        return try rows.map { row in
            var playlist = try Self.playlist(row)
            playlist.sources = sources[playlist.id] ?? []
            return playlist
        }
    }

    private static func playlist(_ row: any SQLRow) throws -> RotationPlaylist {
        let kind = try row.decode(column: "kind", as: String.self)
        let weight = try row.decode(column: "weight", as: Int.self)
        let rule: RotationPlaylist.Rule
        switch kind {
        case "rotation": rule = .rotation(weight: weight)
        case "every": rule = .every(songs: try row.decode(column: "every_songs", as: Int.self))
        case "block":
            rule = .block(
                TimeBlock(
                    mask: try row.decode(column: "weekdays", as: Int.self),
                    from: try row.decode(column: "starts_minute", as: Int.self),
                    to: try row.decode(column: "ends_minute", as: Int.self)), weight: weight)
        default: throw StoreError.damaged("radio_playlists: kind \(kind)")
        }
        return RotationPlaylist(
            id: try row.decode(column: "id", as: Int64.self),
            stationID: try row.decode(column: "station_id", as: Int64.self),
            name: try row.decode(column: "name", as: String.self), rule: rule, sources: [],
            enabled: try row.decode(column: "enabled", as: Bool.self))
    }

    private static let ruleColumns = ["weight", "every_songs", "weekdays", "starts_minute", "ends_minute"]

    /// The rule's columns' values: weight, songs between, days, from, to.
    private static func ruleValues(_ rule: RotationPlaylist.Rule) -> [Int] {
        switch rule {
        case .rotation(let weight): [weight, 0, 0, 0, 0]
        case .every(let songs): [0, songs, 0, 0, 0]
        case .block(let block, let weight): [weight, 0, block.mask, block.from, block.to]
        }
    }

    /// Adds a playlist to its station; its id.
    public func add(_ playlist: RotationPlaylist, now: Date) async throws -> Int64 {
        guard
            let id = try await db.insert(into: "radio_playlists")
                .columns(
                    "station_id", "name", "kind", "weight", "every_songs", "weekdays", "starts_minute", "ends_minute",
                    "enabled", "created_at", "updated_at"
                )
                .values(
                    [SQLBind(playlist.stationID), SQLBind(playlist.name), SQLBind(playlist.rule.kind)]
                        + Self.ruleValues(playlist.rule).map { SQLBind($0) }
                        + [SQLBind(playlist.enabled), SQLBind(now.epoch), SQLBind(now.epoch)]
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("radio_playlists: no id returned") }
        try await setSources(playlist.sources, of: id)
        return id
    }

    /// Replaces a playlist of its station; false when the station has no such playlist.
    public func update(_ playlist: RotationPlaylist, now: Date) async throws -> Bool {
        let found = try await db.select().column("id").from("radio_playlists").where("id", .equal, playlist.id)
            .where("station_id", .equal, playlist.stationID).first()
        guard found != nil else { return false }
        var update = db.update("radio_playlists").set("name", to: playlist.name).set("kind", to: playlist.rule.kind)
        for (column, value) in zip(Self.ruleColumns, Self.ruleValues(playlist.rule)) {
            update = update.set(SQLIdentifier(column), to: SQLBind(value))
        }
        try await update.set("enabled", to: playlist.enabled).set("updated_at", to: now.epoch)
            .where("id", .equal, playlist.id).run()
        try await db.delete(from: "radio_playlist_sources").where("playlist_id", .equal, playlist.id).run()
        try await setSources(playlist.sources, of: playlist.id)
        return true
    }

    private func setSources(_ sources: [RotationPlaylist.Source], of id: Int64) async throws {
        for chunk in Array(sources.enumerated()).chunked(200) {
            var insert = db.insert(into: "radio_playlist_sources").columns("playlist_id", "position", "kind", "ref_id")
            for (position, source) in chunk {
                insert = insert.values(SQLBind(id), SQLBind(position), SQLBind(source.kind), SQLBind(source.id))
            }
            try await insert.run()
        }
    }

    /// Removes a playlist of the station; false when it has none of that id.
    public func deletePlaylist(id: Int64, stationID: Int64) async throws -> Bool {
        let found = try await db.select().column("id").from("radio_playlists").where("id", .equal, id)
            .where("station_id", .equal, stationID).first()
        guard found != nil else { return false }
        try await db.delete(from: "radio_playlists").where("id", .equal, id).run()
        return true
    }

    /// The sources that name nothing in the catalogue (no such item, parent or genre).
    public func missing(_ sources: [RotationPlaylist.Source]) async throws -> [RotationPlaylist.Source] {
        var missing: [RotationPlaylist.Source] = []
        for (kind, table) in [("media", "media"), ("parent", "parents"), ("genre", "genres")] {
            let ids = Set(sources.filter { $0.kind == kind }.map(\.id))
            guard !ids.isEmpty else { continue }
            var found: Set<Int64> = []
            for chunk in Array(ids).chunked(500) {
                let rows = try await db.raw(
                    "SELECT id FROM \(unsafeRaw: table) WHERE id IN (\(SQLList(chunk.map { SQLBind($0) })))"
                ).all(decodingColumn: "id", as: Int64.self)
                found.formUnion(rows)
            }
            missing += sources.filter { $0.kind == kind && !found.contains($0.id) }
        }
        return missing
    }

    /// The items with a file here that the sources hold, each once, in the sources' order.
    public func playableMedia(_ sources: [RotationPlaylist.Source]) async throws -> [Int64] {
        var ids: [Int64] = []
        var seen: Set<Int64> = []
        for source in sources {
            let column =
                switch source {
                case .media: "id"
                case .parent: "parent_id"
                case .genre: "genre_id"
                }
            let found = try await db.raw(
                """
                SELECT id FROM media WHERE \(unsafeRaw: column) = \(bind: source.id)
                AND path IS NOT NULL AND size > 0 ORDER BY disc, number, id
                """
            ).all(decodingColumn: "id", as: Int64.self)
            for id in found where seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    /// Writes that the station played a track (keeping its newest ``historyLimit`` plays).
    public func recordPlay(
        stationID: Int64, mediaID: Int64?, playlistID: Int64?, title: String, source: String, at: Date
    ) async throws {
        try await db.insert(into: "radio_plays")
            .columns("station_id", "media_id", "playlist_id", "title", "source", "played_at")
            .values(
                SQLBind(stationID), SQLBind(mediaID), SQLBind(playlistID), SQLBind(title), SQLBind(source),
                SQLBind(at.epoch)
            ).run()
        try await db.trimOldest(
            of: "radio_plays", time: "played_at", userID: stationID, keeping: Self.historyLimit, owner: "station_id")
    }

    /// The station's plays, newest first.
    public func plays(stationID: Int64, limit: Int) async throws -> [PlayRecord] {
        try await db.select().columns("id", "media_id", "playlist_id", "title", "source", "played_at")
            .from("radio_plays").where("station_id", .equal, stationID).orderBy("played_at", .descending)
            .orderBy("id", .descending).limit(limit).all()
            .map { row in
                PlayRecord(
                    id: try row.decode(column: "id", as: Int64.self),
                    mediaID: try row.decode(column: "media_id", as: Int64?.self),
                    playlistID: try row.decode(column: "playlist_id", as: Int64?.self),
                    title: try row.decode(column: "title", as: String.self),
                    source: try row.decode(column: "source", as: String.self),
                    at: Date(epoch: try row.decode(column: "played_at", as: Int64.self)))
            }
    }
}
