import Accounts
import Foundation
import InputRules
import Listen
import SharedHelpers
import Storage

/// What the listener tells Campus they like (seed 001's recommendation system, appendix Б.6):
/// genres and authors that the recommended playlist and the endless queue start from, and what
/// they are listening to.
extension FeedService {
    /// A genre or author to pick, with the cover that stands for it.
    struct Pick: Sendable {
        var id: Int64
        var name: String
        var picked: Bool
        /// What stands for it: a picture an admin uploaded, or a cover of its items.
        var picture: Picture?
    }

    struct Picks: Sendable {
        var genres: [Pick]
        var authors: [Pick]
    }

    static let pickLimits = (genres: 50, authors: 100, authorsShown: 60)

    /// Every genre, and the authors with the most items (and any the listener picked), each
    /// marked when picked.
    func picks(for user: Account) async throws -> Picks {
        try await database.read { db in
            let store = ListenStore(db)
            let picked = try await store.picks(userID: user.id)
            let genres = try await store.genres()
            var authors = try await store.authorsByItems(limit: Self.pickLimits.authorsShown)
            let shown = Set(authors.map(\.id))
            authors += try await store.authors(ids: picked.authors.filter { !shown.contains($0) })
            let genrePictures = try await store.pictures(genreIDs: genres.map(\.id))
            let authorPictures = try await store.pictures(authorIDs: authors.map(\.id))
            let pickedGenres = Set(picked.genres)
            let pickedAuthors = Set(picked.authors)
            return Picks(
                genres: genres.map {
                    Pick(id: $0.id, name: $0.name, picked: pickedGenres.contains($0.id), picture: genrePictures[$0.id])
                },
                authors: authors.map {
                    Pick(
                        id: $0.id, name: $0.name, picked: pickedAuthors.contains($0.id), picture: authorPictures[$0.id])
                })
        }
    }

    /// Replaces the listener's picks: 422 for a genre or author that does not exist, or too many.
    func savePicks(genres: [Int64], authors: [Int64], for user: Account) async throws -> Picks {
        let genres = genres.uniqued()
        let authors = authors.uniqued()
        guard genres.count <= Self.pickLimits.genres else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "genres", detail: "Pick at most {maximum} genres.",
                    ["maximum": String(Self.pickLimits.genres)]))
        }
        guard authors.count <= Self.pickLimits.authors else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "authors", detail: "Pick at most {maximum} authors.",
                    ["maximum": String(Self.pickLimits.authors)]))
        }
        try await database.write { db in
            let store = ListenStore(db)
            for (index, id) in genres.enumerated() where try await store.genre(id: id) == nil {
                throw Refusal.invalid(
                    FieldProblem(field: "genres[\(index)]", detail: "There is no genre {id}.", ["id": String(id)]))
            }
            for (index, id) in authors.enumerated() where try await store.author(id: id) == nil {
                throw Refusal.invalid(
                    FieldProblem(field: "authors[\(index)]", detail: "There is no author {id}.", ["id": String(id)]))
            }
            try await store.setPicks(userID: user.id, genres: genres, authors: authors, now: now())
        }
        return try await picks(for: user)
    }

    /// “I'm listening”: the albums, podcasts, books and programmes the listener played from, the
    /// last played first.
    func listening(for user: Account, limit: Int = 12) async throws -> [Parent] {
        try await database.read { db in
            let store = ListenStore(db)
            return try await store.parents(ids: try await store.recentParents(userID: user.id, limit: limit))
        }
    }
}
