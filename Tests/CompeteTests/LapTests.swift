import CampusTestSupport
import Compete
import Foundation
import Testing

/// Laps and splits (issue 41): what a lap may be, splits into laps, the best lap, and the lap
/// records with ties against a computation written here.
@Suite struct LapTests {
    @Test func lapsKeepTheRulesOfResults() throws {
        #expect(try LapRules.laps([312.4, 298.6, 305], for: .time) == [312, 299, 305])
        #expect(LapRules.total([312, 299, 305]) == 916)
        #expect(LapRules.best([312, 299, 305], metric: .time) == 299)
        #expect(LapRules.best([2.5, 2.75, 2.5], metric: .distance) == 2.75)
        #expect(LapRules.best([], metric: .time) == nil)
        #expect(LapRules.splits([312, 299, 305]) == [312, 611, 916])
        #expect(try LapRules.laps(splits: [312, 611, 916], for: .time) == [312, 299, 305])
        #expect(try LapRules.laps(splits: [2.5, 5.25], for: .distance) == [2.5, 2.75])
        for bad in [[Double](), [0.2], [-3], [.nan], Array(repeating: 60, count: 201), [1e9, 1]] {
            #expect(throws: CompeteFieldError.self, "\(bad.prefix(3))") { try LapRules.laps(bad, for: .time) }
        }
        #expect(throws: CompeteFieldError.self) { try LapRules.laps([3], for: .points) }
        #expect(throws: CompeteFieldError.self) { try LapRules.laps([0], for: .distance) }
        // Splits go forward; an equal or earlier one is refused with the splits' field.
        for bad in [[300.0, 300], [300, 200], [.infinity]] {
            #expect(throws: CompeteFieldError.self) { try LapRules.laps(splits: bad, for: .time) }
        }
        do {
            _ = try LapRules.laps(splits: [300, 200], for: .time)
        } catch {
            #expect(error.field == "splits")
        }
    }

    @Test(arguments: [Metric.time, .distance]) func lapRecordsShareTies(_ metric: Metric) {
        var generator = SeededGenerator(state: 7)
        for _ in 1...30 {
            let entries = (1...12).map { index in
                Entry(
                    participantID: Int64(index), participantName: "P\(index % 5)", joinedAt: .distantPast,
                    laps: (0..<Int(generator.next() % 4)).map { _ in Double(280 + generator.next() % 4 * 10) })
            }
            let (best, laps) = Ranking.lapRecords(entries, by: metric)
            let everyLap = entries.flatMap(\.laps)
            let better = { (a: Double, b: Double) in metric.isBetter(a, than: b) }
            #expect(best?.value == everyLap.min(by: better))
            if let best {
                let holders = entries.filter { $0.laps.contains(best.value) }.map(\.participantID)
                #expect(Set(best.holders.map(\.participantID)) == Set(holders))
            }
            #expect(laps.count == entries.map(\.laps.count).max() ?? 0)
            for record in laps {
                let index = (record.lap ?? 0) - 1
                let values = entries.compactMap { $0.laps.count > index ? $0.laps[index] : nil }
                #expect(record.value == values.min(by: better))
                let holders = entries.filter { $0.laps.count > index && $0.laps[index] == record.value }
                #expect(Set(record.holders.map(\.participantID)) == Set(holders.map(\.participantID)))
            }
        }
    }
}
