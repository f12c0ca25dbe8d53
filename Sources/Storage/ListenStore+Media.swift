import Foundation
import Listen
import SQLKit
import SharedHelpers

/// Media items (tracks, episodes, chapters), the files they come from, and search.
extension ListenStore {
    // MARK: Media

    static let mediaColumns = """
        m.id, m.kind, m.parent_id, p.title AS parent_title, m.title, m.author_id, a.name AS author_name,
        m.genre_id, g.name AS genre_name, m.disc, m.number, m.duration, m.explicit, m.description,
        m.published_at, m.content_type, m.size, m.bitrate, p.cover, m.updated_at
        """
    static let mediaJoins = """
        FROM media m JOIN parents p ON p.id = m.parent_id LEFT JOIN authors a ON a.id = m.author_id
        LEFT JOIN genres g ON g.id = m.genre_id
        """

    func media(from row: any SQLRow) throws -> MediaItem {
        MediaItem(
            id: try row.decode(column: "id", as: Int64.self),
            kind: try row.decodeCase(column: "kind", as: MediaKind.self),
            parentID: try row.decode(column: "parent_id", as: Int64.self),
            parentTitle: try row.decode(column: "parent_title", as: String.self),
            title: try row.decode(column: "title", as: String.self),
            author: try Self.named(row, "author", Author.init(id:name:)),
            genre: try Self.named(row, "genre", Genre.init(id:name:)),
            disc: try row.decode(column: "disc", as: Int.self),
            number: try row.decode(column: "number", as: Int.self),
            duration: try row.decode(column: "duration", as: Double.self),
            isExplicit: try row.decode(column: "explicit", as: Bool.self),
            description: try row.decode(column: "description", as: String.self),
            publishedAt: try row.decode(column: "published_at", as: Int64?.self).map(Date.init(epoch:)),
            contentType: try row.decode(column: "content_type", as: String.self),
            size: try row.decode(column: "size", as: Int64.self),
            bitrate: try row.decode(column: "bitrate", as: Int?.self),
            hasCover: try row.decode(column: "cover", as: String?.self) != nil,
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
    }

    public func media(id: Int64) async throws -> MediaItem? {
        try await db.raw(
            "SELECT \(unsafeRaw: Self.mediaColumns) \(unsafeRaw: Self.mediaJoins) WHERE m.id = \(bind: id)"
        )
        .first().map(media(from:))
    }

    /// These items, in the order of `ids` (unknown ids left out).
    public func media(ids: [Int64]) async throws -> [MediaItem] {
        try await rows(
            ids, id: \.id,
            query: { "SELECT \(unsafeRaw: Self.mediaColumns) \(unsafeRaw: Self.mediaJoins) WHERE m.id IN (\($0))" },
            media(from:))
    }

    /// A parent's items in order: by disc and number (then title) for albums and audiobooks; the
    /// newest first for podcasts and programmes.
    public func children(of parent: Int64, kind: ParentKind) async throws -> [MediaItem] {
        let order =
            kind == .podcast || kind == .programme
            ? "m.published_at DESC, m.number DESC, m.search_key, m.id"
            : "m.disc, m.number, m.search_key, m.id"
        return try await db.raw(
            """
            SELECT \(unsafeRaw: Self.mediaColumns) \(unsafeRaw: Self.mediaJoins)
            WHERE m.parent_id = \(bind: parent) ORDER BY \(unsafeRaw: order)
            """
        ).all().map(media(from:))
    }

    /// An author's items (as author of the item or of its parent), by parent and order.
    public func media(byAuthor author: Int64, limit: Int) async throws -> [MediaItem] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.mediaColumns) \(unsafeRaw: Self.mediaJoins)
            WHERE m.author_id = \(bind: author) OR p.author_id = \(bind: author)
            ORDER BY p.search_key, m.parent_id, m.disc, m.number, m.id LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map(media(from:))
    }

    /// Items of a kind, by parent and order.
    public func mediaIDs(kind: MediaKind, limit: Int) async throws -> [Int64] {
        try await db.raw(
            """
            SELECT m.id FROM media m JOIN parents p ON p.id = m.parent_id WHERE m.kind = \(bind: kind.rawValue)
            ORDER BY p.search_key, m.parent_id, m.disc, m.number, m.id LIMIT \(unsafeRaw: String(limit))
            """
        ).all(decodingColumn: "id", as: Int64.self)
    }

    /// Items of a kind, the newest first (by publication, else by when they changed).
    public func newestMediaIDs(kind: MediaKind, limit: Int, offset: Int) async throws -> [Int64] {
        try await db.raw(
            """
            SELECT m.id FROM media m WHERE m.kind = \(bind: kind.rawValue)
            ORDER BY COALESCE(m.published_at, m.updated_at) DESC, m.id DESC
            LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all(decodingColumn: "id", as: Int64.self)
    }

    public func mediaFile(id: Int64) async throws -> MediaFile? {
        guard
            let row = try await db.raw(
                "SELECT path, size, modified_at, content_type FROM media WHERE id = \(bind: id) AND path IS NOT NULL"
            ).first()
        else { return nil }
        return MediaFile(
            path: try row.decode(column: "path", as: String.self),
            size: try row.decode(column: "size", as: Int64.self),
            modified: Date(
                timeIntervalSince1970: Double(try row.decode(column: "modified_at", as: Int64.self)) / 1000),
            contentType: try row.decode(column: "content_type", as: String.self))
    }

    /// Where a podcast episode imported from a feed lives, when it has no file here.
    public func remoteURL(id: Int64) async throws -> String? {
        try await db.select().column("url").from("media").where("id", .equal, id).where(
            SQLColumn("path"), .is, SQLLiteral.null
        )
        .first(decodingColumn: "url", as: String?.self) ?? nil
    }

    /// The item whose file is at `path`.
    public func mediaID(path: String) async throws -> Int64? {
        try await db.select().column("id").from("media").where("path", .equal, path)
            .first(decodingColumn: "id", as: Int64.self)
    }

    /// The library's files under `root` (a path prefix ending in "/"), as last scanned.
    public func libraryFiles(under root: String) async throws -> [String: LibraryFile] {
        var files: [String: LibraryFile] = [:]
        let rows = try await db.raw(
            "SELECT id, path, size, modified_at FROM media WHERE path LIKE \(bind: Self.prefixPattern(root)) ESCAPE '\\'"
        ).all()
        for row in rows {
            files[try row.decode(column: "path", as: String.self)] = LibraryFile(
                mediaID: try row.decode(column: "id", as: Int64.self),
                size: try row.decode(column: "size", as: Int64.self),
                modified: try row.decode(column: "modified_at", as: Int64.self))
        }
        return files
    }

    static func prefixPattern(_ prefix: String) -> String {
        String(likePattern(prefix).dropFirst())
    }

    /// Creates the item, or updates the one with the same file path (or, for a feed, the same
    /// guid in its parent), keeping its id. Returns the id.
    public func saveMedia(_ draft: MediaDraft, now: Date) async throws -> Int64 {
        var existing: Int64?
        if let path = draft.path {
            existing = try await db.select().column("id").from("media").where("path", .equal, path)
                .first(decodingColumn: "id", as: Int64.self)
        } else if let guid = draft.guid {
            existing = try await db.select().column("id").from("media").where("parent_id", .equal, draft.parentID)
                .where("guid", .equal, guid).first(decodingColumn: "id", as: Int64.self)
        }
        if let id = existing {
            try await db.update("media")
                .set("kind", to: draft.kind.rawValue).set("parent_id", to: draft.parentID)
                .set("title", to: draft.title).set("search_key", to: Self.searchKey(draft.title))
                .set("author_id", to: draft.authorID).set("genre_id", to: draft.genreID)
                .set("disc", to: draft.disc).set("number", to: draft.number).set("duration", to: draft.duration)
                .set("explicit", to: draft.isExplicit).set("description", to: draft.description)
                .set("published_at", to: draft.publishedAt?.epoch).set("url", to: draft.url)
                .set("guid", to: draft.guid).set("size", to: draft.size).set("modified_at", to: draft.modified)
                .set("content_type", to: draft.contentType).set("bitrate", to: draft.bitrate)
                .set("updated_at", to: now.epoch)
                .where("id", .equal, id).run()
            return id
        }
        guard
            let id = try await db.insert(into: "media")
                .columns(
                    "kind", "parent_id", "title", "search_key", "author_id", "genre_id", "disc", "number", "duration",
                    "explicit", "description", "published_at", "path", "url", "guid", "size", "modified_at",
                    "content_type", "bitrate", "created_at", "updated_at"
                )
                .values(
                    SQLBind(draft.kind.rawValue), SQLBind(draft.parentID), SQLBind(draft.title),
                    SQLBind(Self.searchKey(draft.title)), SQLBind(draft.authorID), SQLBind(draft.genreID),
                    SQLBind(draft.disc), SQLBind(draft.number), SQLBind(draft.duration), SQLBind(draft.isExplicit),
                    SQLBind(draft.description), SQLBind(draft.publishedAt?.epoch), SQLBind(draft.path),
                    SQLBind(draft.url), SQLBind(draft.guid), SQLBind(draft.size), SQLBind(draft.modified),
                    SQLBind(draft.contentType), SQLBind(draft.bitrate), SQLBind(now.epoch), SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw ListenStoreError.notCreated }
        return id
    }

    public func deleteMedia(ids: [Int64]) async throws {
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            try await db.delete(from: "media").where("id", .in, chunk).run()
            let targets = chunk.map { Reference.media($0).description }
            try await db.delete(from: "marks").where("target", .in, targets).run()
        }
    }

    public func mediaCount() async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM media").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// When the catalogue last changed: the newest `updated_at` of its parents and items, and
    /// how many there are (so that a removal changes it too).
    public func catalogueVersion() async throws -> (updated: Int64, count: Int) {
        let row = try await db.raw(
            """
            SELECT (SELECT COALESCE(MAX(updated_at), 0) FROM media) AS m,
                (SELECT COALESCE(MAX(updated_at), 0) FROM parents) AS p,
                (SELECT COUNT(*) FROM media) AS n
            """
        ).first()
        guard let row else { return (0, 0) }
        return (
            max(try row.decode(column: "m", as: Int64.self), try row.decode(column: "p", as: Int64.self)),
            try row.decode(column: "n", as: Int.self)
        )
    }

    // MARK: Search

    /// Items, parents and authors whose names hold every one of `words` (``Swift/String/searchWords``),
    /// parents and authors first, each kind by name.
    public func search(words: [String], limit: Int) async throws -> [SearchHit] {
        guard !words.isEmpty else { return [] }
        func matching(_ column: String) -> SQLQueryString {
            words.map { "\(unsafeRaw: column) LIKE \(bind: likePattern($0)) ESCAPE '\\'" as SQLQueryString }
                .joined(separator: " AND ")
        }
        var hits: [SearchHit] = []
        for row in try await db.raw(
            "SELECT id, name FROM authors WHERE \(matching("search_key")) ORDER BY search_key LIMIT \(unsafeRaw: String(limit))"
        ).all() {
            hits.append(
                SearchHit(
                    kind: .author, id: try row.decode(column: "id", as: Int64.self),
                    title: try row.decode(column: "name", as: String.self), subtitle: nil))
        }
        for row in try await db.raw(
            """
            SELECT p.id, p.kind, p.title, a.name FROM parents p LEFT JOIN authors a ON a.id = p.author_id
            WHERE \(matching("p.search_key")) ORDER BY p.search_key LIMIT \(unsafeRaw: String(limit))
            """
        ).all() {
            hits.append(
                SearchHit(
                    kind: .parent(try row.decodeCase(column: "kind", as: ParentKind.self)),
                    id: try row.decode(column: "id", as: Int64.self),
                    title: try row.decode(column: "title", as: String.self),
                    subtitle: try row.decode(column: "name", as: String?.self)))
        }
        for row in try await db.raw(
            """
            SELECT m.id, m.kind, m.title, p.title AS parent_title FROM media m JOIN parents p ON p.id = m.parent_id
            WHERE \(matching("m.search_key")) ORDER BY m.search_key LIMIT \(unsafeRaw: String(limit))
            """
        ).all() {
            hits.append(
                SearchHit(
                    kind: .media(try row.decodeCase(column: "kind", as: MediaKind.self)),
                    id: try row.decode(column: "id", as: Int64.self),
                    title: try row.decode(column: "title", as: String.self),
                    subtitle: try row.decode(column: "parent_title", as: String.self)))
        }
        return Array(hits.prefix(limit))
    }
}
