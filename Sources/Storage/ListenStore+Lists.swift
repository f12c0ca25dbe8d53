import Foundation
import Listen
import SQLKit
import SharedHelpers

/// Lists of the catalogue as players browse it (the Subsonic API's album lists, random songs,
/// genres, likes, bookmarks and paged search), leaving out what the listener hid.
extension ListenStore {
    /// Neither the parent, nor its author, is hidden by the listener.
    static func visibleParent(_ userID: Int64) -> SQLQueryString {
        """
        NOT EXISTS (SELECT 1 FROM marks k WHERE k.user_id = \(bind: userID) AND k.mark = 'hide'
            AND (k.target = p.kind || ':' || p.id OR k.target = 'author:' || p.author_id))
        """
    }

    /// Neither the item, nor its parent, nor its author is hidden by the listener.
    static func visibleMedia(_ userID: Int64) -> SQLQueryString {
        """
        NOT EXISTS (SELECT 1 FROM marks k WHERE k.user_id = \(bind: userID) AND k.mark = 'hide'
            AND (k.target = 'media:' || m.id OR k.target = p.kind || ':' || p.id
                 OR k.target = 'author:' || m.author_id OR k.target = 'author:' || p.author_id))
        """
    }

    static func kinds(_ kinds: [ParentKind]) -> SQLQueryString {
        "p.kind IN (\(SQLList(kinds.map { SQLBind($0.rawValue) })))"
    }

