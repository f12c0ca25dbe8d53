import Foundation
import SQLKit
import SharedHelpers

/// Which instance holds a mount's source, so that listeners anywhere reach it; and the
/// broadcasts recorded as episodes.
extension RadioStore {
    /// A mount's source as its instance announced it.
    public struct Announcement: Sendable, Equatable {
        public var mount: String
        /// The instance that holds the source (its own name for itself).
        public var instance: String
        /// Where the other instances relay the stream from.
        public var relayURL: String
        public var contentType: String
        /// Whether a source sends (false: the holder plays the station's fallback, and a source
        /// connecting to any instance takes the mount over).
        public var live: Bool
        /// What the source says is playing.
        public var title: String
        public var startedAt: Date
        /// The instance's last word that it still holds the source (its heartbeat, to the
        /// millisecond).
        public var seenAt: Date

        public init(
            mount: String, instance: String, relayURL: String, contentType: String, live: Bool, title: String,
            startedAt: Date, seenAt: Date
        ) {
            self.mount = mount
            self.instance = instance
            self.relayURL = relayURL
            self.contentType = contentType
            self.live = live
            self.title = title
            self.startedAt = startedAt
            self.seenAt = seenAt
        }
    }

    /// Announces that `announcement.instance` holds the mount's source; false when another
    /// instance announced a live source and was seen at or after `freshSince` (a fallback gives
    /// way to a live source), unless that instance is `replacing`, one known to be lost.
    /// One statement decides what it replaces (PostgreSQL checks the row it deletes as it is when
    /// it deletes it) and the insert finds any row another instance wrote since: two instances
    /// announcing at once, in any order, cannot both win.
    public func announce(_ announcement: Announcement, freshSince: Date, replacing lost: String? = nil)
        async throws -> Bool
    {
        try await db.raw(
            """
            DELETE FROM radio_sources WHERE mount = \(bind: announcement.mount)
            AND (instance = \(bind: announcement.instance) OR instance = \(bind: lost ?? "")
                OR heartbeat_at < \(bind: freshSince.milliseconds) OR (NOT live AND \(bind: announcement.live)))
            """
        ).run()
        let inserted = try await db.raw(
            """
            INSERT INTO radio_sources
                (mount, instance, relay_url, content_type, live, title, started_at, seen_at, heartbeat_at)
            VALUES (\(bind: announcement.mount), \(bind: announcement.instance), \(bind: announcement.relayURL),
                \(bind: announcement.contentType), \(bind: announcement.live), \(bind: announcement.title),
                \(bind: announcement.startedAt.epoch), \(bind: announcement.seenAt.epoch),
                \(bind: announcement.seenAt.milliseconds))
            ON CONFLICT (mount) DO NOTHING RETURNING mount
            """
        ).all()
        return !inserted.isEmpty
    }

    /// Says again that `instance` holds these mounts; returns the mounts it no longer holds
    /// (another instance took them over).
    public func renew(instance: String, mounts: [String], now: Date) async throws -> [String] {
        var lost: [String] = []
        for mount in mounts {
            try await db.update("radio_sources").set("seen_at", to: now.epoch).set("heartbeat_at", to: now.milliseconds)
                .where("mount", .equal, mount).where("instance", .equal, instance).run()
            if try await announcement(mount: mount)?.instance != instance { lost.append(mount) }
        }
        return lost
    }

    /// What the mount's source says is playing (any instance may be told; the holder and the
    /// relays read it here); false when no announcement seen at or after `freshSince` holds the
    /// mount, which then keeps nothing.
    public func setTitle(mount: String, _ title: String, freshSince: Date) async throws -> Bool {
        let rows = try await db.raw(
            """
            UPDATE radio_sources SET title = \(bind: title)
            WHERE mount = \(bind: mount) AND heartbeat_at >= \(bind: freshSince.milliseconds) RETURNING mount
            """
        ).all()
        return !rows.isEmpty
    }

    /// The instance no longer holds the mount's source.
    public func withdraw(mount: String, instance: String) async throws {
        try await db.delete(from: "radio_sources").where("mount", .equal, mount).where("instance", .equal, instance)
            .run()
    }

    /// Withdraws what an earlier run at `relayURL` announced (an instance that restarted).
    public func withdrawAll(relayURL: String, except instance: String) async throws {
        try await db.delete(from: "radio_sources").where("relay_url", .equal, relayURL)
            .where("instance", .notEqual, instance).run()
    }

    public func announcement(mount: String) async throws -> Announcement? {
        guard
            let row = try await db.select()
                .columns(
                    "mount", "instance", "relay_url", "content_type", "live", "title", "started_at", "heartbeat_at"
                )
                .from("radio_sources").where("mount", .equal, mount).first()
        else { return nil }
        return Announcement(
            mount: try row.decode(column: "mount", as: String.self),
            instance: try row.decode(column: "instance", as: String.self),
            relayURL: try row.decode(column: "relay_url", as: String.self),
            contentType: try row.decode(column: "content_type", as: String.self),
            live: try row.decode(column: "live", as: Bool.self),
            title: try row.decode(column: "title", as: String.self),
            startedAt: Date(epoch: try row.decode(column: "started_at", as: Int64.self)),
            seenAt: Date(milliseconds: try row.decode(column: "heartbeat_at", as: Int64.self)))
    }

    // MARK: Recordings

    /// The episode `mediaID` is a broadcast being recorded.
    public func startRecording(mediaID: Int64, stationID: Int64, now: Date) async throws {
        try await db.insert(into: "radio_recordings").columns("media_id", "station_id", "started_at")
            .values(SQLBind(mediaID), SQLBind(stationID), SQLBind(now.epoch)).run()
    }

    public func finishRecording(mediaID: Int64, now: Date) async throws {
        try await db.update("radio_recordings").set("finished_at", to: now.epoch).where("media_id", .equal, mediaID)
            .run()
    }

    /// Recordings that never finished (a server stopped while it made them, or makes them
    /// now), with the mount of their station (nil when it was removed).
    public func unfinishedRecordings() async throws -> [(mediaID: Int64, mount: String?)] {
        try await db.raw(
            """
            SELECT r.media_id, s.mount FROM radio_recordings r LEFT JOIN stations s ON s.id = r.station_id
            WHERE r.finished_at IS NULL ORDER BY r.media_id
            """
        ).all().map { row in
            (try row.decode(column: "media_id", as: Int64.self), try row.decode(column: "mount", as: String?.self))
        }
    }
}
