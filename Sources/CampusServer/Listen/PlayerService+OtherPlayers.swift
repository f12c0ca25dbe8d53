import Accounts
import Foundation
import InputRules
import Listen
import Storage

/// What other players (the Subsonic API's) tell Campus: what was heard, where a listener
/// stopped, likes taken back and ratings removed. The web app sees it all.
extension PlayerService {
    /// The reference of a parent (its kind read from the catalogue).
    func parentReference(_ id: Int64) async throws -> Reference {
        guard let parent = try await database.read({ db in try await ListenStore(db).parent(id: id) }) else {
            throw CatalogueService.noParent(nil, id)
        }
        return .parent(parent.kind, id)
    }

    /// Takes back a like (a hide stays).
    func unlike(_ target: Reference, for user: Account) async throws {
        try await database.write { db in
            let store = ListenStore(db)
            guard try await store.marks(userID: user.id, targets: [target])[target] == .like else { return }
            try await store.setMark(userID: user.id, target: target, nil, now: now())
        }
    }

    /// Removes the listener's rating of a parent.
    func clearRating(_ parentID: Int64, for user: Account) async throws {
        try await database.write { db in
            let store = ListenStore(db)
            guard try await store.parent(id: parentID) != nil else { throw CatalogueService.noParent(nil, parentID) }
            try await store.rate(parentID: parentID, userID: user.id, stars: nil, now: now())
        }
    }

    /// Items a player played to the end, each when it was heard: into the listening history, and
    /// a spoken item starts from the beginning next time.
    func scrobble(_ plays: [(mediaID: Int64, at: Date)], for user: Account) async throws {
        try await database.write { db in
            let store = ListenStore(db)
            let items = try await store.media(ids: Array(Set(plays.map(\.mediaID))))
            if let missing = plays.first(where: { play in !items.contains { $0.id == play.mediaID } }) {
                throw Refusal.notFound("There is no media item {id}.", ["id": String(missing.mediaID)])
            }
            for play in plays {
                let item = items.first { $0.id == play.mediaID }
                try await store.recordListening(
                    userID: user.id,
                    [ListeningEvent(mediaID: play.mediaID, outcome: .ended, position: item?.duration ?? 0)],
                    now: play.at)
                if item?.kind.isSpoken == true {
                    try await store.saveResumePosition(
                        userID: user.id, mediaID: play.mediaID, position: nil, now: now())
                }
            }
        }
    }

    /// When the listener's player last changed (on any device).
    func playerChanged(for user: Account) async throws -> Date? {
        try await database.read { db in try await ListenStore(db).playerUpdatedAt(userID: user.id) }
    }

    /// Keeps where the listener stopped in an item (nil forgets it).
    func saveBookmark(_ mediaID: Int64, position: Double?, for user: Account) async throws {
        try await database.write { db in
            let store = ListenStore(db)
            guard try await store.media(id: mediaID) != nil else {
                throw Refusal.notFound("There is no media item {id}.", ["id": String(mediaID)])
            }
            try await store.saveResumePosition(userID: user.id, mediaID: mediaID, position: position, now: now())
        }
    }
}
