import Accounts
import Foundation
import InputRules
import Logging
import SQLKit
import Storage

/// Friends (seed 002's "add a friend", issue 41): a user asks to follow another, who accepts or
/// declines; whom a user follows make the "friends" view of every ranking, and their new results
/// reach the user's notification centre. Every operation acts on the signed-in user's own
/// follows: nobody, an admin neither, accepts or ends a follow for somebody else.
struct FriendService: Sendable {
    let database: Database
    /// What the other user is told; nil tells nobody.
    var notices: FriendNotices?
    let now: @Sendable () -> Date
    let logger: Logger

    /// How many follows (asked or accepted) a user may have.
    static let followLimit = 1000
    /// How many asked follows may wait for an answer at once (so that nobody asks everyone).
    static let askedLimit = 100

    /// The user's follows, both ways.
    func lists(of user: Account) async throws -> FriendLists {
        try await database.read { db in try await FriendStore(db).lists(of: user.id) }
    }

    /// Whom the user follows (accepted).
    func followedIDs(by user: Account) async throws -> Set<Int64> {
        try await database.read { db in try await FriendStore(db).followedIDs(by: user.id) }
    }

    /// The follows between the user and another account, each way, and the account's name.
    func between(_ user: Account, and otherID: Int64) async throws -> (
        name: String, mine: FriendLink?, theirs: FriendLink?
    ) {
        try await database.read { db in
            let store = FriendStore(db)
            let (mine, theirs) = (
                try await store.link(follower: user.id, followed: otherID),
                try await store.link(follower: otherID, followed: user.id)
            )
            let other = try await Self.findable(otherID, by: user, linked: mine != nil || theirs != nil, in: db)
            return (other.fullName, mine, theirs)
        }
    }

    /// The account, if the user may find it: the user themselves, anybody who takes part in
    /// competitions (whose names rankings show), and anybody a follow links to the user. Any
    /// other account is 404, as `/api/v1/users/{id}` of another account is: ids do not reveal
    /// accounts.
    static func findable(_ id: Int64, by user: Account, linked: Bool, in db: any SQLDatabase) async throws -> Account {
        guard let other = try await AccountStore(db).user(id: id) else { throw noAccount(id) }
        let competes = linked || id == user.id ? true : try await FriendStore(db).competes(id)
        guard competes else { throw noAccount(id) }
        return other
    }

    /// Asks to follow the account (idempotent): the follow waits for them to accept it.
    func follow(_ userID: Int64, by user: Account) async throws -> FriendLink {
        guard userID != user.id else { throw Refusal.conflict("You cannot follow yourself.") }
        let now = now()
        let (link, asked) = try await database.write { [notices] db -> (FriendLink, Bool) in
            let store = FriendStore(db)
            if let existing = try await store.link(follower: user.id, followed: userID) { return (existing, false) }
            let other = try await Self.findable(
                userID, by: user, linked: try await store.link(follower: userID, followed: user.id) != nil, in: db)
            guard try await store.followCount(by: user.id) < Self.followLimit else {
                throw Refusal.conflict("You follow {limit} people already.", ["limit": String(Self.followLimit)])
            }
            guard try await store.askedCount(by: user.id) < Self.askedLimit else {
                throw Refusal.conflict(
                    "{limit} of your requests wait for an answer; wait for some of them first.",
                    ["limit": String(Self.askedLimit)])
            }
            _ = try await store.ask(follower: user.id, followed: userID, now: now)
            try await notices?.asked(by: user, to: userID, in: db, now: now)
            return (FriendLink(userID: userID, name: other.fullName, requestedAt: now, acceptedAt: nil), true)
        }
        if asked { logger.info("follow asked", metadata: ["user": "\(user.id)", "followed": "\(userID)"]) }
        return link
    }

    /// Stops following the account, or takes back the request.
    func unfollow(_ userID: Int64, by user: Account) async throws {
        try await database.write { db in
            guard try await FriendStore(db).remove(follower: user.id, followed: userID) else {
                throw Refusal.notFound("You neither follow account {id} nor asked to.", ["id": String(userID)])
            }
        }
        logger.info("follow ended", metadata: ["user": "\(user.id)", "followed": "\(userID)"])
    }

    /// Accepts the account's request to follow the user (idempotent once accepted).
    func accept(_ followerID: Int64, by user: Account) async throws -> FriendLink {
        let now = now()
        let link = try await database.write { [notices] db -> FriendLink in
            let store = FriendStore(db)
            guard let follower = try await AccountStore(db).user(id: followerID),
                let asked = try await store.link(follower: followerID, followed: user.id)
            else {
                throw Refusal.notFound("Account {id} has not asked to follow you.", ["id": String(followerID)])
            }
            guard asked.acceptedAt == nil else {
                return FriendLink(
                    userID: followerID, name: follower.fullName, requestedAt: asked.requestedAt,
                    acceptedAt: asked.acceptedAt)
            }
            _ = try await store.accept(follower: followerID, followed: user.id, now: now)
            try await notices?.accepted(by: user, follower: followerID, in: db, now: now)
            return FriendLink(
                userID: followerID, name: follower.fullName, requestedAt: asked.requestedAt, acceptedAt: now)
        }
        logger.info("follow accepted", metadata: ["user": "\(user.id)", "follower": "\(followerID)"])
        return link
    }

    /// Declines the account's request, or stops them following the user.
    func removeFollower(_ followerID: Int64, by user: Account) async throws {
        try await database.write { db in
            guard try await FriendStore(db).remove(follower: followerID, followed: user.id) else {
                throw Refusal.notFound(
                    "Account {id} neither follows you nor asked to.", ["id": String(followerID)])
            }
        }
        logger.info("follower removed", metadata: ["user": "\(user.id)", "follower": "\(followerID)"])
    }

    static func noAccount(_ id: Int64) -> Refusal {
        Refusal.notFound("There is no participant {id}.", ["id": String(id)])
    }
}
