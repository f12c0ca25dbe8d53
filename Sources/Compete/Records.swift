import Foundation

/// One result of one participant in one competition, as records and statistics read it.
public struct ResultRecord: Sendable, Equatable {
    public var competitionID: Int64
    public var competitionName: String
    public var seriesID: Int64
    public var metric: Metric
    public var unit: String
    public var participantID: Int64
    public var participantName: String
    public var value: Double
    /// When the result was entered.
    public var at: Date

    public init(
        competitionID: Int64, competitionName: String, seriesID: Int64, metric: Metric, unit: String,
        participantID: Int64, participantName: String, value: Double, at: Date
    ) {
        self.competitionID = competitionID
        self.competitionName = competitionName
        self.seriesID = seriesID
        self.metric = metric
        self.unit = unit
        self.participantID = participantID
        self.participantName = participantName
        self.value = value
        self.at = at
    }

    /// An entry's result in `competition`, as a record would name it; nil for an entry without one.
    public init?(_ entry: Entry, in competition: Competition) {
        guard let value = entry.result else { return nil }
        self.init(
            competitionID: competition.id, competitionName: competition.name, seriesID: competition.seriesID,
            metric: competition.metric, unit: competition.unit, participantID: entry.participantID,
            participantName: entry.participantName, value: value, at: entry.resultAt ?? entry.joinedAt)
    }
}

/// A best result and everyone who holds it (equal results share a record).
public struct Record: Sendable, Equatable {
    public var metric: Metric
    public var unit: String
    public var value: Double
    /// The results that reach the record, earliest first.
    public var holders: [ResultRecord]

    public init(metric: Metric, unit: String, value: Double, holders: [ResultRecord]) {
        self.metric = metric
        self.unit = unit
        self.value = value
        self.holders = holders
    }
}

/// Record holders: of a competition, across every run of a template, of all time, and personal.
public enum Records {
    /// The best of `results`, which must share one metric and unit; nil when there are none.
    public static func best(_ results: [ResultRecord]) -> Record? {
        guard let first = results.first else { return nil }
        let metric = first.metric
        var best = first.value
        for result in results where metric.isBetter(result.value, than: best) { best = result.value }
        let holders = results.filter { $0.value == best }.sorted { a, b in
            a.at != b.at ? a.at < b.at : a.participantName < b.participantName
        }
        return Record(metric: metric, unit: first.unit, value: best, holders: holders)
    }

    /// The best result of each metric and unit, across every competition: distance, time, and
    /// points of each unit. Sorted by metric, then unit.
    public static func allTime(_ results: [ResultRecord]) -> [Record] {
        let groups = Dictionary(grouping: results) { MetricUnit(metric: $0.metric, unit: $0.unit) }
        return groups.sorted { $0.key < $1.key }.compactMap { best($0.value) }
    }

    /// The best result of each series (every run of one template), keyed by series id.
    public static func bySeries(_ results: [ResultRecord]) -> [Int64: Record] {
        var records: [Int64: Record] = [:]
        for (series, group) in Dictionary(grouping: results, by: \.seriesID) {
            // A series keeps one metric, but an organizer may have changed it between runs.
            let byMetric = Dictionary(grouping: group) { MetricUnit(metric: $0.metric, unit: $0.unit) }
            guard let latest = group.max(by: { $0.at < $1.at }),
                let results = byMetric[MetricUnit(metric: latest.metric, unit: latest.unit)]
            else { continue }
            if let record = best(results) {
                records[series] = record
            }
        }
        return records
    }

    /// A participant's best result in each metric and unit.
    public static func personalBests(_ results: [ResultRecord], of participantID: Int64) -> [Record] {
        allTime(results.filter { $0.participantID == participantID })
    }

    struct MetricUnit: Hashable, Comparable {
        var metric: Metric
        var unit: String

        static func < (a: MetricUnit, b: MetricUnit) -> Bool {
            let order = Metric.allCases
            let x = order.firstIndex(of: a.metric) ?? order.count
            let y = order.firstIndex(of: b.metric) ?? order.count
            return x != y ? x < y : a.unit < b.unit
        }
    }
}

/// A participant's totals over every competition they are in (seed 002's "Stats").
public struct Statistics: Sendable, Equatable {
    /// Kilometres over every distance result.
    public var totalKilometres: Double
    /// Minutes over every time result.
    public var totalMinutes: Double
    /// Competitions joined, with or without a result.
    public var competitions: Int
    public var personalBests: [Record]
    /// The participant's results, oldest first, for a chart over time.
    public var results: [ResultRecord]

    /// Totals of one participant's `results` (every result belongs to them) in `competitions`
    /// competitions.
    public init(results: [ResultRecord], competitions: Int) {
        let ordered = results.sorted { a, b in a.at != b.at ? a.at < b.at : a.competitionID < b.competitionID }
        self.results = ordered
        self.competitions = competitions
        self.totalKilometres = ordered.filter { $0.metric == .distance }.reduce(0) { $0 + $1.value }
        self.totalMinutes = ordered.filter { $0.metric == .time }.reduce(0) { $0 + $1.value } / 60
        self.personalBests = Records.allTime(ordered)
    }
}
