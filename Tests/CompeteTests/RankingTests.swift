import Foundation
import Testing

@testable import Compete

@Suite struct RankingTests {
    let day = Date(timeIntervalSince1970: 1_800_000_000)

    func entry(_ id: Int64, _ name: String, _ result: Double?) -> Entry {
        Entry(participantID: id, participantName: name, result: result, joinedAt: day)
    }

    @Test func timesRankFastestFirstWithSharedRanksAndUnrankedLast() {
        let ranked = Ranking.rank(
            [
                entry(1, "Dana", nil), entry(2, "Boris", 3600), entry(3, "Anna", 3500), entry(4, "Clara", 3600),
                entry(5, "Emil", 4000), entry(6, "Ada", nil),
            ], by: .time)
        #expect(ranked.map(\.rank) == [1, 2, 2, 4, nil, nil])
        #expect(ranked.map(\.entry.participantName) == ["Anna", "Boris", "Clara", "Emil", "Ada", "Dana"])
    }

    @Test func distancesAndPointsRankMostFirst() {
        for metric in [Metric.distance, .points] {
            let ranked = Ranking.rank(
                [entry(1, "A", 5), entry(2, "B", 42.195), entry(3, "C", 42.195), entry(4, "D", 0)], by: metric)
            #expect(ranked.map(\.rank) == [1, 1, 3, 4])
            #expect(ranked.map(\.entry.participantID) == [2, 3, 1, 4])
        }
    }

    @Test func aZeroIsAResultAndNoResultIsNot() {
        // The seed stored "no time yet" as 0 and so ranked it first.
        let ranked = Ranking.rank([entry(1, "A", nil), entry(2, "B", 0), entry(3, "C", 10)], by: .distance)
        #expect(ranked.map(\.entry.participantID) == [3, 2, 1])
        #expect(ranked.map(\.rank) == [1, 2, nil])
    }

    @Test func emptyAndAllUnranked() {
        #expect(Ranking.rank([], by: .time).isEmpty)
        #expect(
            Ranking.rank([entry(2, "B", nil), entry(1, "B", nil)], by: .time).map(\.entry.participantID) == [1, 2])
    }

    @Test func recordsShareTiesAndFollowTheMetric() {
        func result(
            _ competition: Int64, series: Int64, _ participant: Int64, _ value: Double, _ metric: Metric = .time,
            unit: String? = nil, at: TimeInterval = 0
        ) -> ResultRecord {
            ResultRecord(
                competitionID: competition, competitionName: "C\(competition)", seriesID: series, metric: metric,
                unit: unit ?? metric.defaultUnit, participantID: participant, participantName: "P\(participant)",
                value: value, at: day.addingTimeInterval(at))
        }
        let results = [
            result(1, series: 1, 10, 3600, at: 1), result(1, series: 1, 11, 3500, at: 2),
            result(2, series: 1, 10, 3500, at: 3), result(3, series: 3, 12, 3400, at: 4),
            result(4, series: 4, 10, 12.5, .distance), result(4, series: 4, 11, 21, .distance),
            result(5, series: 5, 12, 7, .points, unit: "goals"), result(6, series: 6, 12, 9, .points),
        ]
        let best = Records.best(results.filter { $0.competitionID == 1 })!
        #expect(best.value == 3500)
        #expect(best.holders.map(\.participantID) == [11])

        let series = Records.bySeries(results)
        #expect(series[1]?.value == 3500)
        #expect(series[1]?.holders.map(\.participantID) == [11, 10])
        #expect(series[3]?.holders.map(\.participantID) == [12])

        let allTime = Records.allTime(results)
        #expect(allTime.map(\.metric) == [.distance, .time, .points, .points])
        #expect(allTime.map(\.value) == [21, 3400, 7, 9])
        #expect(allTime.map(\.unit) == ["km", "s", "goals", "points"])

        let personal = Records.personalBests(results, of: 10)
        #expect(personal.map(\.value) == [12.5, 3500])

        let stats = Statistics(results: results.filter { $0.participantID == 10 }, competitions: 4)
        #expect(stats.totalKilometres == 12.5)
        #expect(stats.totalMinutes == 7100.0 / 60)
        #expect(stats.competitions == 4)
        #expect(stats.results.map(\.competitionID) == [4, 1, 2])
        #expect(Records.best([]) == nil)
    }
}

