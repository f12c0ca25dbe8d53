import Foundation
import Testing

@testable import Timetable

func day(_ text: String) -> LocalDate { LocalDate(dotted: text)! }

@Suite struct StudyCalendarTests {
    @Test(arguments: [
        ("01.09.2020", 1), ("07.09.2020", 2), ("29.01.2021", 2), ("01.02.2021", 3),
        ("01.09.2019", 1), ("02.09.2019", 2),
    ])
    func bsuirWeekFacts(_ date: String, _ week: Int) {
        #expect(StudyCalendar.bsuir.week(of: day(date)) == week)
    }

    /// 2026 has 53 ISO weeks; seed 000's ISO-week arithmetic slips a week after New Year 2027.
    @Test func bsuirWeeksRunOnAcrossNewYear2026() {
        // 1 September 2026 is a Tuesday: week 1 starts on Monday 31 August 2026.
        #expect(StudyCalendar.bsuir.week(of: day("31.08.2026")) == 1)
        #expect(StudyCalendar.bsuir.week(of: day("06.09.2026")) == 1)
        #expect(StudyCalendar.bsuir.week(of: day("07.09.2026")) == 2)
        // 28.12.2026 is 17 weeks after 31.08.2026: week 17 mod 4 + 1 = 2.
        #expect(StudyCalendar.bsuir.week(of: day("28.12.2026")) == 2)
        #expect(StudyCalendar.bsuir.week(of: day("31.12.2026")) == 2)
        #expect(StudyCalendar.bsuir.week(of: day("01.01.2027")) == 2)
        #expect(StudyCalendar.bsuir.week(of: day("03.01.2027")) == 2)
        #expect(StudyCalendar.bsuir.week(of: day("04.01.2027")) == 3)
        #expect(StudyCalendar.bsuir.week(of: day("11.01.2027")) == 4)
        #expect(StudyCalendar.bsuir.week(of: day("18.01.2027")) == 1)
        // Every Monday from September to June advances the week by exactly one.
        var monday = day("31.08.2026")
        var expected = 1
        while monday < day("30.06.2027") {
            for offset in 0..<7 {
                #expect(StudyCalendar.bsuir.week(of: monday.adding(days: offset)) == expected)
            }
            monday = monday.adding(days: 7)
            expected = expected % 4 + 1
        }
    }

    @Test func bsuirWeeksAgreeWithTheFixturesAcrossNewYear2023() {
        // IIS gives the exams of group 913801 these week numbers.
        #expect(StudyCalendar.bsuir.week(of: day("22.12.2022")) == 1)
        #expect(StudyCalendar.bsuir.week(of: day("26.12.2022")) == 2)
        #expect(StudyCalendar.bsuir.week(of: day("31.12.2022")) == 2)
        #expect(StudyCalendar.bsuir.week(of: day("04.01.2023")) == 3)
        #expect(StudyCalendar.bsuir.week(of: day("10.01.2023")) == 4)
        // 01.09.2023 is a Friday of week 1, so Monday 04.09.2023 is week 2.
        #expect(StudyCalendar.bsuir.week(of: day("01.09.2023")) == 1)
        #expect(StudyCalendar.bsuir.week(of: day("04.09.2023")) == 2)
    }

    @Test func oddAndEvenWeeksCountFromTheTermStart() {
        let calendar = StudyCalendar.oddEven(termStart: day("09.02.2026"))
        #expect(calendar.week(of: day("09.02.2026")) == 1)
        #expect(calendar.week(of: day("15.02.2026")) == 1)
        #expect(calendar.week(of: day("16.02.2026")) == 2)
        #expect(calendar.week(of: day("23.02.2026")) == 1)
        // A term starting mid-week: the week of the start is week 1.
        let midweek = StudyCalendar.oddEven(termStart: day("11.02.2026"))
        #expect(midweek.week(of: day("09.02.2026")) == 1)
        #expect(midweek.week(of: day("16.02.2026")) == 2)
        // Before the start the cycle runs backwards.
        #expect(calendar.week(of: day("08.02.2026")) == 2)
        #expect(calendar.weekName(1) == "odd")
    }

    @Test func datedOnlyCalendarsHaveNoWeeks() {
        #expect(StudyCalendar.datedOnly.week(of: day("11.04.2024")) == nil)
    }
}

@Suite struct DateTests {
    @Test func datesReadAndWrite() throws {
        let date = try #require(LocalDate(dotted: "29.02.2024"))
        #expect(date.iso == "2024-02-29")
        #expect(date.dotted == "29.02.2024")
        #expect(LocalDate(iso: "2024-02-29") == date)
        #expect(LocalDate(dotted: "29.02.2023") == nil)
        #expect(LocalDate(dotted: "2024-02-29") == nil)
        #expect(LocalDate(iso: "2024-2-29") == nil)
        #expect(LocalDate(dayNumber: 0).iso == "1970-01-01")
        #expect(LocalDate(dayNumber: 0).weekday == .thursday)
        #expect(day("21.11.2026").weekday == .saturday)
        #expect(day("21.11.2026").monday == day("16.11.2026"))
        #expect(day("31.12.2026").adding(days: 1) == day("01.01.2027"))
        #expect(day("01.01.1960").weekday == .friday)
    }

    @Test func wallTimes() {
        #expect(WallTime("11:40")?.minutes == 700)
        #expect(WallTime("9:05")?.description == "09:05")
        #expect(WallTime("24:00") == nil)
        #expect(WallTime("12:60") == nil)
        #expect(WallTime("1200") == nil)
    }

    @Test func localTimesFollowTheTimeZone() {
        let minsk = TimeZone(identifier: "Europe/Minsk")!
        // 2026-11-21 21:30 UTC is 00:30 on the 22nd in Minsk (UTC+3).
        let moment = Date(timeIntervalSince1970: 1_795_296_600)
        let local = LocalDateTime(moment, in: minsk)
        #expect(local.date == day("22.11.2026"))
        #expect(local.minutes == 30)
        #expect(local.moment(in: minsk) == moment)
    }

    @Test func weekdaysFromRussianNames() {
        #expect(Weekday(russian: "Понедельник") == .monday)
        #expect(Weekday(russian: "суббота") == .saturday)
        #expect(Weekday(russian: "Воскресенье") == .sunday)
        #expect(Weekday(russian: "Monday") == nil)
    }
}
