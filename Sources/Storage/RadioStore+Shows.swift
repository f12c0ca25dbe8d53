import Foundation
import Listen
import SQLKit
import SharedHelpers

/// A station's shows, their hosts, and its DJs' source passwords (issue 42).
extension RadioStore {
    private static let showColumns = [
        "id", "station_id", "title", "description", "weekdays", "starts_minute", "ends_minute", "starts_at", "ends_at",
        "programme_id",
    ]

    /// The station's shows, in the order they were made, with their hosts.
    public func shows(stationID: Int64) async throws -> [RadioShow] {
        let rows = try await db.select().columns(Self.showColumns).from("radio_shows")
            .where("station_id", .equal, stationID).orderBy("id").all()
        var hosts: [Int64: [Int64]] = [:]
        let all = try await db.raw(
            """
            SELECT h.show_id, h.user_id FROM radio_show_hosts h JOIN radio_shows s ON s.id = h.show_id
            WHERE s.station_id = \(bind: stationID) ORDER BY h.show_id, h.user_id
            """
        ).all()
        for row in all {
            hosts[try row.decode(column: "show_id", as: Int64.self), default: []].append(
                try row.decode(column: "user_id", as: Int64.self))
        }
        return try rows.map { row in
            var show = try Self.show(row)
            show.hostIDs = hosts[show.id] ?? []
            return show
        }
    }

    private static func show(_ row: any SQLRow) throws -> RadioShow {
        let when: RadioShow.When
        if let start = try row.decode(column: "starts_at", as: Int64?.self),
            let end = try row.decode(column: "ends_at", as: Int64?.self)
        {
            when = .once(start: Date(epoch: start), end: Date(epoch: end))
        } else {
            when = .weekly(
                TimeBlock(
                    mask: try row.decode(column: "weekdays", as: Int.self),
                    from: try row.decode(column: "starts_minute", as: Int.self),
                    to: try row.decode(column: "ends_minute", as: Int.self)))
        }
        return RadioShow(
            id: try row.decode(column: "id", as: Int64.self),
            stationID: try row.decode(column: "station_id", as: Int64.self),
            title: try row.decode(column: "title", as: String.self),
            description: try row.decode(column: "description", as: String.self), hostIDs: [], when: when,
            programmeID: try row.decode(column: "programme_id", as: Int64?.self))
    }

    /// The columns of when a show is on: days, from, to, start, end.
    private static func whenValues(_ when: RadioShow.When) -> (Int, Int, Int, Int64?, Int64?) {
        switch when {
        case .weekly(let block): (block.mask, block.from, block.to, nil, nil)
        case .once(let start, let end): (0, 0, 0, start.epoch, end.epoch)
        }
    }

    /// Adds a show to its station; its id.
    public func add(_ show: RadioShow, now: Date) async throws -> Int64 {
        let (days, from, to, start, end) = Self.whenValues(show.when)
        guard
            let id = try await db.insert(into: "radio_shows")
                .columns(
                    "station_id", "title", "description", "weekdays", "starts_minute", "ends_minute", "starts_at",
                    "ends_at", "programme_id", "created_at", "updated_at"
                )
                .values(
                    SQLBind(show.stationID), SQLBind(show.title), SQLBind(show.description), SQLBind(days),
                    SQLBind(from), SQLBind(to), SQLBind(start), SQLBind(end), SQLBind(show.programmeID),
                    SQLBind(now.epoch), SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("radio_shows: no id returned") }
        try await setHosts(show.hostIDs, of: id)
        return id
    }

    /// Replaces a show of its station; false when the station has no such show.
    public func update(_ show: RadioShow, now: Date) async throws -> Bool {
        let found = try await db.select().column("id").from("radio_shows").where("id", .equal, show.id)
            .where("station_id", .equal, show.stationID).first()
        guard found != nil else { return false }
        let (days, from, to, start, end) = Self.whenValues(show.when)
        try await db.update("radio_shows").set("title", to: show.title).set("description", to: show.description)
            .set("weekdays", to: days).set("starts_minute", to: from).set("ends_minute", to: to)
            .set("starts_at", to: SQLBind(start)).set("ends_at", to: SQLBind(end))
            .set("programme_id", to: SQLBind(show.programmeID)).set("updated_at", to: now.epoch)
            .where("id", .equal, show.id).run()
        try await db.delete(from: "radio_show_hosts").where("show_id", .equal, show.id).run()
        try await setHosts(show.hostIDs, of: show.id)
        return true
    }

    private func setHosts(_ hosts: [Int64], of id: Int64) async throws {
        guard !hosts.isEmpty else { return }
        var insert = db.insert(into: "radio_show_hosts").columns("show_id", "user_id")
        for host in Set(hosts).sorted() { insert = insert.values(SQLBind(id), SQLBind(host)) }
        try await insert.run()
    }

    /// Removes a show of the station; false when it has none of that id.
    public func deleteShow(id: Int64, stationID: Int64) async throws -> Bool {
        let found = try await db.select().column("id").from("radio_shows").where("id", .equal, id)
            .where("station_id", .equal, stationID).first()
        guard found != nil else { return false }
        try await db.delete(from: "radio_shows").where("id", .equal, id).run()
        return true
    }

    /// A DJ's source password hash for the station, if they have one.
    public func djPasswordHash(stationID: Int64, userID: Int64) async throws -> String? {
        try await db.select().column("password_hash").from("radio_dj_credentials")
            .where("station_id", .equal, stationID).where("user_id", .equal, userID)
            .first(decodingColumn: "password_hash", as: String.self)
    }

    /// Sets (or replaces) a DJ's source password for the station.
    public func setDJPassword(stationID: Int64, userID: Int64, hash: String, now: Date) async throws {
        try await db.delete(from: "radio_dj_credentials").where("station_id", .equal, stationID)
            .where("user_id", .equal, userID).run()
        try await db.insert(into: "radio_dj_credentials").columns(
            "station_id", "user_id", "password_hash", "created_at"
        )
        .values(SQLBind(stationID), SQLBind(userID), SQLBind(hash), SQLBind(now.epoch)).run()
    }
}
