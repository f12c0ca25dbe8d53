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
        /// The instance's last word that it still holds the source.
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
    /// way to a live source). Run it in a write transaction, so that two instances cannot both
    /// win.
    public func announce(_ announcement: Announcement, freshSince: Date) async throws -> Bool {
        if let current = try await self.announcement(mount: announcement.mount),
            current.instance != announcement.instance, current.seenAt >= freshSince,
            current.live || !announcement.live
        {
            return false
        }
        try await db.delete(from: "radio_sources").where("mount", .equal, announcement.mount).run()
        try await db.insert(into: "radio_sources")
            .columns("mount", "instance", "relay_url", "content_type", "live", "title", "started_at", "seen_at")
            .values(
                SQLBind(announcement.mount), SQLBind(announcement.instance), SQLBind(announcement.relayURL),
                SQLBind(announcement.contentType), SQLBind(announcement.live), SQLBind(announcement.title),
                SQLBind(announcement.startedAt.epoch),
                SQLBind(announcement.seenAt.epoch)
            ).run()
        return true
    }

    /// Says again that `instance` holds these mounts; returns the mounts it no longer holds
    /// (another instance took them over).
    public func renew(instance: String, mounts: [String], now: Date) async throws -> [String] {
        var lost: [String] = []
        for mount in mounts {
            try await db.update("radio_sources").set("seen_at", to: now.epoch)
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
            WHERE mount = \(bind: mount) AND seen_at >= \(bind: freshSince.epoch) RETURNING mount
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
                .columns("mount", "instance", "relay_url", "content_type", "live", "title", "started_at", "seen_at")
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
            seenAt: Date(epoch: try row.decode(column: "seen_at", as: Int64.self)))
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
