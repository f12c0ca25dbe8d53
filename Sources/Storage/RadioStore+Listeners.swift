import Foundation
import Listen
import SQLKit
import SharedHelpers

/// What listeners did with stations (their history's radio events), and stations' images.
extension RadioStore {
    /// A time a listener listened to a station.
    public struct Listening: Sendable, Equatable {
        public var id: Int64
        /// The station, unless it was removed since.
        public var stationID: Int64?
        public var stationName: String
        public var startedAt: Date
        public var seconds: Int64

        public init(id: Int64, stationID: Int64?, stationName: String, startedAt: Date, seconds: Int64) {
            self.id = id
            self.stationID = stationID
            self.stationName = stationName
            self.startedAt = startedAt
            self.seconds = seconds
        }
    }

    /// A listener starts listening; the id of the event, whose length ``listened(_:seconds:)`` sets.
    /// The listener's radio events keep the newest ``ListenerLimits/history``.
    public func startListening(userID: Int64, stationID: Int64, stationName: String, now: Date) async throws -> Int64 {
        guard
            let id = try await db.insert(into: "radio_listening")
                .columns("user_id", "station_id", "station_name", "started_at", "seconds")
                .values(SQLBind(userID), SQLBind(stationID), SQLBind(stationName), SQLBind(now.epoch), SQLBind(0))
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("radio_listening: no id returned") }
        try await db.trimOldest(
            of: "radio_listening", time: "started_at", userID: userID, keeping: ListenerLimits.history)
        return id
    }

    public func listened(_ id: Int64, seconds: Int64) async throws {
        try await db.update("radio_listening").set("seconds", to: seconds).where("id", .equal, id).run()
    }

    /// The listener's radio events, newest first.
    public func listening(userID: Int64, limit: Int) async throws -> [Listening] {
        try await db.select().columns("id", "station_id", "station_name", "started_at", "seconds")
            .from("radio_listening").where("user_id", .equal, userID).orderBy("started_at", .descending)
            .orderBy("id", .descending).limit(limit).all()
            .map { row in
                Listening(
                    id: try row.decode(column: "id", as: Int64.self),
                    stationID: try row.decode(column: "station_id", as: Int64?.self),
                    stationName: try row.decode(column: "station_name", as: String.self),
                    startedAt: Date(epoch: try row.decode(column: "started_at", as: Int64.self)),
                    seconds: try row.decode(column: "seconds", as: Int64.self))
            }
    }

    /// When a station or its image last changed (0 when there are none): what a feed that shows
    /// stations depends on.
    public func lastChange() async throws -> Int64 {
        let stations = try await db.raw("SELECT MAX(updated_at) AS at FROM stations").first(
            decodingColumn: "at", as: Int64?.self)
        let images = try await db.raw("SELECT MAX(updated_at) AS at FROM station_images").first(
            decodingColumn: "at", as: Int64?.self)
        let count = try await db.raw("SELECT COUNT(*) AS n FROM stations").first(decodingColumn: "n", as: Int64.self)
        // A removed station leaves no row: the count says the list changed.
        return max((stations ?? nil) ?? 0, (images ?? nil) ?? 0) + (count ?? 0)
    }

    // MARK: Images

    public func setImage(stationID: Int64, contentType: String, data: [UInt8], now: Date) async throws {
        try await db.delete(from: "station_images").where("station_id", .equal, stationID).run()
        try await db.insert(into: "station_images").columns("station_id", "content_type", "data", "updated_at")
            .values(SQLBind(stationID), SQLBind(contentType), SQLBind(Data(data)), SQLBind(now.epoch)).run()
    }

    public func image(stationID: Int64) async throws -> StoredImage? {
        guard
            let row = try await db.select().columns("content_type", "data", "updated_at").from("station_images")
                .where("station_id", .equal, stationID).first()
        else { return nil }
        return StoredImage(
            contentType: try row.decode(column: "content_type", as: String.self),
            data: [UInt8](try row.decode(column: "data", as: Data.self)),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
    }

    /// When each station's image last changed, for those that have one.
    public func imageVersions() async throws -> [Int64: Date] {
        var versions: [Int64: Date] = [:]
        for row in try await db.select().columns("station_id", "updated_at").from("station_images").all() {
            versions[try row.decode(column: "station_id", as: Int64.self)] = Date(
                epoch: try row.decode(column: "updated_at", as: Int64.self))
        }
        return versions
    }

    public func deleteImage(stationID: Int64) async throws {
        try await db.delete(from: "station_images").where("station_id", .equal, stationID).run()
    }
}
