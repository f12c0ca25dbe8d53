import Foundation
import Listen
import SQLKit
import SharedHelpers

/// A library file as the catalogue last saw it, to tell changed files from unchanged ones.
public struct LibraryFile: Sendable, Equatable {
    public var mediaID: Int64
    public var size: Int64
    /// Modification time in milliseconds since 1970.
    public var modified: Int64
}

/// Where a media item's bytes are.
public struct MediaFile: Sendable, Equatable {
    public var path: String
    public var size: Int64
    public var modified: Date
    public var contentType: String
}

/// One hit of a search across the catalogue.
public struct SearchHit: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case media(MediaKind)
        case parent(ParentKind)
        case author
    }
    public var kind: Kind
    public var id: Int64
    public var title: String
    /// The author's name, or the parent's title for an item.
    public var subtitle: String?
}

/// What a parent holds for the scanner to write.
public struct ParentDraft: Sendable, Equatable {
    public var kind: ParentKind
    public var title: String
    public var authorID: Int64?
    public var genreID: Int64?
    public var year: Int?
    public var description: String
    public var feedURL: String?

    public init(
        kind: ParentKind, title: String, authorID: Int64?, genreID: Int64?, year: Int?, description: String = "",
        feedURL: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.authorID = authorID
        self.genreID = genreID
        self.year = year
        self.description = description
        self.feedURL = feedURL
    }
}

/// What a media item holds for the scanner or a feed import to write.
public struct MediaDraft: Sendable, Equatable {
    public var kind: MediaKind
    public var parentID: Int64
    public var title: String
    public var authorID: Int64?
    public var genreID: Int64?
    public var disc: Int
    public var number: Int
    public var duration: Double
    public var isExplicit: Bool
    public var description: String
    public var publishedAt: Date?
    /// The file inside the library, or nil for an episode that lives at `url`.
    public var path: String?
    public var url: String?
    public var guid: String?
    public var size: Int64
    public var modified: Int64
    public var contentType: String
    public var bitrate: Int?

    public init(
        kind: MediaKind, parentID: Int64, title: String, authorID: Int64?, genreID: Int64?, disc: Int, number: Int,
        duration: Double, isExplicit: Bool, description: String, publishedAt: Date?, path: String?, url: String?,
        guid: String?, size: Int64, modified: Int64, contentType: String, bitrate: Int?
    ) {
        self.kind = kind
        self.parentID = parentID
        self.title = title
        self.authorID = authorID
        self.genreID = genreID
        self.disc = disc
        self.number = number
        self.duration = duration
        self.isExplicit = isExplicit
        self.description = description
        self.publishedAt = publishedAt
        self.path = path
        self.url = url
        self.guid = guid
        self.size = size
        self.modified = modified
        self.contentType = contentType
        self.bitrate = bitrate
    }
}

public enum ListenStoreError: Error, Equatable {
    case notCreated
    /// Another device changed the player state since it was read.
    case playerChanged
}

