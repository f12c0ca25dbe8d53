import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Storage

/// What listeners say: likes and hiding (marks), star ratings and comments.
extension ListenService {
    // MARK: Marks and ratings

    func mark(_ target: Reference, _ mark: ListenStore.Mark?, for user: UserRecord) async throws {
        try await database.write { db in
            let store = ListenStore(db)
            if mark != nil {
                switch target {
                case .media(let id):
                    guard try await store.media(id: id) != nil else {
                        throw Problem.notFound("There is no {reference}.", ["reference": target.description])
                    }
                case .parent(let kind, let id):
                    guard let parent = try await store.parent(id: id), parent.kind == kind else {
                        throw Problem.notFound("There is no {reference}.", ["reference": target.description])
                    }
                case .author(let id):
                    guard try await store.author(id: id) != nil else {
                        throw Problem.notFound("There is no {reference}.", ["reference": target.description])
                    }
                case .playlist, .system:
                    throw Problem.invalid(FieldProblem(field: "target", detail: "Playlists are not liked or hidden."))
                }
            }
            try await store.setMark(userID: user.id, target: target, mark, now: now())
        }
    }

    func likes(for user: UserRecord) async throws -> [MediaView] {
        let ids = try await database.read { db in
            try await ListenStore(db).marked(userID: user.id, .like, limit: 1000).compactMap { reference -> Int64? in
                if case .media(let id) = reference { return id }
                return nil
            }
        }
        return try await mediaViews(ids, for: user)
    }

    func rate(_ parentID: Int64, stars: Int, for user: UserRecord) async throws -> RatingSummary {
        guard RatingSummary.stars.contains(stars) else {
            throw Problem.invalid(FieldProblem(field: "stars", detail: "A rating is 1 to 5 stars."))
        }
        return try await database.write { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Problem.notFound("There is no album or podcast {id}.", ["id": String(parentID)])
            }
            try await store.rate(parentID: parentID, userID: user.id, stars: stars, now: now())
            return try await store.rating(parentID: parentID, userID: user.id)
        }
    }

    // MARK: Comments

    func comments(on parentID: Int64, for user: UserRecord) async throws -> [(Comment, canDelete: Bool)] {
        try await database.read { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Problem.notFound("There is no album or podcast {id}.", ["id": String(parentID)])
            }
            return try await store.comments(parentID: parentID, limit: 200).map {
                ($0, $0.authorID == user.id || user.role == .admin)
            }
        }
    }

    func comment(on parentID: Int64, _ text: String, by user: UserRecord) async throws -> Comment {
        let body: String
        do {
            body = try Comment.body(text)
        } catch {
            throw Problem.invalid(error.fieldProblem)
        }
        return try await database.write { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else {
                throw Problem.notFound("There is no album or podcast {id}.", ["id": String(parentID)])
            }
            let id = try await store.addComment(parentID: parentID, userID: user.id, body: body, now: now())
            guard let comment = try await store.comment(id: id) else {
                throw Problem.notFound("There is no comment {id}.", ["id": String(id)])
            }
            return comment
        }
    }

    /// Deletes a comment: its writer or an admin may.
    func deleteComment(_ id: Int64, by user: UserRecord) async throws -> Comment {
        try await database.write { db in
            let store = ListenStore(db)
            guard let comment = try await store.comment(id: id) else {
                throw Problem.notFound("There is no comment {id}.", ["id": String(id)])
            }
            guard comment.authorID == user.id || user.role == .admin else {
                throw Problem.forbidden("Only the comment's writer or an admin may delete it.")
            }
            try await store.deleteComment(id: id)
            return comment
        }
    }
}
