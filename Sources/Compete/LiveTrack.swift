import Foundation

/// A track recorded live by a participant's phone: positions arrive in batches, late and out of
/// order, and a position already stored is not counted again. Its figures are the ones a GPX
/// upload of the same positions gives (one segment, ``TrackStatistics``), kept up to date by
/// adding each batch that comes after the last position, and computed again from every
/// position when one comes earlier.
public struct LiveTrack: Sendable, Equatable {
    public var distanceMetres: Double
    public var movingSeconds: Double
    public var points: Int
    public var first: TrackPoint?
    public var last: TrackPoint?

    public init(distanceMetres: Double, movingSeconds: Double, points: Int, first: TrackPoint?, last: TrackPoint?) {
        self.distanceMetres = distanceMetres
        self.movingSeconds = movingSeconds
        self.points = points
        self.first = first
        self.last = last
    }

    /// The figures of every position, in any order (each position has a time).
    public init(points: [TrackPoint]) {
        let sorted = points.sorted { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }
        let statistics = TrackStatistics(segments: [sorted])
        self.init(
            distanceMetres: statistics.distanceMetres, movingSeconds: statistics.movingSeconds ?? 0,
            points: sorted.count, first: sorted.first, last: sorted.last)
    }

    /// From the first to the last position, in seconds.
    public var elapsedSeconds: Double {
        guard let start = first?.time, let end = last?.time else { return 0 }
        return max(0, end.timeIntervalSince(start))
    }

    /// This track with `later` added, when every one of them comes after its last position (in
    /// time order); nil when one does not, and the figures must be computed again from all.
    public func appending(_ later: [TrackPoint]) -> LiveTrack? {
        let sorted = later.sorted { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }
        guard let next = sorted.first?.time else { return self }
        if let lastTime = last?.time, next <= lastTime { return nil }
        var track = self
        var previous = last
        for point in sorted {
            if let previous {
                let step = TrackStatistics.distance(previous, point)
                track.distanceMetres += step
                if let start = previous.time, let end = point.time {
                    let seconds = end.timeIntervalSince(start)
                    if seconds > 0, step / seconds > TrackStatistics.stoppedSpeed { track.movingSeconds += seconds }
                }
            }
            previous = point
        }
        track.points += sorted.count
        track.first = first ?? sorted.first
        track.last = sorted.last
        return track
    }

    /// The result this track gives in a competition of `metric` (as a GPX upload's would).
    public func result(for metric: Metric) throws(CompeteFieldError) -> Double {
        let statistics = TrackStatistics(
            distanceMetres: distanceMetres, elapsedSeconds: elapsedSeconds > 0 ? elapsedSeconds : nil,
            movingSeconds: movingSeconds, points: points, segments: 1)
        return try statistics.result(for: metric)
    }

    /// The statistics an entry keeps of the track its result came from.
    public var statistics: TrackStatistics {
        TrackStatistics(
            distanceMetres: distanceMetres, elapsedSeconds: elapsedSeconds > 0 ? elapsedSeconds : nil,
            movingSeconds: movingSeconds, points: points, segments: 1)
    }
}

/// What a batch of live positions must be.
public enum TrackingRules {
    /// Positions in one batch: a phone that was offline for an hour at one a second sends
    /// its queue in batches of this many.
    public static let batchLimit = 1000
    /// Positions kept per participant and competition: a 12-hour race at one a second.
    public static let trackLimit = 50_000
    /// How far ahead of the server's clock a position may be (a phone's clock is not exact).
    public static let futureSlack: TimeInterval = 300
    /// How old a position may be when it arrives (a phone kept offline for days).
    public static let oldest: TimeInterval = 7 * 24 * 3600

    /// The batch's positions, or every problem of it (as `points[i].field`).
    public static func validated(_ points: [TrackPoint], now: Date) throws(CompeteValidationError) -> [TrackPoint] {
        var errors: [CompeteFieldError] = []
        if points.isEmpty {
            errors.append(CompeteFieldError(field: "points", detail: "A batch has at least one position."))
        }
        if points.count > batchLimit {
            errors.append(
                CompeteFieldError(
                    field: "points", detail: "A batch has at most {limit} positions.", ["limit": String(batchLimit)]))
        }
        for (index, point) in points.enumerated() where errors.count < 20 {
            let at = "points[\(index)]"
            if !point.latitude.isFinite || abs(point.latitude) > 90 {
                errors.append(CompeteFieldError(field: "\(at).lat", detail: "A latitude is between -90 and 90."))
            }
            if !point.longitude.isFinite || abs(point.longitude) > 180 {
                errors.append(CompeteFieldError(field: "\(at).lon", detail: "A longitude is between -180 and 180."))
            }
            if let elevation = point.elevation, !elevation.isFinite || elevation < -1000 || elevation > 10000 {
                errors.append(
                    CompeteFieldError(field: "\(at).ele", detail: "An elevation is between -1000 and 10000 metres."))
            }
            guard let time = point.time else {
                errors.append(CompeteFieldError(field: "\(at).time", detail: "A position has a time."))
                continue
            }
            if time.timeIntervalSince(now) > futureSlack {
                errors.append(CompeteFieldError(field: "\(at).time", detail: "A position's time is not in the future."))
            } else if now.timeIntervalSince(time) > oldest {
                errors.append(
                    CompeteFieldError(field: "\(at).time", detail: "A position is at most 7 days old when it is sent."))
            }
        }
        guard errors.isEmpty else { throw CompeteValidationError(errors) }
        // Positions are kept to the millisecond: two in one millisecond are one.
        var seen = Set<Int64>()
        return points.compactMap { point in
            guard let time = point.time else { return nil }
            let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
            guard seen.insert(milliseconds).inserted else { return nil }
            var kept = point
            kept.time = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            return kept
        }
    }
}