/// The media catalogue and what listeners keep. Every method runs on the `SQLDatabase` it is
/// given, so callers choose the transaction.
public struct ListenStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    static func searchKey(_ text: String) -> String { text.lowercased() }

    // MARK: Authors and genres

    /// The id of the author of this name (in any letter case), created if new.
    public func authorID(named name: String) async throws -> Int64 {
        try await namedID(in: "authors", name)
    }

    public func genreID(named name: String) async throws -> Int64 {
        try await namedID(in: "genres", name)
    }

    private func namedID(in table: String, _ name: String) async throws -> Int64 {
        let key = Self.searchKey(name)
        if let id = try await db.select().column("id").from(table).where("search_key", .equal, key)
            .first(decodingColumn: "id", as: Int64.self)
        {
            return id
        }
        guard
            let id = try await db.insert(into: table).columns("name", "search_key")
                .values(SQLBind(name), SQLBind(key)).returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw ListenStoreError.notCreated }
        return id
    }

    public func author(id: Int64) async throws -> Author? {
        try await db.raw("SELECT id, name FROM authors WHERE id = \(bind: id)").first().map {
            Author(
                id: try $0.decode(column: "id", as: Int64.self), name: try $0.decode(column: "name", as: String.self))
        }
    }

    public func genres() async throws -> [Genre] {
        try await db.raw(
            "SELECT g.id, g.name FROM genres g WHERE EXISTS (SELECT 1 FROM media m WHERE m.genre_id = g.id) ORDER BY g.search_key"
        ).all().map {
            Genre(id: try $0.decode(column: "id", as: Int64.self), name: try $0.decode(column: "name", as: String.self))
        }
    }

    /// Drops authors and genres nothing refers to any more.
    public func dropUnusedNames() async throws {
        try await db.raw(
            """
            DELETE FROM authors WHERE NOT EXISTS (SELECT 1 FROM media m WHERE m.author_id = authors.id)
                AND NOT EXISTS (SELECT 1 FROM parents p WHERE p.author_id = authors.id)
            """
        ).run()
        try await db.raw(
            """
            DELETE FROM genres WHERE NOT EXISTS (SELECT 1 FROM media m WHERE m.genre_id = genres.id)
                AND NOT EXISTS (SELECT 1 FROM parents p WHERE p.genre_id = genres.id)
                AND NOT EXISTS (SELECT 1 FROM feed_blocks b WHERE b.genre_id = genres.id)
            """
        ).run()
    }

    // MARK: Parents

    /// Creates the parent known by `source`, or updates it; returns its id, which never changes.
    public func saveParent(source: String, _ draft: ParentDraft, now: Date) async throws -> Int64 {
        if let id = try await db.select().column("id").from("parents").where("source", .equal, source)
            .first(decodingColumn: "id", as: Int64.self)
        {
            try await db.update("parents")
                .set("kind", to: draft.kind.rawValue).set("title", to: draft.title)
                .set("search_key", to: Self.searchKey(draft.title))
                // A file without an author, genre or year does not erase what another file said.
                .set(SQLIdentifier("author_id"), to: Self.keeping(draft.authorID, "author_id"))
                .set(SQLIdentifier("genre_id"), to: Self.keeping(draft.genreID, "genre_id"))
                .set(SQLIdentifier("year"), to: Self.keeping(draft.year, "year"))
                .set("description", to: draft.description).set("feed_url", to: draft.feedURL)
                .set("updated_at", to: now.epoch)
                .where("id", .equal, id).run()
            return id
        }
        guard
            let id = try await db.insert(into: "parents")
                .columns(
                    "kind", "title", "search_key", "author_id", "genre_id", "year", "description", "source",
                    "feed_url", "created_at", "updated_at"
                )
                .values(
                    SQLBind(draft.kind.rawValue), SQLBind(draft.title), SQLBind(Self.searchKey(draft.title)),
                    SQLBind(draft.authorID), SQLBind(draft.genreID), SQLBind(draft.year), SQLBind(draft.description),
                    SQLBind(source), SQLBind(draft.feedURL), SQLBind(now.epoch), SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw ListenStoreError.notCreated }
        return id
    }

    static func keeping<T: Encodable & Sendable>(_ value: T?, _ column: String) -> any SQLExpression {
        SQLFunction("COALESCE", args: SQLBind(value), SQLIdentifier(column))
    }

    /// Records the cover image file kept for a parent (a name inside the covers folder), or none.
    public func setCover(parentID: Int64, _ cover: String?) async throws {
        try await db.update("parents").set("cover", to: cover).where("id", .equal, parentID).run()
    }

    public func cover(parentID: Int64) async throws -> String? {
        try await db.select().column("cover").from("parents").where("id", .equal, parentID)
            .first(decodingColumn: "cover", as: String?.self) ?? nil
    }

    /// Removes parents left without items; returns their cover files, to delete.
    public func dropEmptyParents() async throws -> [String] {
        let covers = try await db.raw(
            """
            SELECT cover FROM parents p WHERE p.cover IS NOT NULL AND p.feed_url IS NULL
                AND NOT EXISTS (SELECT 1 FROM media m WHERE m.parent_id = p.id)
            """
        ).all(decodingColumn: "cover", as: String.self)
        try await db.raw(
            """
            DELETE FROM parents WHERE feed_url IS NULL
                AND NOT EXISTS (SELECT 1 FROM media m WHERE m.parent_id = parents.id)
            """
        ).run()
        return covers
    }

    private static let parentColumns = """
        p.id, p.kind, p.title, p.author_id, a.name AS author_name, p.genre_id, g.name AS genre_name, p.year,
        p.description, p.feed_url, p.cover, p.updated_at,
        (SELECT COUNT(*) FROM media c WHERE c.parent_id = p.id) AS item_count,
        (SELECT COALESCE(SUM(c.duration), 0.0) FROM media c WHERE c.parent_id = p.id) AS total_duration
        """
    private static let parentJoins = """
        FROM parents p LEFT JOIN authors a ON a.id = p.author_id LEFT JOIN genres g ON g.id = p.genre_id
        """

    private func parent(from row: any SQLRow) throws -> Parent {
        Parent(
            id: try row.decode(column: "id", as: Int64.self),
            kind: ParentKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .album,
            title: try row.decode(column: "title", as: String.self),
            author: try Self.named(row, "author", Author.init(id:name:)),
            genre: try Self.named(row, "genre", Genre.init(id:name:)),
            year: try row.decode(column: "year", as: Int?.self),
            description: try row.decode(column: "description", as: String.self),
            feedURL: try row.decode(column: "feed_url", as: String?.self),
            hasCover: try row.decode(column: "cover", as: String?.self) != nil,
            itemCount: try row.decode(column: "item_count", as: Int.self),
            duration: try row.decode(column: "total_duration", as: Double.self),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
    }

    private static func named<T>(_ row: any SQLRow, _ prefix: String, _ make: (Int64, String) -> T) throws -> T? {
        guard let id = try row.decode(column: "\(prefix)_id", as: Int64?.self),
            let name = try row.decode(column: "\(prefix)_name", as: String?.self)
        else { return nil }
        return make(id, name)
    }

    public func parent(id: Int64) async throws -> Parent? {
        try await db.raw(
            "SELECT \(unsafeRaw: Self.parentColumns) \(unsafeRaw: Self.parentJoins) WHERE p.id = \(bind: id)"
        )
        .first().map(parent(from:))
    }

    /// Parents of a kind (or all), by title, optionally by one author or in one genre.
    public func parents(
        kind: ParentKind?, authorID: Int64? = nil, genreID: Int64? = nil, limit: Int, offset: Int = 0
    ) async throws -> [Parent] {
        var conditions: [SQLQueryString] = []
        if let kind { conditions.append("p.kind = \(bind: kind.rawValue)") }
        if let authorID { conditions.append("p.author_id = \(bind: authorID)") }
        if let genreID { conditions.append("p.genre_id = \(bind: genreID)") }
        let whereClause: SQLQueryString =
            conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await db.raw(
            """
            SELECT \(unsafeRaw: Self.parentColumns) \(unsafeRaw: Self.parentJoins) \(whereClause)
            ORDER BY p.search_key, p.id LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all().map(parent(from:))
    }

    /// The newest parents first, for the home feed.
    public func newestParents(kind: ParentKind?, limit: Int) async throws -> [Parent] {
        let condition: SQLQueryString = kind.map { "WHERE p.kind = \(bind: $0.rawValue)" } ?? ""
        return try await db.raw(
            """
            SELECT \(unsafeRaw: Self.parentColumns) \(unsafeRaw: Self.parentJoins) \(condition)
            ORDER BY p.created_at DESC, p.id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map(parent(from:))
    }

    // MARK: Media

    private static let mediaColumns = """
        m.id, m.kind, m.parent_id, p.title AS parent_title, m.title, m.author_id, a.name AS author_name,
        m.genre_id, g.name AS genre_name, m.disc, m.number, m.duration, m.explicit, m.description,
        m.published_at, m.content_type, m.size, m.bitrate, p.cover, m.updated_at
        """
    private static let mediaJoins = """
        FROM media m JOIN parents p ON p.id = m.parent_id LEFT JOIN authors a ON a.id = m.author_id
        LEFT JOIN genres g ON g.id = m.genre_id
        """

    private func media(from row: any SQLRow) throws -> MediaItem {
        MediaItem(
            id: try row.decode(column: "id", as: Int64.self),
            kind: MediaKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .track,
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
        guard !ids.isEmpty else { return [] }
        var found: [Int64: MediaItem] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let list = SQLList(chunk.map { SQLBind($0) })
            for row in try await db.raw(
                "SELECT \(unsafeRaw: Self.mediaColumns) \(unsafeRaw: Self.mediaJoins) WHERE m.id IN (\(list))"
            ).all() {
                let item = try media(from: row)
                found[item.id] = item
            }
        }
        return ids.compactMap { found[$0] }
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

    /// Items, parents and authors whose names hold every word of `query`, parents and authors
    /// first, each kind by name.
    public func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        let words = query.lowercased().split(whereSeparator: \.isWhitespace).prefix(8).map(String.init)
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
                    kind: .parent(ParentKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .album),
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
                    kind: .media(MediaKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .track),
                    id: try row.decode(column: "id", as: Int64.self),
                    title: try row.decode(column: "title", as: String.self),
                    subtitle: try row.decode(column: "parent_title", as: String.self)))
        }
        return Array(hits.prefix(limit))
    }

    // MARK: Player

    /// The stored player state (JSON) and its version; nil before the first action.
    public func playerState(userID: Int64) async throws -> (state: String, version: Int64)? {
        guard
            let row = try await db.raw(
                "SELECT state, version FROM player_states WHERE user_id = \(bind: userID)"
            ).first()
        else { return nil }
        return (try row.decode(column: "state", as: String.self), try row.decode(column: "version", as: Int64.self))
    }

    /// Stores the state if it is still at `version` (nil: never stored); throws
    /// ``ListenStoreError/playerChanged`` when another device got there first.
    public func savePlayerState(userID: Int64, _ state: String, replacing version: Int64?, now: Date) async throws {
        if let version {
            let changed = try await db.raw(
                """
                UPDATE player_states SET state = \(bind: state), version = version + 1, updated_at = \(bind: now.epoch)
                WHERE user_id = \(bind: userID) AND version = \(bind: version) RETURNING version
                """
            ).all()
            guard changed.count == 1 else { throw ListenStoreError.playerChanged }
        } else {
            do {
                try await db.insert(into: "player_states").columns("user_id", "state", "version", "updated_at")
                    .values(SQLBind(userID), SQLBind(state), SQLBind(1), SQLBind(now.epoch)).run()
            } catch  where isUniqueViolation(error) {
                throw ListenStoreError.playerChanged
            }
        }
    }

    public func recordListening(userID: Int64, _ events: [ListeningEvent], now: Date) async throws {
        for event in events {
            try await db.insert(into: "listening_history")
                .columns("user_id", "media_id", "outcome", "position", "at")
                .values(
                    SQLBind(userID), SQLBind(event.mediaID), SQLBind(event.outcome.rawValue), SQLBind(event.position),
                    SQLBind(now.epoch)
                ).run()
        }
    }

    /// Keeps where the listener stopped in a spoken item; an item played to its end starts over.
    public func saveResumePosition(userID: Int64, mediaID: Int64, position: Double?, now: Date) async throws {
        try await db.delete(from: "resume_positions").where("user_id", .equal, userID)
            .where("media_id", .equal, mediaID).run()
        guard let position, position > 0 else { return }
        try await db.insert(into: "resume_positions").columns("user_id", "media_id", "position", "updated_at")
            .values(SQLBind(userID), SQLBind(mediaID), SQLBind(position), SQLBind(now.epoch)).run()
    }

    public func resumePositions(userID: Int64, mediaIDs: [Int64]) async throws -> [Int64: Double] {
        guard !mediaIDs.isEmpty else { return [:] }
        var positions: [Int64: Double] = [:]
        for chunk in stride(from: 0, to: mediaIDs.count, by: 500).map({
            Array(mediaIDs[$0..<min($0 + 500, mediaIDs.count)])
        }) {
            for row in try await db.select().columns("media_id", "position").from("resume_positions")
                .where("user_id", .equal, userID).where("media_id", .in, chunk).all()
            {
                positions[try row.decode(column: "media_id", as: Int64.self)] = try row.decode(
                    column: "position", as: Double.self)
            }
        }
        return positions
    }

    /// The listener's history, newest first.
    public func history(userID: Int64, limit: Int) async throws -> [(event: ListeningEvent, at: Date)] {
        try await db.raw(
            """
            SELECT media_id, outcome, position, at FROM listening_history WHERE user_id = \(bind: userID)
            ORDER BY at DESC, id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map { row in
            (
                ListeningEvent(
                    mediaID: try row.decode(column: "media_id", as: Int64.self),
                    outcome: ListeningOutcome(rawValue: try row.decode(column: "outcome", as: String.self)) ?? .ended,
                    position: try row.decode(column: "position", as: Double.self)),
                Date(epoch: try row.decode(column: "at", as: Int64.self))
            )
        }
    }

    /// System playlists: the items the listener played last or most, or items by authors and
    /// in genres they liked that they have not played.
    public func systemPlaylist(_ playlist: SystemPlaylist, userID: Int64, limit: Int) async throws -> [Int64] {
        let sql: SQLQueryString
        switch playlist {
        case .recentlyPlayed:
            sql = """
                SELECT media_id FROM listening_history WHERE user_id = \(bind: userID)
                GROUP BY media_id ORDER BY MAX(id) DESC LIMIT \(unsafeRaw: String(limit))
                """
        case .mostPlayed:
            sql = """
                SELECT media_id FROM listening_history WHERE user_id = \(bind: userID)
                GROUP BY media_id ORDER BY COUNT(*) DESC, MAX(id) DESC LIMIT \(unsafeRaw: String(limit))
                """
        case .recommended:
            sql = """
                SELECT m.id AS media_id FROM media m JOIN parents p ON p.id = m.parent_id
                WHERE (m.author_id IN (SELECT x.author_id FROM media x JOIN marks k ON k.target = 'media:' || x.id
                           WHERE k.user_id = \(bind: userID) AND k.mark = 'like' AND x.author_id IS NOT NULL)
                    OR m.genre_id IN (SELECT x.genre_id FROM media x JOIN marks k ON k.target = 'media:' || x.id
                           WHERE k.user_id = \(bind: userID) AND k.mark = 'like' AND x.genre_id IS NOT NULL)
                    OR 'author:' || m.author_id IN (SELECT target FROM marks WHERE user_id = \(bind: userID) AND mark = 'like'))
                  AND NOT EXISTS (SELECT 1 FROM listening_history h WHERE h.user_id = \(bind: userID) AND h.media_id = m.id)
                  AND NOT EXISTS (SELECT 1 FROM marks k WHERE k.user_id = \(bind: userID) AND k.target = 'media:' || m.id)
                ORDER BY p.search_key, m.disc, m.number, m.id LIMIT \(unsafeRaw: String(limit))
                """
        }
        return try await db.raw(sql).all(decodingColumn: "media_id", as: Int64.self)
    }

    /// Items like these (same authors or genres), not among them, for the endless queue.
    public func similar(to mediaIDs: [Int64], limit: Int) async throws -> [Int64] {
        guard !mediaIDs.isEmpty else { return [] }
        let ids = SQLList(mediaIDs.suffix(200).map { SQLBind($0) })
        return try await db.raw(
            """
            SELECT m.id FROM media m
            WHERE (m.author_id IN (SELECT author_id FROM media WHERE id IN (\(ids)))
                OR m.genre_id IN (SELECT genre_id FROM media WHERE id IN (\(ids))))
              AND m.id NOT IN (\(ids))
            ORDER BY m.parent_id, m.disc, m.number, m.id LIMIT \(unsafeRaw: String(limit))
            """
        ).all(decodingColumn: "id", as: Int64.self)
    }

    // MARK: Likes and hides

    public enum Mark: String, Sendable, Codable {
        case like, hide
    }

    /// Likes or hides a target (`media:3`, `album:2`, `author:5`), or clears the mark (nil). A
    /// like and a hide exclude each other.
    public func setMark(userID: Int64, target: Reference, _ mark: Mark?, now: Date) async throws {
        try await db.delete(from: "marks").where("user_id", .equal, userID)
            .where("target", .equal, target.description).run()
        guard let mark else { return }
        try await db.insert(into: "marks").columns("user_id", "target", "mark", "created_at")
            .values(SQLBind(userID), SQLBind(target.description), SQLBind(mark.rawValue), SQLBind(now.epoch)).run()
    }

    /// The listener's marks on these targets.
    public func marks(userID: Int64, targets: [Reference]) async throws -> [Reference: Mark] {
        guard !targets.isEmpty else { return [:] }
        var marks: [Reference: Mark] = [:]
        let all = targets.map(\.description)
        for chunk in stride(from: 0, to: all.count, by: 500).map({ Array(all[$0..<min($0 + 500, all.count)]) }) {
            for row in try await db.select().columns("target", "mark").from("marks")
                .where("user_id", .equal, userID).where("target", .in, chunk).all()
            {
                if let target = Reference(try row.decode(column: "target", as: String.self)),
                    let mark = Mark(rawValue: try row.decode(column: "mark", as: String.self))
                {
                    marks[target] = mark
                }
            }
        }
        return marks
    }

    /// Everything the listener marked, newest first.
    public func marked(userID: Int64, _ mark: Mark, limit: Int) async throws -> [Reference] {
        try await db.raw(
            """
            SELECT target FROM marks WHERE user_id = \(bind: userID) AND mark = \(bind: mark.rawValue)
            ORDER BY created_at DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all(decodingColumn: "target", as: String.self).compactMap(Reference.init)
    }

    /// Which of these items the listener hid, directly or by hiding their parent or author.
    public func hiddenMedia(userID: Int64, among ids: [Int64]) async throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        var hidden: Set<Int64> = []
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let list = SQLList(chunk.map { SQLBind($0) })
            hidden.formUnion(
                try await db.raw(
                    """
                    SELECT m.id FROM media m JOIN parents p ON p.id = m.parent_id
                    JOIN marks k ON k.user_id = \(bind: userID) AND k.mark = 'hide'
                        AND (k.target = 'media:' || m.id OR k.target = p.kind || ':' || p.id
                             OR k.target = 'author:' || m.author_id)
                    WHERE m.id IN (\(list))
                    """
                ).all(decodingColumn: "id", as: Int64.self))
        }
        return hidden
    }

    // MARK: Ratings and comments

    public func rating(parentID: Int64, userID: Int64) async throws -> RatingSummary {
        let row = try await db.raw(
            """
            SELECT CAST(AVG(stars) AS DOUBLE PRECISION) AS average, COUNT(*) AS n,
                MAX(CASE WHEN user_id = \(bind: userID) THEN stars END) AS mine
            FROM ratings WHERE parent_id = \(bind: parentID)
            """
        ).first()
        guard let row else { return RatingSummary(average: nil, count: 0, mine: nil) }
        return RatingSummary(
            average: try row.decode(column: "average", as: Double?.self),
            count: try row.decode(column: "n", as: Int.self), mine: try row.decode(column: "mine", as: Int?.self))
    }

    public func rate(parentID: Int64, userID: Int64, stars: Int?, now: Date) async throws {
        try await db.delete(from: "ratings").where("parent_id", .equal, parentID).where("user_id", .equal, userID)
            .run()
        guard let stars else { return }
        try await db.insert(into: "ratings").columns("parent_id", "user_id", "stars", "updated_at")
            .values(SQLBind(parentID), SQLBind(userID), SQLBind(stars), SQLBind(now.epoch)).run()
    }

    public func comments(parentID: Int64, limit: Int) async throws -> [Comment] {
        try await db.raw(
            """
            SELECT c.id, c.parent_id, c.user_id, u.first_name, u.last_name, c.body, c.created_at
            FROM comments c JOIN users u ON u.id = c.user_id WHERE c.parent_id = \(bind: parentID)
            ORDER BY c.created_at DESC, c.id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map(comment(from:))
    }

    public func comment(id: Int64) async throws -> Comment? {
        try await db.raw(
            """
            SELECT c.id, c.parent_id, c.user_id, u.first_name, u.last_name, c.body, c.created_at
            FROM comments c JOIN users u ON u.id = c.user_id WHERE c.id = \(bind: id)
            """
        ).first().map(comment(from:))
    }

    private func comment(from row: any SQLRow) throws -> Comment {
        Comment(
            id: try row.decode(column: "id", as: Int64.self),
            parentID: try row.decode(column: "parent_id", as: Int64.self),
            authorID: try row.decode(column: "user_id", as: Int64.self),
            authorName:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            body: try row.decode(column: "body", as: String.self),
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)))
    }

    public func addComment(parentID: Int64, userID: Int64, body: String, now: Date) async throws -> Int64 {
        guard
            let id = try await db.insert(into: "comments").columns("parent_id", "user_id", "body", "created_at")
                .values(SQLBind(parentID), SQLBind(userID), SQLBind(body), SQLBind(now.epoch))
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw ListenStoreError.notCreated }
        return id
    }

    public func deleteComment(id: Int64) async throws {
        try await db.delete(from: "comments").where("id", .equal, id).run()
    }

    // MARK: Feed blocks

    /// The home feed's blocks as an admin configured them, in order (none: the default feed).
    public func feedBlocks() async throws -> [FeedBlockConfiguration] {
        try await db.raw(
            "SELECT type, title, highlight, source, item_limit, link FROM feed_blocks ORDER BY position, id"
        ).all().compactMap { row in
            guard let type = FeedBlockConfiguration.BlockType(rawValue: try row.decode(column: "type", as: String.self))
            else { return nil }
            return FeedBlockConfiguration(
                type: type, title: try row.decode(column: "title", as: String.self),
                highlight: try row.decode(column: "highlight", as: Bool.self),
                source: try row.decode(column: "source", as: String.self),
                limit: try row.decode(column: "item_limit", as: Int.self),
                link: try row.decode(column: "link", as: String?.self))
        }
    }

    public func saveFeedBlocks(_ blocks: [FeedBlockConfiguration], now: Date) async throws {
        try await db.delete(from: "feed_blocks").run()
        for (position, block) in blocks.enumerated() {
            var genreID: Int64?
            if case .genre(let id) = FeedBlockConfiguration.Source(block.source) { genreID = id }
            try await db.insert(into: "feed_blocks")
                .columns(
                    "position", "type", "title", "highlight", "source", "item_limit", "genre_id", "link", "updated_at"
                )
                .values(
                    SQLBind(position), SQLBind(block.type.rawValue), SQLBind(block.title), SQLBind(block.highlight),
                    SQLBind(block.source), SQLBind(block.limit), SQLBind(genreID), SQLBind(block.link),
                    SQLBind(now.epoch)
                ).run()
        }
        try await AccountStore(db).setSetting("listen.feed_changed", to: String(now.epoch))
    }

    /// When an admin last changed the feed's blocks (seconds since 1970), or 0.
    public func feedChanged() async throws -> Int64 {
        Int64(try await AccountStore(db).setting("listen.feed_changed") ?? "0") ?? 0
    }

    public func genre(id: Int64) async throws -> Genre? {
        try await db.raw("SELECT id, name FROM genres WHERE id = \(bind: id)").first().map {
            Genre(id: try $0.decode(column: "id", as: Int64.self), name: try $0.decode(column: "name", as: String.self))
        }
    }

    // MARK: Playlists

    private static let playlistColumns = """
        l.id, l.user_id, l.kind, l.name, l.updated_at,
        (SELECT COUNT(*) FROM playlist_items i WHERE i.playlist_id = l.id) AS item_count
        """

    private func playlist(from row: any SQLRow) throws -> Playlist {
        Playlist(
            id: try row.decode(column: "id", as: Int64.self),
            ownerID: try row.decode(column: "user_id", as: Int64.self),
            kind: MediaKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .track,
            name: try row.decode(column: "name", as: String.self),
            itemCount: try row.decode(column: "item_count", as: Int.self),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
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

    public func playlists(userID: Int64) async throws -> [Playlist] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.playlistColumns) FROM playlists l WHERE l.user_id = \(bind: userID)
            ORDER BY l.updated_at DESC, l.id DESC
            """
        ).all().map(playlist(from:))
    }

    public func playlistItems(_ id: Int64) async throws -> [Int64] {
        try await db.raw("SELECT media_id FROM playlist_items WHERE playlist_id = \(bind: id) ORDER BY position")
            .all(decodingColumn: "media_id", as: Int64.self)
    }

    /// Replaces the playlist's items (in this order) and its name.
    public func savePlaylist(_ id: Int64, name: String, items: [Int64], now: Date) async throws {
        try await db.update("playlists").set("name", to: name).set("updated_at", to: now.epoch)
            .where("id", .equal, id).run()
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

    // MARK: Settings

    public func settings(userID: Int64) async throws -> ListenSettings {
        guard
            let json = try await db.select().column("settings").from("listen_settings")
                .where("user_id", .equal, userID).first(decodingColumn: "settings", as: String.self),
            let settings = try? JSONDecoder().decode(ListenSettings.self, from: Data(json.utf8))
        else { return ListenSettings() }
        return settings
    }

    public func saveSettings(userID: Int64, _ settings: ListenSettings, now: Date) async throws {
        let json = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try await db.delete(from: "listen_settings").where("user_id", .equal, userID).run()
        try await db.insert(into: "listen_settings").columns("user_id", "settings", "updated_at")
            .values(SQLBind(userID), SQLBind(json), SQLBind(now.epoch)).run()
    }
}
