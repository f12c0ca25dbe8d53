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

    public init(
        participantID: Int64, participantName: String, result: Double? = nil, joinedAt: Date, resultAt: Date? = nil,
        track: TrackStatistics? = nil
    ) {
        self.participantID = participantID
        self.participantName = participantName
        self.result = result
        self.joinedAt = joinedAt
        self.resultAt = resultAt
        self.track = track
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
    /// Ranks `entries` by the metric's direction. Equal results keep a stable order (by name,
    /// then id); entries without a result follow the ranked ones, in the same order.
    public static func rank(_ entries: [Entry], by metric: Metric) -> [RankedEntry] {
        var ranked: [Entry] = []
        var unranked: [Entry] = []
        ranked.reserveCapacity(entries.count)
        for entry in entries {
            if entry.result != nil { ranked.append(entry) } else { unranked.append(entry) }
        }
        let byName: (Entry, Entry) -> Bool = { a, b in
            a.participantName != b.participantName
                ? a.participantName < b.participantName : a.participantID < b.participantID
        }
        ranked.sort { a, b in
            let x = a.result!
            let y = b.result!
            if x != y { return metric.isBetter(x, than: y) }
            return byName(a, b)
        }
        unranked.sort(by: byName)
        var result: [RankedEntry] = []
        result.reserveCapacity(entries.count)
        var rank = 0
        var previous: Double?
        for (index, entry) in ranked.enumerated() {
            if entry.result != previous {
                rank = index + 1
                previous = entry.result
            }
            result.append(RankedEntry(rank: rank, entry: entry))
        }
        for entry in unranked { result.append(RankedEntry(rank: nil, entry: entry)) }
        return result
    }
}
