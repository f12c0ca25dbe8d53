import Foundation

/// The best of one lap (or of every lap) in a competition, and who holds it (ties share it).
public struct LapRecord: Sendable, Equatable {
    public struct Holder: Sendable, Equatable {
        public var participantID: Int64
        public var participantName: String
    }

    /// 1 for the first lap; nil for the best lap of any number.
    public var lap: Int?
    public var value: Double
    public var holders: [Holder]
}

/// Laps and splits (issue 41): a result may be made of laps, lap times in a time competition
/// or lap distances in a distance one. Splits are the running totals at the end of each lap,
/// as a timing clock shows them; Campus keeps the laps.
public enum LapRules {
    public static let lapLimit = 200

    /// Laps as kept: at least one, at most ``lapLimit``, each a result as
    /// ``CompetitionRules/result(_:for:)`` keeps it (a time in whole seconds, at least one) and
    /// more than zero; their sum within the largest result. Points have no laps.
    public static func laps(_ values: [Double], for metric: Metric) throws(CompeteFieldError) -> [Double] {
        guard metric != .points else {
            throw CompeteFieldError(field: "laps", detail: "Laps are for time and distance competitions.")
        }
        guard (1...lapLimit).contains(values.count) else {
            throw CompeteFieldError(
                field: "laps", detail: "A result has from 1 to {maximum} laps.", ["maximum": String(lapLimit)])
        }
        var laps: [Double] = []
        for value in values {
            let lap: Double
            do { lap = try CompetitionRules.result(value, for: metric) } catch {
                throw CompeteFieldError(field: "laps", error.phrase)
            }
            guard lap > 0 else { throw CompeteFieldError(field: "laps", detail: "A lap is more than zero.") }
            laps.append(lap)
        }
        guard total(laps) <= CompetitionRules.largestResult else {
            throw CompeteFieldError(
                field: "laps", detail: "A result is at most {maximum}.",
                ["maximum": String(Int(CompetitionRules.largestResult))])
        }
        return laps
    }

    /// The laps of splits, each split after the one before it.
    public static func laps(splits: [Double], for metric: Metric) throws(CompeteFieldError) -> [Double] {
        var previous = 0.0
        var laps: [Double] = []
        for split in splits {
            guard split.isFinite, split > previous else {
                throw CompeteFieldError(field: "splits", detail: "Each split comes after the one before it.")
            }
            laps.append(split - previous)
            previous = split
        }
        do { return try self.laps(laps, for: metric) } catch {
            throw CompeteFieldError(field: "splits", error.phrase)
        }
    }

    /// The result the laps make: their sum (a time rounded to whole seconds).
    public static func total(_ laps: [Double]) -> Double { laps.reduce(0, +) }

    /// The best lap: the fastest in a time competition, the longest in a distance one.
    public static func best(_ laps: [Double], metric: Metric) -> Double? {
        laps.min { metric.isBetter($0, than: $1) }
    }

    /// The running totals at the end of each lap.
    public static func splits(_ laps: [Double]) -> [Double] {
        var total = 0.0
        return laps.map {
            total += $0
            return total
        }
    }
}

extension Ranking {
    /// The competition's lap records: the best lap of any number, then the best of each lap
    /// number that someone ran; ties share a record.
    public static func lapRecords(_ entries: [Entry], by metric: Metric) -> (best: LapRecord?, laps: [LapRecord]) {
        func record(_ lap: Int?, _ values: [(Entry, Double)]) -> LapRecord? {
            guard let best = values.map(\.1).min(by: { metric.isBetter($0, than: $1) }) else { return nil }
            let holders = values.filter { $0.1 == best }.map(\.0)
                .sorted { ($0.participantName, $0.participantID) < ($1.participantName, $1.participantID) }
                .map { LapRecord.Holder(participantID: $0.participantID, participantName: $0.participantName) }
            return LapRecord(lap: lap, value: best, holders: holders)
        }
        let longest = entries.map(\.laps.count).max() ?? 0
        let laps = (0..<longest).compactMap { index in
            record(
                index + 1, entries.compactMap { entry in entry.laps.count > index ? (entry, entry.laps[index]) : nil })
        }
        let best = record(
            nil, entries.compactMap { entry in LapRules.best(entry.laps, metric: metric).map { (entry, $0) } })
        return (best, laps)
    }
}
