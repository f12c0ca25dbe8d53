import Compete
import Foundation
import Testing

/// Challenges (issue 41): what an activity may be, and that totals rank the most first.
@Suite struct ChallengeTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func challenge(_ metric: Metric, start: Date? = nil, end: Date? = nil) -> Competition {
        Competition(
            id: 1, name: "December", description: "", metric: metric, unit: metric.defaultUnit, startsAt: start,
            endsAt: end, ownerID: 1, kind: .challenge, createdAt: now)
    }

    @Test func activitiesKeepTheirRules() throws {
        let walk = Self.challenge(.distance, start: Self.now.addingTimeInterval(-86_400 * 10))
        let kept = try ActivityRules.validated(value: 4.25, at: Self.now, note: "  Park  ", in: walk, now: Self.now)
        #expect(kept.value == 4.25 && kept.note == "Park")
        let plank = Self.challenge(.time)
        #expect(try ActivityRules.validated(value: 90.4, at: Self.now, note: "", in: plank, now: Self.now).value == 90)
        func refused(_ value: Double, at: Date = Self.now, note: String = "", in competition: Competition) -> String? {
            do {
                _ = try ActivityRules.validated(value: value, at: at, note: note, in: competition, now: Self.now)
                return nil
            } catch { return error.field }
        }
        #expect(refused(0, in: walk) == "value")
        #expect(refused(-1, in: walk) == "value")
        #expect(refused(1001, in: walk) == "value")
        #expect(refused(86_401, in: plank) == "value")
        #expect(refused(3, at: Self.now.addingTimeInterval(-86_400 * 11), in: walk) == "at")
        #expect(refused(3, at: Self.now.addingTimeInterval(600), in: walk) == "at")
        #expect(refused(3, at: Self.now.addingTimeInterval(200), in: walk) == nil, "clocks differ a little")
        #expect(refused(3, note: String(repeating: "a", count: 201), in: walk) == "note")
        #expect(refused(3, note: "bell\u{7}", in: walk) == "note")
    }

    @Test func totalsRankTheMostFirstEvenForTime() {
        let plank = Self.challenge(.time)
        #expect(plank.ranksBy == .points)
        var race = plank
        race.kind = .race
        #expect(race.ranksBy == .time)
        let entries = [
            Entry(participantID: 1, participantName: "Ann", result: 1800, joinedAt: Self.now),
            Entry(participantID: 2, participantName: "Ben", result: 3600, joinedAt: Self.now),
        ]
        #expect(Ranking.rank(entries, by: plank.ranksBy).map(\.entry.participantName) == ["Ben", "Ann"])
        #expect(Ranking.rank(entries, by: race.ranksBy).map(\.entry.participantName) == ["Ann", "Ben"])
    }
}
