import Foundation
import Listen
import SQLKit
import SharedHelpers

/// The home feed's blocks, as admins configure them.
extension ListenStore {
    // MARK: Feed blocks

    /// The home feed's blocks as an admin configured them, in order (none: the default feed).
    public func feedBlocks() async throws -> [FeedBlockConfiguration] {
        try await db.raw(
            """
            SELECT type, title, highlight_text, source, item_limit, link, description, image_id, title_link
            FROM feed_blocks ORDER BY position, id
            """
        ).all().compactMap { row in
            guard let type = FeedBlockConfiguration.BlockType(rawValue: try row.decode(column: "type", as: String.self))
            else { return nil }
            return FeedBlockConfiguration(
                type: type, title: try row.decode(column: "title", as: String.self),
                highlight: try row.decode(column: "highlight_text", as: String?.self),
                source: try row.decode(column: "source", as: String.self),
                limit: try row.decode(column: "item_limit", as: Int.self),
                link: try row.decode(column: "link", as: String?.self),
                description: try row.decode(column: "description", as: String?.self),
                imageID: try row.decode(column: "image_id", as: Int64?.self),
                titleLink: try row.decode(column: "title_link", as: String?.self))
        }
    }

    public func saveFeedBlocks(_ blocks: [FeedBlockConfiguration], now: Date) async throws {
        try await db.delete(from: "feed_blocks").run()
        for (position, block) in blocks.enumerated() {
            var genreID: Int64?
            if case .genre(let id) = FeedBlockConfiguration.Source(block.source) { genreID = id }
            try await db.insert(into: "feed_blocks")
                .columns(
                    "position", "type", "title", "highlight", "highlight_text", "source", "item_limit", "genre_id",
                    "link", "description", "image_id", "title_link", "updated_at"
                )
                .values(
                    SQLBind(position), SQLBind(block.type.rawValue), SQLBind(block.title),
                    SQLBind(block.highlight != nil), SQLBind(block.highlight), SQLBind(block.source),
                    SQLBind(block.limit), SQLBind(genreID), SQLBind(block.link), SQLBind(block.description),
                    SQLBind(block.imageID), SQLBind(block.titleLink), SQLBind(now.epoch)
                ).run()
        }
        try await dropUnusedImages(now: now)
        try await feedChanged(now: now)
    }

    /// Records that what every feed shows changed (its blocks, a picture): the feed's version
    /// moves on, by a second at least, so that two changes within a second differ too.
    public func feedChanged(now: Date) async throws {
        try await SettingsStore(db).set(.feedChanged, to: String(max(now.epoch, try await feedChanged() + 1)))
    }

    /// When an admin last changed the feed's blocks (seconds since 1970), or 0.
    public func feedChanged() async throws -> Int64 {
        Int64(try await SettingsStore(db).value(.feedChanged) ?? "0") ?? 0
    }

    /// What the listener did that a feed made for them shows, as numbers that change when it
    /// does: their marks, ratings, picks, settings and listening (a time, then a count, but for
    /// settings). One read, for the feed's version.
    public func listenerVersion(userID: Int64) async throws -> [Int64] {
        guard
            let row = try await db.raw(
                """
                SELECT (SELECT COALESCE(MAX(created_at), 0) FROM marks WHERE user_id = \(bind: userID)) AS marks_at,
                    (SELECT COUNT(*) FROM marks WHERE user_id = \(bind: userID)) AS marks,
                    (SELECT COALESCE(MAX(updated_at), 0) FROM ratings WHERE user_id = \(bind: userID)) AS ratings_at,
                    (SELECT COUNT(*) FROM ratings WHERE user_id = \(bind: userID)) AS ratings,
                    (SELECT COALESCE(MAX(updated_at), 0) FROM listener_picks WHERE user_id = \(bind: userID))
                        AS picks_at,
                    (SELECT COUNT(*) FROM listener_picks WHERE user_id = \(bind: userID)) AS picks,
                    (SELECT COALESCE(MAX(updated_at), 0) FROM listen_settings WHERE user_id = \(bind: userID))
                        AS settings_at,
                    (SELECT COALESCE(MAX(id), 0) FROM listening_history WHERE user_id = \(bind: userID)) AS heard,
                    (SELECT COALESCE(MAX(at), 0) FROM listening_history WHERE user_id = \(bind: userID)) AS heard_at
                """
            ).first()
        else { return [] }
        return try [
            "marks_at", "marks", "ratings_at", "ratings", "picks_at", "picks", "settings_at", "heard", "heard_at",
        ].map {
            try row.decode(column: $0, as: Int64.self)
        }
    }

    public func genre(id: Int64) async throws -> Genre? {
        try await db.raw("SELECT id, name FROM genres WHERE id = \(bind: id)").first().map {
            Genre(id: try $0.decode(column: "id", as: Int64.self), name: try $0.decode(column: "name", as: String.self))
        }
    }
}
