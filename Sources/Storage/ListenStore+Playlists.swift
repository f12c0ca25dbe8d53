import Foundation
import Listen
import SQLKit
import SharedHelpers

/// Listeners' own playlists.
extension ListenStore {
    // MARK: Playlists

    static let playlistColumns = """
        l.id, l.user_id, l.kind, l.name, l.updated_at, l.is_public,
        (SELECT COUNT(*) FROM playlist_items i WHERE i.playlist_id = l.id) AS item_count,
        (SELECT COALESCE(SUM(m.duration), 0) FROM playlist_items i JOIN media m ON m.id = i.media_id
         WHERE i.playlist_id = l.id) AS duration
        """

    func playlist(from row: any SQLRow) throws -> Playlist {
        Playlist(
            id: try row.decode(column: "id", as: Int64.self),
            ownerID: try row.decode(column: "user_id", as: Int64.self),
            kind: try row.decodeCase(column: "kind", as: MediaKind.self),
            name: try row.decode(column: "name", as: String.self),
            itemCount: try row.decode(column: "item_count", as: Int.self),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)),
            isPublic: try row.decode(column: "is_public", as: Bool.self),
            duration: try row.decode(column: "duration", as: Double.self))
    }

    public func createPlaylist(userID: Int64, kind: MediaKind, name: String, now: Date) async throws -> Playlist {
        guard
            let id = try await db.insert(into: "playlists").columns(
                "user_id", "kind", "name", "created_at", "updated_at"
            )
            .values(SQLBind(userID), SQLBind(kind.rawValue), SQLBind(name), SQLBind(now.epoch), SQLBind(now.epoch))
            .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw ListenStoreError.notCreated }
        return Playlist(id: id, ownerID: userID, kind: kind, name: name, itemCount: 0, updatedAt: now.rounded)
    }

    public func playlist(id: Int64) async throws -> Playlist? {
        try await db.raw("SELECT \(unsafeRaw: Self.playlistColumns) FROM playlists l WHERE l.id = \(bind: id)").first()
            .map(playlist(from:))
    }

    /// These playlists, in the order of `ids` (unknown ids left out).
    public func playlists(ids: [Int64]) async throws -> [Playlist] {
        try await rows(
            ids, id: \.id,
            query: { "SELECT \(unsafeRaw: Self.playlistColumns) FROM playlists l WHERE l.id IN (\($0))" },
            playlist(from:))
    }

    /// The listener's own playlists, the last changed first: all of them, or a page.
    public func playlists(userID: Int64, limit: Int? = nil, offset: Int = 0) async throws -> [Playlist] {
        var page: SQLQueryString = ""
        if let limit { page = "LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))" }
        return try await db.raw(
            """
            SELECT \(unsafeRaw: Self.playlistColumns) FROM playlists l WHERE l.user_id = \(bind: userID)
            ORDER BY l.updated_at DESC, l.id DESC \(page)
            """
        ).all().map(playlist(from:))
    }

    /// How many playlists of their own the listener has.
    public func playlistCount(userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM playlists WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    public func playlistItems(_ id: Int64) async throws -> [Int64] {
        try await db.raw("SELECT media_id FROM playlist_items WHERE playlist_id = \(bind: id) ORDER BY position")
            .all(decodingColumn: "media_id", as: Int64.self)
    }

    /// Replaces the playlist's items (in this order), its name and whether it is public.
    public func savePlaylist(_ id: Int64, name: String, items: [Int64], isPublic: Bool, now: Date) async throws {
        try await db.update("playlists").set("name", to: name).set("is_public", to: isPublic)
            .set("updated_at", to: now.epoch).where("id", .equal, id).run()
        try await db.delete(from: "playlist_items").where("playlist_id", .equal, id).run()
        for (offset, chunk) in stride(from: 0, to: items.count, by: 300).map({
            ($0, Array(items[$0..<min($0 + 300, items.count)]))
        }) {
            var insert = db.insert(into: "playlist_items").columns("playlist_id", "media_id", "position")
            for (index, media) in chunk.enumerated() {
                insert = insert.values(SQLBind(id), SQLBind(media), SQLBind(offset + index))
            }
            try await insert.run()
        }
    }

    public func deletePlaylist(_ id: Int64) async throws {
        try await db.delete(from: "playlists").where("id", .equal, id).run()
    }
}
