import CampusTestSupport
import Foundation
import Testing
import Timetable

@testable import Formats
@testable import Storage

/// The occurrences of 151004 and 010101 over their whole terms, computed through import,
/// storage and the schedule query, against an oracle that reads the raw IIS JSON directly.
@Suite struct OccurrenceTests {
    /// (date, start time, subject, subgroup) of every lesson occurrence, straight from the file:
    /// every day of the term whose weekday is a key of `schedules` and whose BSUIR week (counted
    /// in days from the Monday of the week of 1 September) is in the lesson's `weekNumber`.
    func oracle(_ file: String) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: try Fixtures.data("iis/\(file)")) as! [String: Any]
        let keys = ["Понедельник", "Вторник", "Среда", "Четверг", "Пятница", "Суббота", "Воскресенье"]
        let start = day(json["startDate"] as! String)
        let end = day(json["endDate"] as! String)
        let firstMonday = day("01.09.\(start.year)").monday
        var result: [String] = []
        var date = start
        while date <= end {
            let key = keys[date.weekday.rawValue - 1]
            let week = (firstMonday.days(until: date) / 7) % 4 + 1
            for lesson in (json["schedules"] as! [String: [[String: Any]]])[key] ?? [] {
                let weeks = lesson["weekNumber"] as? [Int] ?? [0]
                let from = day(lesson["startLessonDate"] as! String)
                let to = day(lesson["endLessonDate"] as! String)
                if (weeks.contains(week) || weeks.contains(0)) && from <= date && date <= to {
                    result.append(
                        "\(date.iso) \(lesson["startLessonTime"]!) \(lesson["subject"]!) \(lesson["numSubgroup"]!)")
                }
            }
            date = date.adding(days: 1)
        }
        return result.sorted()
    }

    @Test(arguments: [("151004.json", "151004", 392), ("010101.json", "010101", 268)])
    func wholeTermOccurrencesMatchTheOracle(_ file: String, _ group: String, _ expected: Int) async throws {
        try await TestDatabases.withDatabase(.sqlite) { database in
            _ = try await database.write { db in
                try await TimetableStore(db).store(try fixtureImport(), now: Date(), timeZone: .gmt)
            }
            let stored = try #require(
                try await database.read { db in try await TimetableStore(db).group(named: group) })
            let term = try #require(stored.term.span)
            let lessons = try await database.read { db in
                try await TimetableStore(db).lessons(groups: [group], in: term)
            }
            let occurrences = Schedule.occurrences(of: lessons, in: term, calendar: .bsuir)
            #expect(occurrences.count == expected)
            let found = occurrences.map {
                "\($0.date.iso) \($0.lesson.start) \($0.lesson.subject) \($0.lesson.subgroup)"
            }.sorted()
            #expect(found == (try oracle(file)))
            // Sorted by date, then start time, then subgroup.
            let keys = occurrences.map { ($0.date.dayNumber, $0.lesson.start.minutes, $0.lesson.subgroup) }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test func theFirstWeekOf151004() async throws {
        try await TestDatabases.withDatabase(.sqlite) { database in
            _ = try await database.write { db in
                try await TimetableStore(db).store(try fixtureImport(["151004.json"]), now: Date(), timeZone: .gmt)
            }
            let week = Schedule.week(holding: day("25.09.2023"))
            let lessons = try await database.read { db in
                try await TimetableStore(db).lessons(groups: ["151004"], in: week)
            }
            let monday = Schedule.occurrences(of: lessons, in: week, calendar: .bsuir).filter {
                $0.date == day("25.09.2023")
            }
            // 25.09.2023 is in week 1.
            #expect(StudyCalendar.bsuir.week(of: day("25.09.2023")) == 1)
            #expect(!monday.isEmpty)
            #expect(monday.allSatisfy { $0.lesson.weeks.isEmpty || $0.lesson.weeks.contains(1) })
            let firstSubgroup = Schedule.occurrences(
                of: lessons, in: week, calendar: .bsuir, filter: ScheduleFilter(subgroup: 1))
            #expect(firstSubgroup.allSatisfy { $0.lesson.subgroup != 2 })
            #expect(firstSubgroup.count < Schedule.occurrences(of: lessons, in: week, calendar: .bsuir).count)
        }
    }
}
