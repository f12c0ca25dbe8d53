import Accounts
import Foundation
import InputRules
import Listen
import Storage

/// What listeners say: likes and hiding (marks), star ratings and comments.
extension CatalogueService {
    // MARK: Marks and ratings

    func mark(_ target: Reference, _ mark: ListenStore.Mark?, for user: Account) async throws {
        try await database.write { db in
            let store = ListenStore(db)
            if mark != nil {
                switch target {
                case .media(let id):
                    guard try await store.media(id: id) != nil else {
                        throw Refusal.notFound("There is no {reference}.", ["reference": target.description])
                    }
                case .parent(let kind, let id):
                    guard let parent = try await store.parent(id: id), parent.kind == kind else {
                        throw Refusal.notFound("There is no {reference}.", ["reference": target.description])
                    }
                case .author(let id):
                    guard try await store.author(id: id) != nil else {
                        throw Refusal.notFound("There is no {reference}.", ["reference": target.description])
                    }
                case .playlist, .system:
                    throw Refusal.invalid(FieldProblem(field: "target", detail: "Playlists are not liked or hidden."))
                }
                // A new mark counts towards the listener's limit; changing one (a like to a hide) does not.
                if try await store.marks(userID: user.id, targets: [target]).isEmpty,
                    try await store.markCount(userID: user.id) >= ListenerLimits.marks
                {
                    throw Refusal.conflict(
                        "You keep {limit} likes and hides already; take some back first.",
                        ["limit": String(ListenerLimits.marks)])
                }
            }
            try await store.setMark(userID: user.id, target: target, mark, now: now())
        }
    }

    /// The items the listener liked, the newest like first: `limit` after `offset`.
    func likes(for user: Account, limit: Int = 1000, offset: Int = 0) async throws -> [MediaView] {
        let ids = try await database.read { db in
            try await ListenStore(db).likedMedia(userID: user.id, limit: limit, offset: offset)
        }
        return try await mediaViews(ids, for: user)
    }

    func rate(_ parentID: Int64, stars: Int, for user: Account) async throws -> RatingSummary {
        guard RatingSummary.stars.contains(stars) else {
            throw Refusal.invalid(FieldProblem(field: "stars", detail: "A rating is 1 to 5 stars."))
        }
        return try await database.write { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Refusal.notFound("There is no album or podcast {id}.", ["id": String(parentID)])
            }
            try await store.rate(parentID: parentID, userID: user.id, stars: stars, now: now())
            return try await store.rating(parentID: parentID, userID: user.id)
        }
    }

    // MARK: Comments

    /// A parent's comments, the newest first: `limit` after `offset`.
    func comments(on parentID: Int64, for user: Account, limit: Int = 200, offset: Int = 0) async throws
        -> [(Comment, canDelete: Bool)]
    {
        try await database.read { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Refusal.notFound("There is no album or podcast {id}.", ["id": String(parentID)])
            }
            return try await store.comments(parentID: parentID, limit: limit, offset: offset).map {
                ($0, $0.authorID == user.id || user.role == .admin)
            }
        }
    }

    func comment(on parentID: Int64, _ text: String, by user: Account) async throws -> Comment {
        let body: String
        do {
            body = try Comment.body(text)
        } catch {
            throw Refusal.invalid(error.fieldProblem)
        }
        return try await database.write { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Refusal.notFound("There is no album or podcast {id}.", ["id": String(parentID)])
            }
            guard try await store.commentCount(userID: user.id) < ListenerLimits.comments else {
                throw Refusal.conflict(
                    "You have written {limit} comments already; delete some first.",
                    ["limit": String(ListenerLimits.comments)])
            }
            let id = try await store.addComment(parentID: parentID, userID: user.id, body: body, now: now())
            guard let comment = try await store.comment(id: id) else {
                throw Refusal.notFound("There is no comment {id}.", ["id": String(id)])
            }
            return comment
        }
    }

    /// Deletes a comment: its writer or an admin may.
    func deleteComment(_ id: Int64, by user: Account) async throws -> Comment {
        try await database.write { db in
            let store = ListenStore(db)
            guard let comment = try await store.comment(id: id) else {
                throw Refusal.notFound("There is no comment {id}.", ["id": String(id)])
            }
            guard comment.authorID == user.id || user.role == .admin else {
                throw Refusal.notAllowed("Only the comment's writer or an admin may delete it.")
            }
            try await store.deleteComment(id: id)
            return comment
        }
    }
}
