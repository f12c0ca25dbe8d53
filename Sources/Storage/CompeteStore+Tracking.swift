import Compete
import Foundation
import SQLKit
import SharedHelpers

/// A participant's live track in a competition: its figures, where they are now, and whether
/// they finished.
public struct Tracking: Sendable, Equatable {
    public var competitionID: Int64
    public var userID: Int64
    public var participantName: String
    public var track: LiveTrack
    /// How many batches have been stored: the track's version.
    public var batch: Int64
    public var startedAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?

    public init(
        competitionID: Int64, userID: Int64, participantName: String, track: LiveTrack, batch: Int64,
        startedAt: Date, updatedAt: Date, finishedAt: Date?
    ) {
        self.competitionID = competitionID
        self.userID = userID
        self.participantName = participantName
        self.track = track
        self.batch = batch
        self.startedAt = startedAt
        self.updatedAt = updatedAt
        self.finishedAt = finishedAt
    }
}

/// What storing a batch did: the track after it, and the positions that were new.
public struct TrackingBatch: Sendable {
    public var tracking: Tracking
    public var added: [TrackPoint]
}

public enum TrackingStoreError: Error, Equatable {
    /// The track would hold more than ``TrackingRules/trackLimit`` positions.
    case full
    /// The participant said they finished: the track takes no more positions.
    case finished
}

/// A live position or track changed: which participant's, and at which batch. With PostgreSQL
/// every stored batch says so with a `NOTIFY` in its transaction, so that live pages on every
/// instance follow (issue 41).
public struct TrackingChange: Sendable, Equatable {
    public var competitionID: Int64
    public var userID: Int64
    public var batch: Int64

    static let channel = "campus_tracking"

    static func parse(_ payload: String) -> TrackingChange? {
        let fields = payload.split(separator: ":")
        guard fields.count == 3, let competition = Int64(fields[0]), let user = Int64(fields[1]),
            let batch = Int64(fields[2])
        else { return nil }
        return TrackingChange(competitionID: competition, userID: user, batch: batch)
    }
}

extension CompeteStore {
    private static let trackingColumns = """
        t.competition_id, t.user_id, t.distance_m, t.moving_s, t.points, t.first_at, t.first_latitude,
        t.first_longitude, t.last_at, t.last_latitude, t.last_longitude, t.last_elevation, t.batch,
        t.started_at, t.updated_at, t.finished_at, u.first_name, u.last_name
        """

