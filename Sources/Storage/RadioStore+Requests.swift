import Foundation
import Listen
import SQLKit
import SharedHelpers

/// Listeners' requests to a station (issue 42).
extension RadioStore {
    /// A request waiting for AutoDJ.
    public struct PendingRequest: Sendable, Equatable {
        public var id: Int64
        public var mediaID: Int64
        public var userID: Int64
        public var requestedAt: Date
    }

    public func addRequest(stationID: Int64, mediaID: Int64, userID: Int64, now: Date) async throws -> Int64 {
        guard
            let id = try await db.insert(into: "radio_requests")
                .columns("station_id", "media_id", "user_id", "requested_at")
                .values(SQLBind(stationID), SQLBind(mediaID), SQLBind(userID), SQLBind(now.epoch))
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("radio_requests: no id returned") }
        return id
    }

    /// The station's requests not played yet, the oldest first.
    public func pendingRequests(stationID: Int64) async throws -> [PendingRequest] {
        try await db.select().columns("id", "media_id", "user_id", "requested_at").from("radio_requests")
            .where("station_id", .equal, stationID).where("played_at", .is, SQLLiteral.null)
            .orderBy("requested_at").orderBy("id").all()
            .map { row in
                PendingRequest(
                    id: try row.decode(column: "id", as: Int64.self),
                    mediaID: try row.decode(column: "media_id", as: Int64.self),
                    userID: try row.decode(column: "user_id", as: Int64.self),
                    requestedAt: Date(epoch: try row.decode(column: "requested_at", as: Int64.self)))
            }
    }

    /// How many requests a listener made to the station since `since`, and the station had from
    /// anyone.
    public func requestCounts(stationID: Int64, userID: Int64, since: Date) async throws -> (mine: Int, all: Int) {
        let rows = try await db.raw(
            """
            SELECT user_id FROM radio_requests WHERE station_id = \(bind: stationID)
            AND requested_at >= \(bind: since.epoch)
            """
        ).all(decodingColumn: "user_id", as: Int64.self)
        return (rows.filter { $0 == userID }.count, rows.count)
    }

    /// A request was played (or will not be: its track is gone).
    public func requestPlayed(id: Int64, at: Date) async throws {
        try await db.update("radio_requests").set("played_at", to: at.epoch).where("id", .equal, id).run()
    }
}
