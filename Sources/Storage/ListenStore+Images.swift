import Foundation
import Listen
import SQLKit
import SharedHelpers

/// What stands for an author, a genre or a playlist: a picture an admin uploaded, or else a
/// cover of one of its albums, podcasts or books.
public enum Picture: Sendable, Equatable {
    /// An image of ``ListenStore/libraryImage(id:)``.
    case uploaded(imageID: Int64)
    /// The parent's cover, at the version it had then.
    case cover(parentID: Int64, updatedAt: Date)
}

/// Images admins upload (feed blocks' backgrounds and banners, pictures of authors and genres),
/// and the pictures that stand for authors, genres and playlists.
extension ListenStore {
    // MARK: Uploaded images

    /// Keeps an image a block or a picture will show; its id.
    public func addLibraryImage(contentType: String, data: [UInt8], now: Date) async throws -> Int64 {
        guard
            let id = try await db.insert(into: "library_images").columns("content_type", "data", "updated_at")
                .values(SQLBind(contentType), SQLBind(Data(data)), SQLBind(now.epoch))
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw ListenStoreError.notCreated }
        return id
    }

    public func libraryImage(id: Int64) async throws -> StoredImage? {
        guard
            let row = try await db.select().columns("content_type", "data", "updated_at").from("library_images")
                .where("id", .equal, id).first()
        else { return nil }
        return StoredImage(
            contentType: try row.decode(column: "content_type", as: String.self),
            data: [UInt8](try row.decode(column: "data", as: Data.self)),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
    }

    public func libraryImageExists(id: Int64) async throws -> Bool {
        try await db.raw("SELECT 1 AS one FROM library_images WHERE id = \(bind: id)").first() != nil
    }

    /// Images nothing shows any more go, once they are a day old (a fresh upload waits for the
    /// block or picture it was uploaded for).
    public func dropUnusedImages(now: Date) async throws {
        try await db.raw(
            """
            DELETE FROM library_images WHERE updated_at < \(bind: now.epoch - 86_400)
              AND NOT EXISTS (SELECT 1 FROM feed_blocks b WHERE b.image_id = library_images.id)
              AND NOT EXISTS (SELECT 1 FROM authors a WHERE a.image_id = library_images.id)
              AND NOT EXISTS (SELECT 1 FROM genres g WHERE g.image_id = library_images.id)
            """
        ).run()
    }

    // MARK: Pictures of authors and genres

    /// Sets (or, with nil, clears) the picture an admin chose for an author.
    public func setPicture(authorID: Int64, imageID: Int64?) async throws {
        try await db.update("authors").set("image_id", to: SQLBind(imageID)).where("id", .equal, authorID).run()
    }

    public func setPicture(genreID: Int64, imageID: Int64?) async throws {
        try await db.update("genres").set("image_id", to: SQLBind(imageID)).where("id", .equal, genreID).run()
    }

    /// What stands for each of these authors: their uploaded picture, else the cover of their
    /// newest parent with one.
    public func pictures(authorIDs: [Int64]) async throws -> [Int64: Picture] {
        try await uploaded(table: "authors", ids: authorIDs).merging(
            try await coverParents(owner: "p.author_id", from: "parents p", ids: authorIDs)
        ) { uploaded, _ in uploaded }
    }

    /// A genre is the genre of items (a parent's own may be unset).
    public func pictures(genreIDs: [Int64]) async throws -> [Int64: Picture] {
        try await uploaded(table: "genres", ids: genreIDs).merging(
            try await coverParents(
                owner: "m.genre_id", from: "media m JOIN parents p ON p.id = m.parent_id", ids: genreIDs)
        ) { uploaded, _ in uploaded }
    }

    private func uploaded(table: String, ids: [Int64]) async throws -> [Int64: Picture] {
        var found: [Int64: Picture] = [:]
        for chunk in ids.chunked(500) where !chunk.isEmpty {
            for row in try await db.select().columns("id", "image_id").from(table).where("id", .in, Array(chunk))
                .where("image_id", .isNot, SQLLiteral.null).all()
            {
                found[try row.decode(column: "id", as: Int64.self)] = .uploaded(
                    imageID: try row.decode(column: "image_id", as: Int64.self))
            }
        }
        return found
    }

    /// For each owner (an author or a genre) with a parent that has a cover: the newest such.
    private func coverParents(owner: String, from tables: String, ids: [Int64]) async throws -> [Int64: Picture] {
        var newest: [Int64: Int64] = [:]
        for chunk in ids.chunked(500) where !chunk.isEmpty {
            let list = SQLList(chunk.map { SQLBind($0) })
            for row in try await db.raw(
                """
                SELECT \(unsafeRaw: owner) AS owner, MAX(p.id) AS parent_id FROM \(unsafeRaw: tables)
                WHERE p.cover IS NOT NULL AND \(unsafeRaw: owner) IN (\(list)) GROUP BY \(unsafeRaw: owner)
                """
            ).all() {
                newest[try row.decode(column: "owner", as: Int64.self)] = try row.decode(
                    column: "parent_id", as: Int64.self)
            }
        }
        let versions = Dictionary(
            try await parents(ids: Array(Set(newest.values))).map { ($0.id, $0.updatedAt) },
            uniquingKeysWith: { first, _ in first })
        return newest.compactMapValues { id in versions[id].map { .cover(parentID: id, updatedAt: $0) } }
    }

    // MARK: Pictures of playlists

    /// For each of these playlists with an item that has a cover: the first such item's cover.
    public func pictures(playlistIDs: [Int64]) async throws -> [Int64: Picture] {
        var found: [Int64: Picture] = [:]
        for chunk in playlistIDs.chunked(500) where !chunk.isEmpty {
            let list = SQLList(chunk.map { SQLBind($0) })
            for row in try await db.raw(
                """
                SELECT i.playlist_id, p.id, p.updated_at FROM playlist_items i
                JOIN media m ON m.id = i.media_id JOIN parents p ON p.id = m.parent_id
                WHERE i.playlist_id IN (\(list)) AND p.cover IS NOT NULL ORDER BY i.playlist_id, i.position
                """
            ).all() {
                let playlist = try row.decode(column: "playlist_id", as: Int64.self)
                guard found[playlist] == nil else { continue }
                found[playlist] = .cover(
                    parentID: try row.decode(column: "id", as: Int64.self),
                    updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
            }
        }
        return found
    }
}
