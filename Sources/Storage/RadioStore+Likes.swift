import Foundation
import SQLKit
import SharedHelpers

/// The stations listeners like, and the notice that a station went on the air (issue 39).
extension RadioStore {
    /// Likes a station, or no longer (`liked` false). Liking it again changes nothing.
    public func setLike(userID: Int64, stationID: Int64, liked: Bool, now: Date) async throws {
        if liked {
            try await db.raw(
                """
                INSERT INTO station_likes (user_id, station_id, created_at)
                VALUES (\(bind: userID), \(bind: stationID), \(bind: now.milliseconds))
                ON CONFLICT (user_id, station_id) DO NOTHING
                """
            ).run()
        } else {
            try await db.delete(from: "station_likes").where("user_id", .equal, userID)
                .where("station_id", .equal, stationID).run()
        }
    }

    /// The ids of the stations the user likes.
    public func likedStations(userID: Int64) async throws -> Set<Int64> {
        Set(
            try await db.select().column("station_id").from("station_likes").where("user_id", .equal, userID).all(
                decodingColumn: "station_id", as: Int64.self))
    }

    /// Who likes the station.
    public func likers(stationID: Int64) async throws -> [Int64] {
        try await db.select().column("user_id").from("station_likes").where("station_id", .equal, stationID)
            .orderBy("user_id").all(decodingColumn: "user_id", as: Int64.self)
    }

    /// Whether the station's listeners are to be told it went on the air now: true (and noted)
    /// unless they were told within `quiet`. One statement, so two instances never both say yes.
    public func claimOnAirNotice(stationID: Int64, now: Date, quiet: TimeInterval) async throws -> Bool {
        let since = now.addingTimeInterval(-quiet).milliseconds
        return try await db.raw(
            """
            UPDATE stations SET on_air_told_at = \(bind: now.milliseconds)
            WHERE id = \(bind: stationID) AND (on_air_told_at IS NULL OR on_air_told_at < \(bind: since))
            RETURNING id
            """
        ).first() != nil
    }
}
