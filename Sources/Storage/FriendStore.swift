import Foundation
import SQLKit
import SharedHelpers

/// One side of a follow: the other account, and since when.
public struct FriendLink: Sendable, Equatable {
    public var userID: Int64
    public var name: String
    public var requestedAt: Date
    /// Nil while the followed user has not accepted.
    public var acceptedAt: Date?

    public init(userID: Int64, name: String, requestedAt: Date, acceptedAt: Date?) {
        self.userID = userID
        self.name = name
        self.requestedAt = requestedAt
        self.acceptedAt = acceptedAt
    }
}

/// A user's follows, both ways, accepted or asked.
public struct FriendLists: Sendable, Equatable {
    /// Whom the user follows (accepted).
    public var following: [FriendLink] = []
    /// Who follows the user (accepted).
    public var followers: [FriendLink] = []
    /// Who asks to follow the user (not yet accepted).
    public var requests: [FriendLink] = []
    /// Whom the user asked to follow (not yet accepted).
    public var asked: [FriendLink] = []

    public init() {}
}

/// Friends (issue 41): who follows whom. A follow is asked for by the follower and accepted by
/// the followed user; each direction is its own row.
public struct FriendStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    /// The follow from `follower` to `followed`, if asked for.
    public func link(follower: Int64, followed: Int64) async throws -> FriendLink? {
        try await db.raw(
            """
            SELECT f.followed_id AS user_id, f.requested_at, f.accepted_at, u.first_name, u.last_name
            FROM follows f JOIN users u ON u.id = f.followed_id
            WHERE f.follower_id = \(bind: follower) AND f.followed_id = \(bind: followed)
            """
        ).first().map(Self.link)
    }

    /// Every follow of the user's, both ways, by name.
    public func lists(of userID: Int64) async throws -> FriendLists {
        var lists = FriendLists()
        for row in try await db.raw(
            """
            SELECT f.followed_id AS user_id, f.requested_at, f.accepted_at, u.first_name, u.last_name
            FROM follows f JOIN users u ON u.id = f.followed_id WHERE f.follower_id = \(bind: userID)
            ORDER BY u.first_name, u.last_name, u.id
            """
        ).all() {
            let link = try Self.link(row)
            if link.acceptedAt == nil { lists.asked.append(link) } else { lists.following.append(link) }
        }
        for row in try await db.raw(
            """
            SELECT f.follower_id AS user_id, f.requested_at, f.accepted_at, u.first_name, u.last_name
            FROM follows f JOIN users u ON u.id = f.follower_id WHERE f.followed_id = \(bind: userID)
            ORDER BY u.first_name, u.last_name, u.id
            """
        ).all() {
            let link = try Self.link(row)
            if link.acceptedAt == nil { lists.requests.append(link) } else { lists.followers.append(link) }
        }
        return lists
    }

    /// Whether the account takes part in competitions: it joined one, owns one or co-organizes one
    /// (the names every ranking and competition page shows).
    public func competes(_ userID: Int64) async throws -> Bool {
        try await db.raw(
            """
            SELECT 1 AS found FROM entries WHERE user_id = \(bind: userID)
            UNION ALL SELECT 1 AS found FROM competitions WHERE owner_id = \(bind: userID)
            UNION ALL SELECT 1 AS found FROM competition_organizers WHERE user_id = \(bind: userID)
            LIMIT 1
            """
        ).first() != nil
    }

    /// Whom the user follows (accepted).
    public func followedIDs(by userID: Int64) async throws -> Set<Int64> {
        Set(
            try await db.raw(
                """
                SELECT followed_id FROM follows
                WHERE follower_id = \(bind: userID) AND accepted_at IS NOT NULL
                """
            ).all(decodingColumn: "followed_id", as: Int64.self))
    }

    /// Who follows the user (accepted).
    public func followerIDs(of userID: Int64) async throws -> [Int64] {
        try await db.raw(
            """
            SELECT follower_id FROM follows
            WHERE followed_id = \(bind: userID) AND accepted_at IS NOT NULL ORDER BY follower_id
            """
        ).all(decodingColumn: "follower_id", as: Int64.self)
    }

    /// How many follows the user asked for and were not accepted yet.
    public func askedCount(by userID: Int64) async throws -> Int {
        try await db.raw(
            """
            SELECT COUNT(*) AS n FROM follows WHERE follower_id = \(bind: userID) AND accepted_at IS NULL
            """
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// How many follows of the user's there are, asked or accepted.
    public func followCount(by userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM follows WHERE follower_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Asks to follow; false when asked (or following) already.
    public func ask(follower: Int64, followed: Int64, now: Date) async throws -> Bool {
        try await db.raw(
            """
            INSERT INTO follows (follower_id, followed_id, requested_at)
            VALUES (\(bind: follower), \(bind: followed), \(bind: now.epoch))
            ON CONFLICT (follower_id, followed_id) DO NOTHING
            RETURNING follower_id
            """
        ).first() != nil
    }

    /// Accepts an asked follow; false when there is no such request (or it was accepted already).
    public func accept(follower: Int64, followed: Int64, now: Date) async throws -> Bool {
        try await db.raw(
            """
            UPDATE follows SET accepted_at = \(bind: now.epoch)
            WHERE follower_id = \(bind: follower) AND followed_id = \(bind: followed) AND accepted_at IS NULL
            RETURNING follower_id
            """
        ).first() != nil
    }

    /// Ends a follow, asked or accepted; false when there was none.
    public func remove(follower: Int64, followed: Int64) async throws -> Bool {
        try await db.raw(
            """
            DELETE FROM follows WHERE follower_id = \(bind: follower) AND followed_id = \(bind: followed)
            RETURNING follower_id
            """
        ).first() != nil
    }

    private static func link(_ row: any SQLRow) throws -> FriendLink {
        FriendLink(
            userID: try row.decode(column: "user_id", as: Int64.self),
            name:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            requestedAt: Date(epoch: try row.decode(column: "requested_at", as: Int64.self)),
            acceptedAt: try row.decode(column: "accepted_at", as: Int64?.self).map(Date.init(epoch:)))
    }
}
