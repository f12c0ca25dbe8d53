import Foundation
import Testing

@testable import Compete

/// A live track kept up to date batch by batch gives the figures of all its positions at once,
/// whatever order the batches came in.
@Suite struct LiveTrackTests {
    /// A walk north-east at about 1.4 m/s with a stop of a minute in the middle.
    static let walk: [TrackPoint] = (0..<120).map { index in
        let moved = Double(index < 60 ? index : max(60, index - 6))
        return TrackPoint(
            latitude: 53.9 + moved * 0.0001, longitude: 27.56 + moved * 0.0001,
            time: Date(timeIntervalSince1970: 1_800_000_000 + Double(index) * 10))
    }

    @Test func batchesInOrderGiveTheFiguresOfTheWhole() throws {
        var track = LiveTrack(points: [])
        for batch in stride(from: 0, to: Self.walk.count, by: 7) {
            let next = try #require(track.appending(Array(Self.walk[batch..<min(batch + 7, Self.walk.count)])))
            track = next
        }
        let whole = TrackStatistics(segments: [Self.walk])
        #expect(abs(track.distanceMetres - whole.distanceMetres) < 1e-6)
        #expect(abs(track.movingSeconds - (whole.movingSeconds ?? 0)) < 1e-6)
        #expect(track.elapsedSeconds == whole.elapsedSeconds)
        #expect(track.points == 120)
        // The stop: six steps of ten seconds standing still are not moving time.
        #expect(track.movingSeconds == 1190 - 60)
    }

    @Test func anEarlierBatchAsksForTheWholeAgain() {
        let late = LiveTrack(points: Array(Self.walk[60...]))
        #expect(late.appending(Array(Self.walk[..<60])) == nil)
        let whole = LiveTrack(points: Array(Self.walk[60...]) + Array(Self.walk[..<60]))
        #expect(whole == LiveTrack(points: Self.walk))
    }

    @Test func batchesAreCheckedAndEachMillisecondKeptOnce() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let valid = try TrackingRules.validated(
            [
                TrackPoint(latitude: 1, longitude: 2, time: now.addingTimeInterval(-1.0004)),
                TrackPoint(latitude: 1, longitude: 2, time: now.addingTimeInterval(-1.0002)),
                TrackPoint(latitude: 1, longitude: 2, time: now),
            ], now: now)
        #expect(valid.count == 2)
        let error = #expect(throws: CompeteValidationError.self) {
            try TrackingRules.validated(
                [
                    TrackPoint(latitude: 91, longitude: 2, time: now),
                    TrackPoint(latitude: 1, longitude: .nan, time: now),
                    TrackPoint(latitude: 1, longitude: 2, elevation: 20_000, time: now),
                    TrackPoint(latitude: 1, longitude: 2),
                    TrackPoint(latitude: 1, longitude: 2, time: now.addingTimeInterval(3600)),
                    TrackPoint(latitude: 1, longitude: 2, time: now.addingTimeInterval(-8 * 24 * 3600)),
                ], now: now)
        }
        #expect(
            error?.errors.map(\.field) == [
                "points[0].lat", "points[1].lon", "points[2].ele", "points[3].time", "points[4].time",
                "points[5].time",
            ])
        #expect(throws: CompeteValidationError.self) { try TrackingRules.validated([], now: now) }
    }
}
