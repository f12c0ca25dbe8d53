import Foundation
import Listen
import SQLKit
import SharedHelpers

/// Radio stations. Runs on the `SQLDatabase` it is given, so callers choose the transaction.
public struct RadioStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    static let columns = [
        "id", "name", "mount", "description", "genre", "region", "listener_limit", "programme_id",
        "records_broadcasts", "repeat_window_minutes",
    ]

    /// Every station, by name.
    public func stations() async throws -> [Station] {
        try await db.select().columns(Self.columns).from("stations").orderBy("name").orderBy("id").all()
            .map(Self.station)
    }

    public func station(mount: String) async throws -> Station? {
        try await db.select().columns(Self.columns).from("stations").where("mount", .equal, mount).first()
            .map(Self.station)
    }

    /// The hash of a station's source password.
    public func sourcePasswordHash(stationID: Int64) async throws -> String? {
        try await db.select().column("source_password_hash").from("stations").where("id", .equal, stationID)
            .first(decodingColumn: "source_password_hash", as: String.self)
    }

    /// Adds a station (its id is made); nil when another has the mount.
    public func add(_ station: Station, sourcePasswordHash: String, now: Date) async throws -> Station? {
        guard try await self.station(mount: station.mount) == nil else { return nil }
        guard
            let id = try await db.insert(into: "stations")
                .columns(
                    "name", "mount", "description", "genre", "region", "source_password_hash", "listener_limit",
                    "programme_id", "records_broadcasts", "repeat_window_minutes", "created_at", "updated_at"
                )
                .values(
                    SQLBind(station.name), SQLBind(station.mount), SQLBind(station.description), SQLBind(station.genre),
                    SQLBind(station.region), SQLBind(sourcePasswordHash), SQLBind(station.listenerLimit),
                    SQLBind(station.programmeID), SQLBind(station.recordsBroadcasts),
                    SQLBind(station.repeatWindowMinutes), SQLBind(now.epoch),
                    SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("stations: no id returned") }
        var added = station
        added.id = id
        return added
    }

    /// Changes a station's fields (and its source password, when a new hash is given); false
    /// when there is no such station.
    public func update(_ station: Station, sourcePasswordHash: String?, now: Date) async throws -> Bool {
        let found = try await db.select().column("id").from("stations").where("id", .equal, station.id).first()
        guard found != nil else { return false }
        var update = db.update("stations").set("name", to: station.name).set("mount", to: station.mount)
            .set("description", to: station.description).set("genre", to: station.genre)
            .set("region", to: station.region).set("listener_limit", to: station.listenerLimit)
            .set("programme_id", to: SQLBind(station.programmeID))
            .set("records_broadcasts", to: station.recordsBroadcasts)
            .set("repeat_window_minutes", to: station.repeatWindowMinutes).set("updated_at", to: now.epoch)
        if let sourcePasswordHash { update = update.set("source_password_hash", to: sourcePasswordHash) }
        try await update.where("id", .equal, station.id).run()
        return true
    }

    public func delete(stationID: Int64) async throws -> Bool {
        let found = try await db.select().column("id").from("stations").where("id", .equal, stationID).first()
        guard found != nil else { return false }
        try await db.delete(from: "stations").where("id", .equal, stationID).run()
        return true
    }

    private static func station(_ row: any SQLRow) throws -> Station {
        Station(
            id: try row.decode(column: "id", as: Int64.self), name: try row.decode(column: "name", as: String.self),
            mount: try row.decode(column: "mount", as: String.self),
            description: try row.decode(column: "description", as: String.self),
            genre: try row.decode(column: "genre", as: String.self),
            region: try row.decode(column: "region", as: String.self),
            listenerLimit: try row.decode(column: "listener_limit", as: Int.self),
            programmeID: try row.decode(column: "programme_id", as: Int64?.self),
            recordsBroadcasts: try row.decode(column: "records_broadcasts", as: Bool.self),
            repeatWindowMinutes: try row.decode(column: "repeat_window_minutes", as: Int.self))
    }
}
