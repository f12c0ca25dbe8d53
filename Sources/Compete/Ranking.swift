import Foundation

/// A participant's place in a competition and their result, if they have one yet.
public struct Entry: Sendable, Equatable {
    public var participantID: Int64
    public var participantName: String
    /// nil until the organizer enters a result (or a GPX track gives one). The seed stored 0
    /// instead, and so ranked everyone without a time first.
    public var result: Double?
    public var joinedAt: Date
    public var resultAt: Date?
    /// What an uploaded GPX track gave, if one was uploaded.
    public var track: TrackStatistics?
    /// The participant's category and team, in competitions that have them.
    public var category: String?
    public var team: String?
    /// The laps the result is made of, if it was entered as laps (LapRules).
    public var laps: [Double]
    /// A flagged result's review; while it is open the result does not count (`result` is nil).
    public var review: Review?

    public init(
        participantID: Int64, participantName: String, result: Double? = nil, joinedAt: Date, resultAt: Date? = nil,
        track: TrackStatistics? = nil, category: String? = nil, team: String? = nil, laps: [Double] = [],
        review: Review? = nil
    ) {
        self.participantID = participantID
        self.participantName = participantName
        self.result = result
        self.joinedAt = joinedAt
        self.resultAt = resultAt
        self.track = track
        self.category = category
        self.team = team
        self.laps = laps
        self.review = review
    }
}

/// An entry with its rank: 1 for the best result; equal results share a rank and the next
/// rank skips as many places (1, 2, 2, 4). Entries without a result have no rank.
public struct RankedEntry: Sendable, Equatable {
    public var rank: Int?
    public var entry: Entry

    public init(rank: Int?, entry: Entry) {
        self.rank = rank
        self.entry = entry
    }
}

/// The order of a competition's entries.
public enum Ranking {
    /// Whether `a` comes before `b`: a result before none, then the better result, then by
    /// name and id, so that equal results keep a stable order.
    public static func precedes(_ a: Entry, _ b: Entry, by metric: Metric) -> Bool {
        switch (a.result, b.result) {
        case (let x?, let y?) where x != y: return metric.isBetter(x, than: y)
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        if a.participantName != b.participantName { return a.participantName < b.participantName }
        return a.participantID < b.participantID
    }

    /// Ranks `entries` by the metric's direction. Equal results keep a stable order (by name,
    /// then id); entries without a result follow the ranked ones, in the same order.
    public static func rank(_ entries: [Entry], by metric: Metric) -> [RankedEntry] {
        numbered(entries.sorted { precedes($0, $1, by: metric) })
    }

    /// The ranking after one participant's entry changed, joined (`entry` given, not there
    /// before) or left (`entry` nil): the same as ranking every entry again, in linear time.
    public static func updating(
        _ ranked: [RankedEntry], participant: Int64, to entry: Entry?, by metric: Metric
    ) -> [RankedEntry] {
        var entries = ranked.map(\.entry)
        if let index = entries.firstIndex(where: { $0.participantID == participant }) {
            entries.remove(at: index)
        }
        if let entry {
            // The first place whose entry the new one precedes (binary search).
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(entries[middle], entry, by: metric) { low = middle + 1 } else { high = middle }
            }
            entries.insert(entry, at: low)
        }
        return numbered(entries)
    }

    /// Ranks for entries in ranking order: equal results share a rank, the next one skips.
    static func numbered(_ entries: [Entry]) -> [RankedEntry] {
        var result: [RankedEntry] = []
        result.reserveCapacity(entries.count)
        var rank = 0
        var previous: Double?
        for (index, entry) in entries.enumerated() {
            guard let value = entry.result else {
                result.append(RankedEntry(rank: nil, entry: entry))
                continue
            }
            if value != previous {
                rank = index + 1
                previous = value
            }
            result.append(RankedEntry(rank: rank, entry: entry))
        }
        return result
    }
}
