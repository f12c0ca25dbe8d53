import Foundation
import Listen
import SQLKit
import SharedHelpers

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

    /// The rows of `ids` in the order of `ids` (unknown ids left out), read 500 at a time by
    /// `query`, which is given the ids for its `IN (…)`.
    func rows<Row>(
        _ ids: [Int64], id: (Row) -> Int64, query: (SQLList) -> SQLQueryString,
        _ decode: (any SQLRow) throws -> Row
    ) async throws -> [Row] {
        var found: [Int64: Row] = [:]
        for chunk in ids.chunked(500) {
            for row in try await db.raw(query(SQLList(chunk.map { SQLBind($0) }))).all() {
                let decoded = try decode(row)
                found[id(decoded)] = decoded
            }
        }
        return ids.compactMap { found[$0] }
    }

    // MARK: Authors and genres

    /// The id of the author of this name (in any letter case), created if new.
    public func authorID(named name: String) async throws -> Int64 {
        try await namedID(in: "authors", name)
    }

    public func genreID(named name: String) async throws -> Int64 {
        try await namedID(in: "genres", name)
    }

    func namedID(in table: String, _ name: String) async throws -> Int64 {
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

    /// The feeds of the podcasts imported from the web (not from files), to look at again.
    public func podcastFeeds() async throws -> [String] {
        try await db.raw(
            """
            SELECT feed_url FROM parents WHERE kind = \(bind: ParentKind.podcast.rawValue)
                AND (feed_url LIKE 'http://%' OR feed_url LIKE 'https://%') ORDER BY id
            """
        ).all(decodingColumn: "feed_url", as: String.self)
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

    static let parentColumns = """
        p.id, p.kind, p.title, p.author_id, a.name AS author_name, p.genre_id, g.name AS genre_name, p.year,
        p.description, p.feed_url, p.cover, p.updated_at,
        (SELECT COUNT(*) FROM media c WHERE c.parent_id = p.id) AS item_count,
        (SELECT COALESCE(SUM(c.duration), 0.0) FROM media c WHERE c.parent_id = p.id) AS total_duration
        """
    static let parentJoins = """
        FROM parents p LEFT JOIN authors a ON a.id = p.author_id LEFT JOIN genres g ON g.id = p.genre_id
        """

    func parent(from row: any SQLRow) throws -> Parent {
        Parent(
            id: try row.decode(column: "id", as: Int64.self),
            kind: try row.decodeCase(column: "kind", as: ParentKind.self),
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

    static func named<T>(_ row: any SQLRow, _ prefix: String, _ make: (Int64, String) -> T) throws -> T? {
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

}
