import Accounts
import Compete
import Foundation
import Storage

/// What participants see of each other: a participant's competitions with their places (their
/// history, and their page that friends find), and the ranking's friends view.
extension CompeteService {
    /// The participant's history: joined (active) and previous (inactive) competitions, each with
    /// their own rank.
    func history(of user: Account) async throws -> [(visible: Visible, rank: Int?)] {
        try await results(of: user.id).map { (Self.visible($0.row, to: user), $0.rank) }
    }

    /// A participant's competitions, each with their entry (`myEntry`) and their rank: every
    /// signed-in user sees every competition's ranking, so anyone may read them.
    func results(of participantID: Int64) async throws -> [(row: CompetitionRow, rank: Int?)] {
        let rows = try await database.read { db in
            try await CompeteStore(db).competitions(
                CompetitionFilter(participantID: participantID), viewerID: participantID, limit: 10_000, offset: 0)
        }.rows
        var results: [(CompetitionRow, Int?)] = []
        for row in rows {
            let ranking = try await leaderboards.snapshot(row.competition.id)
            results.append((row, ranking?.ranked.first { $0.entry.participantID == participantID }?.rank))
        }
        return results
    }

    /// The entries of the ranking's "friends" view: the viewer's and those of whom they follow,
    /// each with their place in the whole ranking (or in `ranked`, a category's ranking).
    func friendsRanking(_ snapshot: Leaderboards.Snapshot, ranked: [RankedEntry]? = nil, for user: Account)
        async throws -> [RankedEntry]
    {
        let followed = try await database.read { db in try await FriendStore(db).followedIDs(by: user.id) }
        return (ranked ?? snapshot.ranked).filter {
            $0.entry.participantID == user.id || followed.contains($0.entry.participantID)
        }
    }
}
