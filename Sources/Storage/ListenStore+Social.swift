import Foundation
import Listen
import SQLKit
import SharedHelpers

/// What listeners say: likes and hiding (marks), star ratings and comments.
extension ListenStore {
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

    /// The items (not parents or authors) the listener liked, the newest like first: a page.
    public func likedMedia(userID: Int64, limit: Int, offset: Int) async throws -> [Int64] {
        try await db.raw(
            """
            SELECT target FROM marks WHERE user_id = \(bind: userID) AND mark = 'like' AND target LIKE 'media:%'
            ORDER BY created_at DESC, target
            LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all(decodingColumn: "target", as: String.self).compactMap { target -> Int64? in
            guard let reference = Reference(target), case .media(let id) = reference else { return nil }
            return id
        }
    }

    /// How many marks (likes and hides) the listener keeps.
    public func markCount(userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM marks WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// The listener's likes, the newest first, each with when it was made (one read).
    public func likes(userID: Int64, limit: Int) async throws -> [(target: Reference, at: Date)] {
        try await db.raw(
            """
            SELECT target, created_at FROM marks WHERE user_id = \(bind: userID) AND mark = 'like'
            ORDER BY created_at DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all().compactMap { row in
            guard let target = Reference(try row.decode(column: "target", as: String.self)) else { return nil }
            return (target, Date(epoch: try row.decode(column: "created_at", as: Int64.self)))
        }
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

    /// The parent's ratings, with the listener's own (none for a visitor without an account: nil).
    public func rating(parentID: Int64, userID: Int64?) async throws -> RatingSummary {
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

    /// A parent's comments, the newest first: `limit` after `offset`.
    public func comments(parentID: Int64, limit: Int, offset: Int = 0) async throws -> [Comment] {
        try await db.raw(
            """
            SELECT c.id, c.parent_id, c.user_id, u.first_name, u.last_name, c.body, c.created_at
            FROM comments c JOIN users u ON u.id = c.user_id WHERE c.parent_id = \(bind: parentID)
            ORDER BY c.created_at DESC, c.id DESC
            LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all().map(comment(from:))
    }

    /// How many comments the user wrote (on every parent).
    public func commentCount(userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM comments WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    public func comment(id: Int64) async throws -> Comment? {
        try await db.raw(
            """
            SELECT c.id, c.parent_id, c.user_id, u.first_name, u.last_name, c.body, c.created_at
            FROM comments c JOIN users u ON u.id = c.user_id WHERE c.id = \(bind: id)
            """
        ).first().map(comment(from:))
    }

    func comment(from row: any SQLRow) throws -> Comment {
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
}
