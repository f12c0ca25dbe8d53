import Foundation

/// A team's place: its members in ranking order, the results that count and their sum.
public struct TeamStanding: Sendable, Equatable {
    /// 1 for the best score; equal scores share a rank (1, 2, 2, 4); nil for a team without a
    /// score (no results, or fewer than the best N).
    public var rank: Int?
    public var team: String
    public var members: [Entry]
    /// The members whose results make the score (every result, or the best N).
    public var counted: Int
    public var score: Double?
}

/// Rankings within a category, and of teams.
extension Ranking {
    /// The entries of one category, ranked among themselves (ranks start at 1 in each).
    public static func rank(_ entries: [Entry], by metric: Metric, category: String) -> [RankedEntry] {
        rank(entries.filter { $0.category == category }, by: metric)
    }

    /// The categories that entries are in, in the competition's order, then any other (from an
    /// earlier list or a group) by name.
    public static func categories(of entries: [Entry], listed: [Category]) -> [String] {
        let used = Set(entries.compactMap(\.category))
        let named = listed.map(\.name).filter { used.contains($0) }
        return named + used.subtracting(named).sorted()
    }

    /// Teams ranked by `scoring`: the sum of every member's result, or of the best N (a team
    /// with fewer results is unranked). A better score ranks first by the metric's direction;
    /// equal scores share a rank; unranked teams follow by name. Entries without a team are in
    /// no team.
    public static func teams(_ entries: [Entry], by metric: Metric, scoring: TeamScoring) -> [TeamStanding] {
        guard scoring != .off else { return [] }
        let byTeam = Dictionary(grouping: entries.filter { $0.team != nil }) { $0.team ?? "" }
        var standings: [TeamStanding] = byTeam.map { team, members in
            let ordered = members.sorted { precedes($0, $1, by: metric) }
            // Best first, so that equal sets of results give equal sums.
            let results = ordered.compactMap(\.result)
            let counted: [Double]
            switch scoring {
            case .best(let count): counted = results.count >= count ? Array(results.prefix(count)) : []
            default: counted = results
            }
            return TeamStanding(
                rank: nil, team: team, members: ordered, counted: counted.count,
                score: counted.isEmpty ? nil : counted.reduce(0, +))
        }
        standings.sort { a, b in
            switch (a.score, b.score) {
            case (let x?, let y?) where x != y: return metric.isBetter(x, than: y)
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.team < b.team
            }
        }
        var previous: Double?
        var rank = 0
        for index in standings.indices {
            guard let score = standings[index].score else { continue }
            if score != previous {
                rank = index + 1
                previous = score
            }
            standings[index].rank = rank
        }
        return standings
    }
}