    /// Parents of these kinds in `order`, one page, each with when the listener liked it.
    public func albums(_ order: AlbumOrder, kinds: [ParentKind], userID: Int64, limit: Int, offset: Int)
        async throws -> [(parent: Parent, likedAt: Date?)]
    {
        guard !kinds.isEmpty else { return [] }
        var conditions: [SQLQueryString] = [Self.kinds(kinds), Self.visibleParent(userID)]
        let plays: SQLQueryString = """
            FROM listening_history h JOIN media c ON c.id = h.media_id
            WHERE h.user_id = \(bind: userID) AND c.parent_id = p.id
            """
        let sort: SQLQueryString
        switch order {
        case .random: sort = "RANDOM()"
        case .newest: sort = "p.created_at DESC, p.id DESC"
        case .alphabeticalByName: sort = "p.search_key, p.id"
        case .alphabeticalByArtist: sort = "COALESCE(a.name, ''), p.search_key, p.id"
        case .frequent:
            conditions.append("EXISTS (SELECT 1 \(plays))")
            sort = "(SELECT COUNT(*) \(plays)) DESC, p.search_key, p.id"
        case .recent:
            conditions.append("EXISTS (SELECT 1 \(plays))")
            sort = "(SELECT MAX(h.id) \(plays)) DESC"
        case .starred:
            conditions.append(
                """
                EXISTS (SELECT 1 FROM marks k WHERE k.user_id = \(bind: userID) AND k.mark = 'like'
                    AND k.target = p.kind || ':' || p.id)
                """)
            sort = "p.search_key, p.id"
        case .byYear(let from, let to):
            conditions.append("p.year BETWEEN \(bind: min(from, to)) AND \(bind: max(from, to))")
            sort = from <= to ? "p.year, p.search_key, p.id" : "p.year DESC, p.search_key, p.id"
        case .byGenre(let genre):
            conditions.append("g.search_key = \(bind: Self.searchKey(genre))")
            sort = "p.search_key, p.id"
        }
        return try await db.raw(
            """
            SELECT \(unsafeRaw: Self.parentColumns),
                (SELECT l.created_at FROM marks l WHERE l.user_id = \(bind: userID) AND l.mark = 'like'
                    AND l.target = p.kind || ':' || p.id) AS liked_at
            \(unsafeRaw: Self.parentJoins)
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(sort)
            LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all().map { row in
            (try parent(from: row), try row.decode(column: "liked_at", as: Int64?.self).map(Date.init(epoch:)))
        }
    }

    /// Authors of parents of these kinds, by name, with how many such parents each has.
    public func authors(kinds: [ParentKind], userID: Int64) async throws -> [(author: Author, albumCount: Int)] {
        guard !kinds.isEmpty else { return [] }
        return try await db.raw(
            """
            SELECT a.id, a.name, COUNT(*) AS n FROM authors a JOIN parents p ON p.author_id = a.id
            WHERE \(Self.kinds(kinds)) AND \(Self.visibleParent(userID))
            GROUP BY a.id, a.name, a.search_key ORDER BY a.search_key, a.id
            """
        ).all().map { row in
            (
                Author(
                    id: try row.decode(column: "id", as: Int64.self),
                    name: try row.decode(column: "name", as: String.self)),
                try row.decode(column: "n", as: Int.self)
            )
        }
    }

    /// Items of parents of these kinds, in random order, of a genre and parents' years if given.
    public func randomMedia(
        kinds: [ParentKind], userID: Int64, genre: String?, fromYear: Int?, toYear: Int?, limit: Int
    ) async throws -> [MediaItem] {
        guard !kinds.isEmpty else { return [] }
        var conditions: [SQLQueryString] = [Self.kinds(kinds), Self.visibleMedia(userID)]
        if let genre { conditions.append("g.search_key = \(bind: Self.searchKey(genre))") }
        if let fromYear { conditions.append("p.year >= \(bind: fromYear)") }
        if let toYear { conditions.append("p.year <= \(bind: toYear)") }
        return try await db.raw(
            """
            SELECT \(unsafeRaw: Self.mediaColumns) \(unsafeRaw: Self.mediaJoins)
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY RANDOM() LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map(media(from:))
    }

    /// Items of a genre (by name), by parent and order, one page.
    public func media(genre: String, userID: Int64, limit: Int, offset: Int) async throws -> [MediaItem] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.mediaColumns) \(unsafeRaw: Self.mediaJoins)
            WHERE g.search_key = \(bind: Self.searchKey(genre)) AND \(Self.visibleMedia(userID))
            ORDER BY p.search_key, m.parent_id, m.disc, m.number, m.id
            LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all().map(media(from:))
    }

    /// Every genre items have, with how many items and parents are of it.
    public func genreCounts() async throws -> [(genre: Genre, items: Int, parents: Int)] {
        try await db.raw(
            """
            SELECT g.id, g.name, COUNT(*) AS items, COUNT(DISTINCT m.parent_id) AS parents
            FROM genres g JOIN media m ON m.genre_id = g.id GROUP BY g.id, g.name, g.search_key ORDER BY g.search_key
            """
        ).all().map { row in
            (
                Genre(
                    id: try row.decode(column: "id", as: Int64.self),
                    name: try row.decode(column: "name", as: String.self)),
                try row.decode(column: "items", as: Int.self), try row.decode(column: "parents", as: Int.self)
            )
        }
    }

    /// When the listener liked each of these targets.
    public func likeDates(userID: Int64, targets: [Reference]) async throws -> [Reference: Date] {
        var dates: [Reference: Date] = [:]
        for chunk in targets.map(\.description).chunked(500) where !chunk.isEmpty {
            for row in try await db.select().columns("target", "created_at").from("marks")
                .where("user_id", .equal, userID).where("mark", .equal, "like").where("target", .in, Array(chunk))
                .all()
            {
                if let target = Reference(try row.decode(column: "target", as: String.self)) {
                    dates[target] = Date(epoch: try row.decode(column: "created_at", as: Int64.self))
                }
            }
        }
        return dates
    }

    /// Where the listener stopped in spoken items, the latest first.
    public func resumePositions(userID: Int64, limit: Int) async throws -> [(
        mediaID: Int64, position: Double, updatedAt: Date
    )] {
        try await db.raw(
            """
            SELECT media_id, position, updated_at FROM resume_positions WHERE user_id = \(bind: userID)
            ORDER BY updated_at DESC, media_id LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map { row in
            (
                try row.decode(column: "media_id", as: Int64.self), try row.decode(column: "position", as: Double.self),
                Date(epoch: try row.decode(column: "updated_at", as: Int64.self))
            )
        }
    }

    /// One page of a search of one kind of entry whose names hold every word (everything when
    /// there are no words), by name.
    public enum SearchKind: Sendable { case authors, parents, media }

    public func search(
        _ kind: SearchKind, words: [String], kinds: [ParentKind], userID: Int64, limit: Int, offset: Int
    ) async throws -> [Int64] {
        guard !kinds.isEmpty, limit > 0 else { return [] }
        func matching(_ column: String) -> [SQLQueryString] {
            words.map { "\(unsafeRaw: column) LIKE \(bind: likePattern($0)) ESCAPE '\\'" as SQLQueryString }
        }
        let page: SQLQueryString = "LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))"
        let sql: SQLQueryString
        switch kind {
        case .authors:
            let conditions =
                matching("a.search_key") + [
                    """
                    EXISTS (SELECT 1 FROM parents p WHERE p.author_id = a.id AND \(Self.kinds(kinds))
                        AND \(Self.visibleParent(userID)))
                    """
                ]
            sql = """
                SELECT a.id FROM authors a WHERE \(conditions.joined(separator: " AND "))
                ORDER BY a.search_key, a.id \(page)
                """
        case .parents:
            let conditions = matching("p.search_key") + [Self.kinds(kinds), Self.visibleParent(userID)]
            sql = """
                SELECT p.id FROM parents p WHERE \(conditions.joined(separator: " AND "))
                ORDER BY p.search_key, p.id \(page)
                """
        case .media:
            let conditions = matching("m.search_key") + [Self.kinds(kinds), Self.visibleMedia(userID)]
            sql = """
                SELECT m.id FROM media m JOIN parents p ON p.id = m.parent_id
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY m.search_key, m.id \(page)
                """
        }
        return try await db.raw(sql).all(decodingColumn: "id", as: Int64.self)
    }

    /// These parents, in the order of `ids` (unknown ids left out).
    public func parents(ids: [Int64]) async throws -> [Parent] {
        try await rows(
            ids, id: \.id,
            query: { "SELECT \(unsafeRaw: Self.parentColumns) \(unsafeRaw: Self.parentJoins) WHERE p.id IN (\($0))" },
            parent(from:))
    }

    /// These authors, in the order of `ids`.
    public func authors(ids: [Int64]) async throws -> [Author] {
        try await rows(ids, id: \.id, query: { "SELECT id, name FROM authors WHERE id IN (\($0))" }) { row in
            Author(
                id: try row.decode(column: "id", as: Int64.self), name: try row.decode(column: "name", as: String.self))
        }
    }
}
