import Foundation
import Testing

@testable import Timetable

/// Dates outside 1900–2200 are refused where they are read, and dates at the edges compute
/// (issue 10: a year-0 date crashed the server in `StudyCalendar.week(of:)`).
@Suite struct DateRangeTests {
    @Test func readersTakeOnlySupportedYears() {
        #expect(LocalDate(iso: "0001-01-01") == nil)
        #expect(LocalDate(iso: "9999-12-31") == nil)
        #expect(LocalDate(iso: "1899-12-31") == nil)
        #expect(LocalDate(iso: "1900-01-01")?.dayNumber == -25567)
        #expect(LocalDate(iso: "2200-12-31") != nil)
        #expect(LocalDate.read(iso: "0001-01-01") == .failure(.outOfRange))
        #expect(LocalDate.read(iso: "2023-02-31") == .failure(.malformed))
        #expect(LocalDate.read(iso: "+123-01-01") == .failure(.malformed))
        #expect(LocalDate.read(iso: "2023-1-01") == .failure(.malformed))
        #expect(LocalDate.read(dotted: "01.01.0001") == .failure(.outOfRange))
        #expect(LocalDate.read(dotted: "01.09.2023") == .success(LocalDate(year: 2023, month: 9, day: 1)!))
        #expect(
            LocalDate.problemText(.outOfRange, field: "from", example: "2023-09-25")
                == "from is outside the dates Campus works with, 1900-01-01 to 2200-12-31.")
    }

    /// The integer formulas give what Foundation's Gregorian calendar gives, for every day from
    /// 1600 to 2600 both ways, and across the switch to asking Foundation before 1600.
    @Test func dayNumbersAreFoundationsDays() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let first = LocalDate.firstFormulaDay
        for dayNumber in (first - 400)...(first + 365_250) {
            let parts = calendar.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(dayNumber) * 86400))
            let date = LocalDate(dayNumber: dayNumber)
            guard date.year == parts.year, date.month == parts.month, date.day == parts.day,
                LocalDate(year: date.year, month: date.month, day: date.day)?.dayNumber == dayNumber
            else {
                Issue.record("day \(dayNumber): \(date.iso), Foundation \(parts)")
                return
            }
        }
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2023, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2100, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29)?.iso == "2000-02-29")
        #expect(LocalDate(year: 2023, month: 4, day: 31) == nil)
        #expect(LocalDate.read(iso: "2023-09-25"[...]) == .success(LocalDate(year: 2023, month: 9, day: 25)!))
        #expect(LocalDate.read(iso: "２０２３-09-25") == .failure(.malformed))
        #expect(LocalDate.read(iso: "2023-09-2\u{301}") == .failure(.malformed))
    }

    @Test func theEdgesCompute() {
        let first = LocalDate(iso: "1900-01-01")!
        let last = LocalDate(iso: "2200-12-31")!
        for date in [first, last, first.adding(days: -400), last.adding(days: 400)] {
            #expect(StudyCalendar.bsuir.week(of: date) != nil)
            #expect(StudyCalendar.oddEven(termStart: first).week(of: date) != nil)
            _ = date.start(in: TimeZone(identifier: "Europe/Minsk")!)
            _ = Schedule.week(holding: date)
        }
        #expect(first.weekday == .monday)
        #expect(last.weekday == .wednesday)
    }

    @Test func anyMomentHasADay() {
        // Moments come from the clock and from stored times; none of them may stop the process.
        for moment in [Date.distantPast, .distantFuture, Date(timeIntervalSince1970: -62_135_596_800), Date()] {
            let day = LocalDate(moment, in: TimeZone(identifier: "Europe/Minsk")!)
            let local = LocalDateTime(moment, in: TimeZone(identifier: "America/New_York")!)
            #expect((0..<1440).contains(local.minutes))
            _ = day.iso
        }
        let minsk = TimeZone(identifier: "Europe/Minsk")!
        let moment = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z, 01:13 in Minsk
        #expect(LocalDate(moment, in: minsk).iso == "2023-11-15")
        #expect(LocalDateTime(moment, in: minsk).minutes == 73)
        #expect(LocalDateTime(moment, in: minsk).moment(in: minsk) == Date(timeIntervalSince1970: 1_699_999_980))
    }

    @Test func importsNameTheFieldThatBreaksALimit() {
        var data = TimetableImport()
        data.groups = [ImportedGroup(name: "151004"), ImportedGroup(name: String(repeating: "1", count: 101))]
        #expect {
            try data.checkLimits()
        } throws: {
            ($0 as? ImportLimitProblem)?.description == "groups[1].name has 101 characters; at most 100."
        }
        data.groups = [ImportedGroup(name: "151004")]
        let lesson = ImportedLesson(
            subject: "Мат\u{0}Прог", start: WallTime(hour: 9, minute: 0)!, end: WallTime(hour: 10, minute: 20)!)
        data.schedules = [ImportedSchedule(owner: .group("151004"), lessons: [lesson])]
        #expect {
            try data.checkLimits()
        } throws: {
            ($0 as? ImportLimitProblem)?.description
                == "schedules[0].lessons[0].subject contains a control character (U+0000), which is not allowed."
        }
        var noted = lesson
        noted.subject = "МатПрог"
        noted.note = "Two\nlines"
        noted.subgroup = 12
        data.schedules = [ImportedSchedule(owner: .group("151004"), lessons: [noted])]
        #expect(throws: ImportLimitProblem.self) { try data.checkLimits() }
        noted.subgroup = 2
        data.schedules = [ImportedSchedule(owner: .group("151004"), lessons: [noted])]
        #expect(throws: Never.self) { try data.checkLimits() }
    }
}
