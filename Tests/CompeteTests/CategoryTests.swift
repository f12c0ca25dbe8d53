import CampusTestSupport
import Compete
import Foundation
import Testing

/// Categories and teams (issue 41): ages on the race day, the rules of a category list, and
/// rankings per category and per team with ties, each against a computation written here.
@Suite struct CategoryTests {
    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
        return calendar
    }

    static func born(_ year: Int, _ month: Int, _ day: Int) -> DateComponents {
        DateComponents(year: year, month: month, day: day)
    }

    static func moment(_ text: String) -> Date { (try? Date(text, strategy: .iso8601)) ?? .distantPast }

    @Test func theAgeIsCountedOnTheRaceDayInTheInstitutionsZone() {
        let minsk = Self.calendar("Europe/Minsk")
        let born = Self.born(2000, 3, 15)
        #expect(CategoryRules.age(born: born, on: Self.moment("2026-03-14T12:00:00Z"), calendar: minsk) == 25)
        #expect(CategoryRules.age(born: born, on: Self.moment("2026-03-15T12:00:00Z"), calendar: minsk) == 26)
        // 22:30 UTC on the 14th is already the 15th in Minsk (UTC+3), not yet in London.
        let lateStart = Self.moment("2026-03-14T22:30:00Z")
        #expect(CategoryRules.age(born: born, on: lateStart, calendar: minsk) == 26)
        #expect(CategoryRules.age(born: born, on: lateStart, calendar: Self.calendar("Europe/London")) == 25)
        // Born on 29 February: a year older on 28 February in other years (Foundation's count).
        let leap = Self.born(2004, 2, 29)
        #expect(CategoryRules.age(born: leap, on: Self.moment("2025-02-27T12:00:00Z"), calendar: minsk) == 20)
        #expect(CategoryRules.age(born: leap, on: Self.moment("2025-02-28T12:00:00Z"), calendar: minsk) == 21)
        #expect(CategoryRules.age(born: leap, on: Self.moment("2028-02-29T12:00:00Z"), calendar: minsk) == 24)
        // No such day, and born after the race.
        #expect(CategoryRules.age(born: Self.born(2001, 2, 29), on: lateStart, calendar: minsk) == nil)
        #expect(CategoryRules.age(born: Self.born(2001, 13, 1), on: lateStart, calendar: minsk) == nil)
        #expect(CategoryRules.age(born: Self.born(2027, 1, 1), on: lateStart, calendar: minsk) == nil)
    }

    @Test func aListKeepsItsRules() {
        let ages = [
            Category(name: " Juniors ", minAge: 16, maxAge: 19), Category(name: "Seniors", minAge: 20, maxAge: 39),
            Category(name: "Veterans", minAge: 40),
        ]
        let (kept, errors) = CategoryRules.validated(ages, rule: .age)
        #expect(errors.isEmpty)
        #expect(kept.map(\.name) == ["Juniors", "Seniors", "Veterans"])
        #expect(CategoryRules.category(age: 19, in: kept)?.name == "Juniors")
        #expect(CategoryRules.category(age: 20, in: kept)?.name == "Seniors")
        #expect(CategoryRules.category(age: 77, in: kept)?.name == "Veterans")
        #expect(CategoryRules.category(age: 15, in: kept) == nil)

        func fields(_ list: [Category], _ rule: CategoryRule) -> [String] {
            CategoryRules.validated(list, rule: rule).1.map(\.field)
        }
        // Overlapping ages, upside-down ages, no ages, ages out of range, the same name twice.
        #expect(
            fields([Category(name: "A", minAge: 10, maxAge: 20), Category(name: "B", minAge: 20)], .age) == [
                "categories"
            ])
        #expect(!fields([Category(name: "A", minAge: 30, maxAge: 20)], .age).isEmpty)
        #expect(!fields([Category(name: "A")], .age).isEmpty)
        #expect(!fields([Category(name: "A", minAge: 131)], .age).isEmpty)
        #expect(!fields([Category(name: "Women"), Category(name: "WOMEN")], .choice).isEmpty)
        #expect(!fields([Category(name: "   ")], .choice).isEmpty)
        #expect(!fields([Category(name: String(repeating: "я", count: 41))], .choice).isEmpty)
        #expect(!fields([], .choice).isEmpty)
        #expect(!fields((0...50).map { Category(name: "C\($0)") }, .choice).isEmpty)
        // Chosen categories keep no ages; by group or with none there is no list.
        #expect(
            CategoryRules.validated([Category(name: "Women", minAge: 3)], rule: .choice).0 == [Category(name: "Women")])
        #expect(!fields([Category(name: "Women")], .group).isEmpty)
        #expect(fields([], .none).isEmpty)
        #expect(CategoryRules.listed("  women ", in: [Category(name: "Women")])?.name == "Women")

        #expect(CategoryRules.validated(.sum, metric: .time).count == 1)
        #expect(CategoryRules.validated(.sum, metric: .distance).isEmpty)
        #expect(CategoryRules.validated(.best(0), metric: .time).count == 1)
        #expect(CategoryRules.validated(.best(3), metric: .time).isEmpty)
    }

    /// Entries in three categories and four teams with results from a small set, so that many tie.
    static func entries(seed: UInt64, count: Int) -> [Entry] {
        var generator = SeededGenerator(state: seed)
        let categories = ["W", "M", "Juniors", nil]
        let teams = ["FKSiS", "FITU", "FRE", "IEF", nil]
        return (0..<count).map { index in
            let hasResult = generator.next() % 5 != 0
            return Entry(
                participantID: Int64(index + 1), participantName: "P\(generator.next() % 7)",
                result: hasResult ? Double(1 + generator.next() % 6) * 600 : nil, joinedAt: .distantPast,
                category: categories[Int(generator.next() % 4)], team: teams[Int(generator.next() % 5)])
        }
    }

    @Test(arguments: [Metric.time, .distance, .points])
    func aCategorysRanksAreThoseAmongItsOwn(_ metric: Metric) {
        for seed in 1...20 {
            let entries = Self.entries(seed: UInt64(seed), count: 60)
            for category in ["W", "M", "Juniors"] {
                let ranked = Ranking.rank(entries, by: metric, category: category)
                let own = entries.filter { $0.category == category }
                #expect(ranked.count == own.count)
                for item in ranked {
                    // The rank is one more than the results in the category that are better.
                    let expected = item.entry.result.map { value in
                        1 + own.filter { other in other.result.map { metric.isBetter($0, than: value) } ?? false }.count
                    }
                    #expect(item.rank == expected, "seed \(seed), \(category), \(item.entry.participantID)")
                }
            }
            #expect(
                Ranking.categories(of: entries, listed: [Category(name: "W"), Category(name: "M")]) == [
                    "W", "M", "Juniors",
                ])
        }
    }

    @Test(arguments: [TeamScoring.best(3), .best(1), .sum])
    func teamsRankByTheirScoreWithTies(_ scoring: TeamScoring) {
        for metric in [Metric.time, .distance] where !(metric == .time && scoring == .sum) {
            for seed in 1...20 {
                let entries = Self.entries(seed: UInt64(seed), count: 40)
                let standings = Ranking.teams(entries, by: metric, scoring: scoring)
                // The score of each team, computed here: its results best first, then every one or the best N.
                var scores: [String: Double?] = [:]
                for team in Set(entries.compactMap(\.team)) {
                    let values = entries.filter { $0.team == team }.compactMap(\.result)
                        .sorted { metric.isBetter($0, than: $1) }
                    switch scoring {
                    case .best(let count):
                        scores[team] = values.count >= count ? values.prefix(count).reduce(0, +) : nil
                    default: scores[team] = values.isEmpty ? nil : values.reduce(0, +)
                    }
                }
                #expect(Set(standings.map(\.team)) == Set(scores.keys))
                for standing in standings {
                    let score = scores[standing.team] ?? nil
                    #expect(standing.score == score, "seed \(seed) \(standing.team)")
                    let expected = score.map { value in
                        1 + scores.values.compactMap { $0 }.filter { metric.isBetter($0, than: value) }.count
                    }
                    #expect(standing.rank == expected, "seed \(seed) \(metric) \(standing.team)")
                    #expect(standing.members.count == entries.filter { $0.team == standing.team }.count)
                }
                // Ranked teams first, in rank order; unranked ones after.
                let ranks = standings.map { $0.rank ?? Int.max }
                #expect(ranks == ranks.sorted())
            }
        }
        #expect(Ranking.teams(Self.entries(seed: 1, count: 10), by: .time, scoring: .off).isEmpty)
    }
}