@Suite struct CompetitionRulesTests {
    @Test func draftsAreTrimmedAndLimited() throws {
        let draft = try CompetitionRules.validated(
            CompetitionDraft(name: "  Campus 10K ", description: " Two laps ", metric: .distance))
        #expect(draft.name == "Campus 10K")
        #expect(draft.description == "Two laps")
        #expect(draft.unit == "km")

        #expect(throws: CompeteValidationError.self) {
            try CompetitionRules.validated(CompetitionDraft(name: "   ", description: "", metric: .time))
        }
        do {
            _ = try CompetitionRules.validated(
                CompetitionDraft(
                    name: String(repeating: "x", count: 101), description: String(repeating: "y", count: 2001),
                    metric: .time, unit: "km", startsAt: Date(timeIntervalSince1970: 10),
                    endsAt: Date(timeIntervalSince1970: 5)))
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.map(\.field) == ["name", "description", "unit", "endsAt"])
        }
        let points = try CompetitionRules.validated(
            CompetitionDraft(name: "Quiz", description: "", metric: .points, unit: " goals "))
        #expect(points.unit == "goals")
    }

    @Test func resultsAreFiniteNotNegativeAndTimesWholeSeconds() throws {
        #expect(try CompetitionRules.result(42.195, for: .distance) == 42.195)
        #expect(try CompetitionRules.result(0, for: .distance) == 0)
        #expect(try CompetitionRules.result(3599.6, for: .time) == 3600)
        for bad in [-1, .infinity, .nan, 2e9] {
            #expect(throws: CompeteFieldError.self) { try CompetitionRules.result(bad, for: .points) }
        }
        #expect(throws: CompeteFieldError.self) { try CompetitionRules.result(0.2, for: .time) }
    }

    @Test func resultsAreWrittenAndReadAsPeopleDo() {
        #expect(ResultText.format(3723, metric: .time, unit: "s") == "1:02:03")
        #expect(ResultText.format(59, metric: .time, unit: "s") == "0:59")
        #expect(ResultText.format(42.195, metric: .distance, unit: "km") == "42.2 km")
        #expect(ResultText.format(10, metric: .distance, unit: "km") == "10 km")
        #expect(ResultText.format(7.5, metric: .points, unit: "goals") == "7.5 goals")
        #expect(ResultText.parse("1:02:03", metric: .time) == 3723)
        #expect(ResultText.parse("45:07", metric: .time) == 2707)
        #expect(ResultText.parse("12,5", metric: .distance) == 12.5)
        #expect(ResultText.parse("1:75", metric: .time) == nil)
        #expect(ResultText.parse("1e3", metric: .points) == nil)
        #expect(ResultText.parse("abc", metric: .points) == nil)
        #expect(ResultText.parse("", metric: .points) == nil)
    }
}

@Suite struct TrackTests {
    @Test func distanceSkipsEmptySegmentsAndDoesNotJoinSegments() throws {
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        // One degree of latitude is about 111.2 km on the mean sphere.
        let a = TrackPoint(latitude: 0, longitude: 0, time: t0)
        let b = TrackPoint(latitude: 0.01, longitude: 0, time: t0.addingTimeInterval(600))
        let c = TrackPoint(latitude: 0.01, longitude: 0, time: t0.addingTimeInterval(900))
        let far = TrackPoint(latitude: 1, longitude: 1, time: t0.addingTimeInterval(1000))
        let farther = TrackPoint(latitude: 1.01, longitude: 1, time: t0.addingTimeInterval(1600))
        let stats = TrackStatistics(segments: [[a, b, c], [], [far], [far, farther]])
        let step = 2 * Double.pi * TrackStatistics.earthRadius * 0.01 / 360
        #expect(abs(stats.distanceMetres - 2 * step) < 0.01)
        #expect(stats.elapsedSeconds == 1600)
        // b→c stands still; a→b and far→farther move.
        #expect(stats.movingSeconds == 1200)
        #expect(stats.points == 6)
        #expect(try stats.result(for: .time) == 1600)
        #expect(abs(try stats.result(for: .distance) - 2 * step / 1000) < 1e-9)
        #expect(throws: CompeteFieldError.self) { try stats.result(for: .points) }

        let untimed = TrackStatistics(segments: [
            [TrackPoint(latitude: 0, longitude: 0), TrackPoint(latitude: 0, longitude: 0.1)]
        ])
        #expect(untimed.elapsedSeconds == nil)
        #expect(untimed.movingSeconds == nil)
        #expect(throws: CompeteFieldError.self) { try untimed.result(for: .time) }
    }
}

@Suite struct RankingUpdateTests {
    @Test(arguments: [Metric.distance, .time, .points])
    func updatingOneEntryEqualsRankingAgain(_ metric: Metric) {
        var generator = SystemRandomNumberGenerator()
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        var entries = (1...300).map { id in
            Entry(
                participantID: Int64(id), participantName: "P\(Int.random(in: 0..<40, using: &generator))",
                result: Bool.random(using: &generator) ? Double(Int.random(in: 1...20, using: &generator)) : nil,
                joinedAt: day)
        }
        var ranked = Ranking.rank(entries, by: metric)
        for step in 0..<400 {
            let id = Int64(Int.random(in: 1...330, using: &generator))
            var entry: Entry? = Entry(
                participantID: id, participantName: "P\(Int.random(in: 0..<40, using: &generator))",
                result: Bool.random(using: &generator) ? Double(Int.random(in: 1...20, using: &generator)) : nil,
                joinedAt: day)
            if step % 7 == 0 { entry = nil }
            entries.removeAll { $0.participantID == id }
            if let entry { entries.append(entry) }
            ranked = Ranking.updating(ranked, participant: id, to: entry, by: metric)
            #expect(ranked == Ranking.rank(entries, by: metric))
        }
    }
}
