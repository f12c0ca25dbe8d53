import Foundation

/// What a competition's participants do, which says how fast a result can honestly be.
public enum Sport: String, Sendable, CaseIterable, Codable {
    case run, walk, ride, ski, swim, other

    /// The fastest average speed a result of this sport can have, in km/h (nil: no limit). Each
    /// is above what the world's best keep over a race (a marathon at 21 km/h, a 5,000 m at 24,
    /// a race walk at 15, a time trial on a bicycle at 55, cross-country skiing at 30, freestyle
    /// swimming at 8.6), so only the impossible is flagged.
    public var fastestAverage: Double? {
        switch self {
        case .run: 26
        case .walk: 16
        case .ride: 70
        case .ski: 40
        case .swim: 9
        case .other: nil
        }
    }
}

/// Why a result looks implausible (issue 41's honest results).
public enum Flag: String, Sendable, CaseIterable, Codable {
    /// Faster on average than the sport allows.
    case tooFast = "too-fast"
    /// The track jumps: a step longer than ``Plausibility/teleportMetres`` faster than
    /// ``Plausibility/teleportSpeed``.
    case teleport
    /// A track without times gave a distance, which no speed can check.
    case noTimes = "no-times"
    /// Far better than the rest of the competition (``Plausibility/isOutlier(_:among:metric:)``).
    case outlier
}

/// What a track says beyond its statistics: its fastest step, and whether it had times.
public struct TrackFacts: Sendable, Equatable {
    /// The fastest step between two timed points more than ``Plausibility/teleportMetres``
    /// apart, in km/h (infinity for such a step with no time between); nil without one.
    public var fastestLongStep: Double?
    public var timed: Bool

    public init(fastestLongStep: Double?, timed: Bool) {
        self.fastestLongStep = fastestLongStep
        self.timed = timed
    }

    public init(segments: [[TrackPoint]]) {
        var fastest: Double?
        var timed = false
        for segment in segments {
            if segment.contains(where: { $0.time != nil }) { timed = true }
            for (a, b) in zip(segment, segment.dropFirst()) {
                let metres = TrackStatistics.distance(a, b)
                guard metres > Plausibility.teleportMetres, let start = a.time, let end = b.time else { continue }
                let seconds = end.timeIntervalSince(start)
                let speed = seconds > 0 ? metres / seconds * 3.6 : .infinity
                fastest = max(fastest ?? 0, speed)
            }
        }
        self.init(fastestLongStep: fastest, timed: timed)
    }
}

/// The checks a result goes through before it counts, when it does not come from an organizer.
public enum Plausibility {
    /// A step longer than this (metres) …
    public static let teleportMetres = 200.0
    /// … faster than this (km/h) is a jump no sport makes.
    public static let teleportSpeed = 300.0
    /// At least this many other results before one can be far outside them.
    public static let spreadMinimum = 5

    /// The flags of `value` in a competition of `metric` and `sport`: its average speed (from
    /// the track, or for a time from the course's length), the track's jumps and times, and the
    /// other results' spread. Empty when nothing looks wrong.
    public static func flags(
        _ value: Double, metric: Metric, sport: Sport, courseKm: Double?, track: TrackStatistics?,
        facts: TrackFacts?, others: [Double]
    ) -> [Flag] {
        var flags: [Flag] = []
        if let limit = sport.fastestAverage, let speed = speed(value, metric: metric, courseKm: courseKm, track: track),
            speed > limit
        {
            flags.append(.tooFast)
        }
        if let facts {
            if let step = facts.fastestLongStep, step > teleportSpeed { flags.append(.teleport) }
            if !facts.timed, metric == .distance { flags.append(.noTimes) }
        }
        if isOutlier(value, among: others, metric: metric) { flags.append(.outlier) }
        return flags
    }

    /// The average speed of a result in km/h: a track's distance over its moving (or else
    /// elapsed) time, or a time competition's course over the result; nil when neither is known.
    public static func speed(_ value: Double, metric: Metric, courseKm: Double?, track: TrackStatistics?) -> Double? {
        if let track, let seconds = track.movingSeconds ?? track.elapsedSeconds, seconds > 0,
            track.distanceMetres > 0
        {
            return track.distanceMetres / seconds * 3.6
        }
        if metric == .time, let courseKm, courseKm > 0, value > 0 { return courseKm / (value / 3600) }
        return nil
    }

    /// Whether `value` is far better than the others (Tukey's fence, three interquartile ranges
    /// past the quartile on the better side, the range at least a tenth of the median so that a
    /// close field does not flag its winner). Only the better side: a slow result harms nobody.
    public static func isOutlier(_ value: Double, among others: [Double], metric: Metric) -> Bool {
        guard others.count >= spreadMinimum else { return false }
        let sorted = others.sorted()
        func quantile(_ q: Double) -> Double {
            let position = q * Double(sorted.count - 1)
            let low = Int(position.rounded(.down))
            let high = min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        let median = quantile(0.5)
        let range = max(quantile(0.75) - quantile(0.25), abs(median) / 10)
        return metric.moreIsBetter ? value > quantile(0.75) + 3 * range : value < quantile(0.25) - 3 * range
    }
}