    private func tracking(from row: any SQLRow) throws -> Tracking {
        func point(_ prefix: String, elevation: Bool) throws -> TrackPoint? {
            guard let at = try row.decode(column: "\(prefix)_at", as: Int64?.self),
                let latitude = try row.decode(column: "\(prefix)_latitude", as: Double?.self),
                let longitude = try row.decode(column: "\(prefix)_longitude", as: Double?.self)
            else { return nil }
            return TrackPoint(
                latitude: latitude, longitude: longitude,
                elevation: elevation ? try row.decode(column: "\(prefix)_elevation", as: Double?.self) : nil,
                time: Date(milliseconds: at))
        }
        return Tracking(
            competitionID: try row.decode(column: "competition_id", as: Int64.self),
            userID: try row.decode(column: "user_id", as: Int64.self),
            participantName:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            track: LiveTrack(
                distanceMetres: try row.decode(column: "distance_m", as: Double.self),
                movingSeconds: try row.decode(column: "moving_s", as: Double.self),
                points: try row.decode(column: "points", as: Int.self),
                first: try point("first", elevation: false), last: try point("last", elevation: true)),
            batch: try row.decode(column: "batch", as: Int64.self),
            startedAt: Date(epoch: try row.decode(column: "started_at", as: Int64.self)),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)),
            finishedAt: try row.decode(column: "finished_at", as: Int64?.self).map { Date(epoch: $0) })
    }

    /// A participant's live track; nil before their first position.
    public func tracking(competitionID: Int64, userID: Int64, locked: Bool = false) async throws -> Tracking? {
        let lock: SQLQueryString = locked && db.dialect.name == "postgresql" ? " FOR UPDATE OF t" : ""
        return try await db.raw(
            """
            SELECT \(unsafeRaw: Self.trackingColumns) FROM trackings t JOIN users u ON u.id = t.user_id
            WHERE t.competition_id = \(bind: competitionID) AND t.user_id = \(bind: userID)\(lock)
            """
        ).first().map(tracking(from:))
    }

    /// Every live track of a competition, by participant's name.
    public func trackings(competitionID: Int64) async throws -> [Tracking] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.trackingColumns) FROM trackings t JOIN users u ON u.id = t.user_id
            WHERE t.competition_id = \(bind: competitionID) ORDER BY u.last_name, u.first_name, t.user_id
            """
        ).all().map(tracking(from:))
    }

    /// A track's positions in time order; only those of batches after `afterBatch` when given.
    public func trackingPoints(competitionID: Int64, userID: Int64, afterBatch: Int64? = nil) async throws
        -> [TrackPoint]
    {
        let since: SQLQueryString = afterBatch.map { " AND batch > \(bind: $0)" } ?? ""
        return try await db.raw(
            """
            SELECT recorded_at, latitude, longitude, elevation FROM tracking_points
            WHERE competition_id = \(bind: competitionID) AND user_id = \(bind: userID)\(since)
            ORDER BY recorded_at
            """
        ).all().map { row in
            TrackPoint(
                latitude: try row.decode(column: "latitude", as: Double.self),
                longitude: try row.decode(column: "longitude", as: Double.self),
                elevation: try row.decode(column: "elevation", as: Double?.self),
                time: Date(milliseconds: try row.decode(column: "recorded_at", as: Int64.self)))
        }
    }

    /// Every track's positions of a competition, by participant, in time order: all of them when
    /// there are at most `limit`, otherwise about `limit` (positions at every n-th second, the
    /// last one of each track always).
    public func trackingPoints(competitionID: Int64, limit: Int) async throws -> [Int64: [TrackPoint]] {
        let total =
            try await db.raw(
                "SELECT COALESCE(SUM(points), 0) AS n FROM trackings WHERE competition_id = \(bind: competitionID)"
            ).first(decodingColumn: "n", as: Int.self) ?? 0
        let stride = max(1, Int64((Double(total) / Double(max(1, limit))).rounded(.up)))
        let thinned: SQLQueryString =
            stride > 1
            ? " AND ((p.recorded_at / 1000) % \(bind: stride) = 0 OR p.recorded_at = t.last_at)" : ""
        var tracks: [Int64: [TrackPoint]] = [:]
        for row in try await db.raw(
            """
            SELECT p.user_id, p.recorded_at, p.latitude, p.longitude FROM tracking_points p
            JOIN trackings t ON t.competition_id = p.competition_id AND t.user_id = p.user_id
            WHERE p.competition_id = \(bind: competitionID)\(thinned)
            ORDER BY p.user_id, p.recorded_at
            """
        ).all() {
            tracks[try row.decode(column: "user_id", as: Int64.self), default: []].append(
                TrackPoint(
                    latitude: try row.decode(column: "latitude", as: Double.self),
                    longitude: try row.decode(column: "longitude", as: Double.self),
                    time: Date(milliseconds: try row.decode(column: "recorded_at", as: Int64.self))))
        }
        return tracks
    }

    /// Stores a batch of positions (validated, each with a time) of a participant who is in the
    /// competition: positions already stored are left out, and the track's figures follow.
    /// Call it in a transaction.
    public func addTrackingPoints(competitionID: Int64, userID: Int64, _ points: [TrackPoint], now: Date)
        async throws -> TrackingBatch
    {
        let before = try await tracking(competitionID: competitionID, userID: userID, locked: true)
        if before?.finishedAt != nil { throw TrackingStoreError.finished }
        if (before?.track.points ?? 0) + points.count > TrackingRules.trackLimit { throw TrackingStoreError.full }
        let batch = (before?.batch ?? 0) + 1
        if before == nil {
            try await db.raw(
                """
                INSERT INTO trackings (competition_id, user_id, distance_m, moving_s, points, batch, started_at,
                    updated_at)
                VALUES (\(bind: competitionID), \(bind: userID), 0, 0, 0, 0, \(bind: now.epoch), \(bind: now.epoch))
                """
            ).run()
        }
        var rows: [SQLQueryString] = []
        for point in points {
            let at = point.time?.milliseconds ?? 0
            rows.append(
                """
                (\(bind: competitionID), \(bind: userID), \(bind: at), \(bind: point.latitude), \
                \(bind: point.longitude), \(bind: point.elevation), \(bind: batch))
                """)
        }
        let inserted = try await db.raw(
            """
            INSERT INTO tracking_points (competition_id, user_id, recorded_at, latitude, longitude, elevation, batch)
            VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (competition_id, user_id, recorded_at) DO NOTHING
            RETURNING recorded_at
            """
        ).all().map { try $0.decode(column: "recorded_at", as: Int64.self) }
        let new = Set(inserted)
        let added = points.filter { new.contains($0.time?.milliseconds ?? 0) }
        let previous = before?.track ?? LiveTrack(points: [])
        let track: LiveTrack
        if added.isEmpty {
            track = previous
        } else if let appended = previous.appending(added) {
            track = appended
        } else {
            track = LiveTrack(points: try await trackingPoints(competitionID: competitionID, userID: userID))
        }
        try await db.raw(
            """
            UPDATE trackings SET distance_m = \(bind: track.distanceMetres), moving_s = \(bind: track.movingSeconds),
                points = \(bind: track.points), first_at = \(bind: track.first?.time?.milliseconds),
                first_latitude = \(bind: track.first?.latitude), first_longitude = \(bind: track.first?.longitude),
                last_at = \(bind: track.last?.time?.milliseconds), last_latitude = \(bind: track.last?.latitude),
                last_longitude = \(bind: track.last?.longitude), last_elevation = \(bind: track.last?.elevation),
                batch = \(bind: batch), updated_at = \(bind: now.epoch)
            WHERE competition_id = \(bind: competitionID) AND user_id = \(bind: userID)
            """
        ).run()
        if db.dialect.name == "postgresql" {
            try await db.raw(
                "SELECT pg_notify(\(bind: TrackingChange.channel), \(bind: "\(competitionID):\(userID):\(batch)"))"
            ).run()
        }
        guard let after = try await tracking(competitionID: competitionID, userID: userID) else {
            throw TrackingStoreError.finished
        }
        let ordered = added.sorted { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }
        return TrackingBatch(tracking: after, added: ordered)
    }

    /// Marks the track finished (it takes no more positions); false when there is none.
    public func finishTracking(competitionID: Int64, userID: Int64, now: Date) async throws -> Bool {
        try await db.raw(
            """
            UPDATE trackings SET finished_at = \(bind: now.epoch), updated_at = \(bind: now.epoch)
            WHERE competition_id = \(bind: competitionID) AND user_id = \(bind: userID) AND finished_at IS NULL
            RETURNING user_id
            """
        ).first() != nil
    }
}

extension Database {
    /// Hears every instance's stored tracking batches until the task is cancelled (PostgreSQL:
    /// `LISTEN` on a connection of its own, again a second after it is lost); with SQLite, one
    /// instance, it returns at once. `following` is told each time it listens again.
    public func followTrackingChanges(
        following: @escaping @Sendable () -> Void, _ heard: @escaping @Sendable (TrackingChange) -> Void
    ) async {
        await followNotifications(TrackingChange.channel, following: following) { payload in
            TrackingChange.parse(payload).map(heard)
        }
    }
}
