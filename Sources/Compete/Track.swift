import Foundation

/// One recorded position of a track.
public struct TrackPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?
    public var time: Date?

    public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: Date? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.time = time
    }
}

/// What a recorded track says about a race: how far, how long, how long moving.
public struct TrackStatistics: Sendable, Equatable, Codable {
    /// Along the track on the ground, in metres; segments are not joined to each other.
    public var distanceMetres: Double
    /// From the first to the last timed point, in seconds; nil without two timed points.
    public var elapsedSeconds: Double?
    /// Time spent faster than ``TrackStatistics/stoppedSpeed``, in seconds; nil without times.
    public var movingSeconds: Double?
    public var points: Int
    public var segments: Int

    public init(distanceMetres: Double, elapsedSeconds: Double?, movingSeconds: Double?, points: Int, segments: Int) {
        self.distanceMetres = distanceMetres
        self.elapsedSeconds = elapsedSeconds
        self.movingSeconds = movingSeconds
        self.points = points
        self.segments = segments
    }

    /// The mean Earth radius (IUGG), in metres.
    public static let earthRadius = 6_371_008.8
    /// Slower than this (1 km/h, in metres per second) counts as standing still, as in gpxpy.
    public static let stoppedSpeed = 1000.0 / 3600.0

    /// Statistics of a track's segments. Empty segments and one-point segments add nothing.
    public init(segments: [[TrackPoint]]) {
        var distance = 0.0
        var moving = 0.0
        var hasMovingData = false
        var first: Date?
        var last: Date?
        var points = 0
        for segment in segments {
            points += segment.count
            for point in segment {
                guard let time = point.time else { continue }
                if let earliest = first, earliest <= time {} else { first = time }
                if let latest = last, latest >= time {} else { last = time }
            }
            guard segment.count > 1 else { continue }
            for index in 1..<segment.count {
                let a = segment[index - 1]
                let b = segment[index]
                let step = Self.distance(a, b)
                distance += step
                if let start = a.time, let end = b.time {
                    hasMovingData = true
                    let seconds = end.timeIntervalSince(start)
                    if seconds > 0, step / seconds > Self.stoppedSpeed { moving += seconds }
                }
            }
        }
        var elapsed: Double?
        if let first, let last, last > first { elapsed = last.timeIntervalSince(first) }
        self.init(
            distanceMetres: distance, elapsedSeconds: elapsed, movingSeconds: hasMovingData ? moving : nil,
            points: points, segments: segments.count)
    }

    /// The great-circle distance between two points, in metres (haversine).
    public static func distance(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        let radians = Double.pi / 180
        let phi1 = a.latitude * radians
        let phi2 = b.latitude * radians
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * radians
        let s = sin(dPhi / 2)
        let t = sin(dLambda / 2)
        let h = s * s + cos(phi1) * cos(phi2) * t * t
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// The result this track gives in a competition of `metric`: kilometres for distance,
    /// elapsed seconds for time; points cannot come from a track.
    public func result(for metric: Metric) throws(CompeteFieldError) -> Double {
        switch metric {
        case .distance:
            guard distanceMetres > 0 else {
                throw CompeteFieldError(field: "gpx", detail: "The track does not move: its distance is 0.")
            }
            return distanceMetres / 1000
        case .time:
            guard let elapsedSeconds, elapsedSeconds >= 1 else {
                throw CompeteFieldError(
                    field: "gpx", detail: "The track has no times, so it cannot give a time result.")
            }
            return elapsedSeconds.rounded()
        case .points:
            throw CompeteFieldError(field: "gpx", detail: "A points competition does not take results from tracks.")
        }
    }
}
