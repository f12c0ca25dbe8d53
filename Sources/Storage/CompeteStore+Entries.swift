import Compete
import Foundation
import SQLKit
import SharedHelpers

/// Entries: who joined a competition, with their results and tracks.
extension CompeteStore {
    fileprivate static let entryColumns = """
        e.user_id, u.first_name, u.last_name, u.email, e.result, e.joined_at, e.result_at, e.track_distance,
        e.track_elapsed, e.track_moving, e.track_points, e.track_segments
        """

    fileprivate func entry(from row: any SQLRow) throws -> Entry {
        var track: TrackStatistics?
        if let distance = try row.decode(column: "track_distance", as: Double?.self) {
            track = TrackStatistics(
                distanceMetres: distance, elapsedSeconds: try row.decode(column: "track_elapsed", as: Double?.self),
                movingSeconds: try row.decode(column: "track_moving", as: Double?.self),
                points: try row.decode(column: "track_points", as: Int?.self) ?? 0,
                segments: try row.decode(column: "track_segments", as: Int?.self) ?? 0)
        }
        return Entry(
            participantID: try row.decode(column: "user_id", as: Int64.self),
            participantName:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            result: try row.decode(column: "result", as: Double?.self),
            joinedAt: Date(epoch: try row.decode(column: "joined_at", as: Int64.self)),
            resultAt: try row.decode(column: "result_at", as: Int64?.self).map(Date.init(epoch:)), track: track)
    }

    /// Every entry of a competition with the participant's email (which only its organizer sees).
    public func entries(competitionID: Int64) async throws -> [(entry: Entry, email: String)] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.entryColumns) FROM entries e JOIN users u ON u.id = e.user_id
            WHERE e.competition_id = \(bind: competitionID)
            """
        ).all().map { (try entry(from: $0), try $0.decode(column: "email", as: String.self)) }
    }

    /// Every entry of a competition, as its ranking needs them (no emails).
    public func rankingEntries(competitionID: Int64) async throws -> [Entry] {
        try await db.raw(
            """
            SELECT e.user_id, u.first_name, u.last_name, e.result, e.joined_at, e.result_at, e.track_distance,
                e.track_elapsed, e.track_moving, e.track_points, e.track_segments
            FROM entries e JOIN users u ON u.id = e.user_id
            WHERE e.competition_id = \(bind: competitionID)
            """
        ).all().map(entry(from:))
    }

    public func entry(competitionID: Int64, userID: Int64) async throws -> Entry? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.entryColumns) FROM entries e JOIN users u ON u.id = e.user_id
            WHERE e.competition_id = \(bind: competitionID) AND e.user_id = \(bind: userID)
            """
        ).first().map(entry(from:))
    }

    /// Adds the user to the competition; a second join is ``CompeteStoreError/alreadyJoined``.
    public func join(competitionID: Int64, userID: Int64, now: Date) async throws {
        do {
            try await db.insert(into: "entries").columns("competition_id", "user_id", "joined_at")
                .values(SQLBind(competitionID), SQLBind(userID), SQLBind(now.epoch)).run()
        } catch  where isUniqueViolation(error) {
            throw CompeteStoreError.alreadyJoined
        }
        try await bumpResultsVersion(competitionIDs: [competitionID])
    }

    /// Removes the user's entry and result; false when they were not in it.
    public func leave(competitionID: Int64, userID: Int64) async throws -> Bool {
        guard try await entry(competitionID: competitionID, userID: userID) != nil else { return false }
        try await db.delete(from: "entries").where("competition_id", .equal, competitionID)
            .where("user_id", .equal, userID).run()
        try await bumpResultsVersion(competitionIDs: [competitionID])
        return true
    }

    /// Sets (or with nil clears) a result, with the track it came from if any.
    public func setResult(
        competitionID: Int64, userID: Int64, value: Double?, track: TrackStatistics?, now: Date
    ) async throws {
        try await db.update("entries")
            .set("result", to: value).set("result_at", to: value == nil ? nil : now.epoch)
            .set("track_distance", to: track?.distanceMetres).set("track_elapsed", to: track?.elapsedSeconds)
            .set("track_moving", to: track?.movingSeconds).set("track_points", to: track?.points)
            .set("track_segments", to: track?.segments)
            .where("competition_id", .equal, competitionID).where("user_id", .equal, userID).run()
        try await bumpResultsVersion(competitionIDs: [competitionID])
    }
}
