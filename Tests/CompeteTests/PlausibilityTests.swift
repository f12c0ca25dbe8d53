import Compete
import Foundation
import Testing

/// Honest results (issue 41): which results are flagged, and which are not.
@Suite struct PlausibilityTests {
    static func point(_ lat: Double, _ lon: Double, _ seconds: Double?) -> TrackPoint {
        TrackPoint(latitude: lat, longitude: lon, time: seconds.map { Date(timeIntervalSince1970: 1_800_000_000 + $0) })
    }

    @Test func speedsAboveTheSportsAreFlagged() {
        // 10 km moving for 20 minutes is 30 km/h: too fast for a run, fine for a ride.
        let track = TrackStatistics(
            distanceMetres: 10_000, elapsedSeconds: 1500, movingSeconds: 1200, points: 100, segments: 1)
        func flags(
            _ sport: Sport, _ value: Double = 10, metric: Metric = .distance, course: Double? = nil,
            track: TrackStatistics? = nil
        ) -> [Flag] {
            Plausibility.flags(
                value, metric: metric, sport: sport, courseKm: course, track: track, facts: nil, others: [])
        }
        #expect(flags(.run, track: track) == [.tooFast])
        #expect(flags(.ride, track: track).isEmpty)
        #expect(flags(.other, track: track).isEmpty)
        #expect(flags(.swim, track: track) == [.tooFast])
        // A 5 km course in 10 minutes is 30 km/h; in 20 minutes 15 km/h.
        #expect(flags(.run, 600, metric: .time, course: 5) == [.tooFast])
        #expect(flags(.run, 1200, metric: .time, course: 5).isEmpty)
        #expect(flags(.walk, 1200, metric: .time, course: 5).isEmpty)
        #expect(flags(.walk, 1000, metric: .time, course: 5) == [.tooFast])
        // Without a track or a course nothing says how fast.
        #expect(flags(.run, 600, metric: .time).isEmpty)
    }

    @Test func jumpsAndUntimedTracksAreFlagged() {
        // Steps of about 11 m a second, then a jump of about 5.5 km in 10 seconds.
        let steady = (0..<10).map { Self.point(53.9 + Double($0) * 0.0001, 27.5, Double($0)) }
        #expect(TrackFacts(segments: [steady]).fastestLongStep == nil)
        #expect(TrackFacts(segments: [steady]).timed)
        let jump = steady + [Self.point(53.95, 27.5, 19)]
        let facts = TrackFacts(segments: [jump])
        #expect((facts.fastestLongStep ?? 0) > 1000)
        #expect(
            Plausibility.flags(1, metric: .distance, sport: .other, courseKm: nil, track: nil, facts: facts, others: [])
                == [.teleport])
        // A long step without time between is a jump too; an untimed track gives only a distance.
        let sameTime = TrackFacts(segments: [[Self.point(53.9, 27.5, 0), Self.point(53.91, 27.5, 0)]])
        #expect(sameTime.fastestLongStep == .infinity)
        let untimed = TrackFacts(segments: [[Self.point(53.9, 27.5, nil), Self.point(53.91, 27.5, nil)]])
        #expect(!untimed.timed && untimed.fastestLongStep == nil)
        #expect(
            Plausibility.flags(1, metric: .distance, sport: .run, courseKm: nil, track: nil, facts: untimed, others: [])
                == [.noTimes])
    }

    @Test func resultsFarBetterThanTheRestAreFlagged() {
        let times: [Double] = [1500, 1520, 1550, 1600, 1490, 1700]
        #expect(Plausibility.isOutlier(600, among: times, metric: .time))
        #expect(!Plausibility.isOutlier(1300, among: times, metric: .time))
        #expect(!Plausibility.isOutlier(5000, among: times, metric: .time), "a slow result harms nobody")
        #expect(!Plausibility.isOutlier(600, among: Array(times.prefix(4)), metric: .time), "too few to tell")
        let distances: [Double] = [5, 5.2, 4.8, 5.1, 5, 4.9]
        #expect(Plausibility.isOutlier(42, among: distances, metric: .distance))
        #expect(!Plausibility.isOutlier(6, among: distances, metric: .distance))
        // A close field does not flag its winner: the range is at least a tenth of the median.
        let close: [Double] = [1000, 1000, 1000, 1001, 1000]
        #expect(!Plausibility.isOutlier(990, among: close, metric: .time))
        #expect(Plausibility.isOutlier(600, among: close, metric: .time))
    }
}
