import Foundation
import Testing

@testable import Timetable

@Suite struct ShiftTests {
    /// The demo's term as it lands in 2026/27: lessons from Tuesday 1 September to Thursday 17
    /// December 2026.
    static let autumn = day("01.09.2026")...day("17.12.2026")

    @Test func aTermWithAWeekOfLessonsAheadStaysWhereItIs() {
        #expect(TimetableImport.weeksBringingLessons(to: day("01.09.2026"), lessons: Self.autumn) == 0)
        #expect(TimetableImport.weeksBringingLessons(to: day("18.11.2026"), lessons: Self.autumn) == 0)
        #expect(TimetableImport.weeksBringingLessons(to: day("10.12.2026"), lessons: Self.autumn) == 0)
        // A week before the last lessons it moves on.
        #expect(TimetableImport.weeksBringingLessons(to: day("11.12.2026"), lessons: Self.autumn) == 8)
        #expect(TimetableImport.weeksBringingLessons(to: day("15.01.2027"), lessons: Self.autumn) == 12)
        // Before the term it moves back.
        #expect(TimetableImport.weeksBringingLessons(to: day("31.08.2026"), lessons: Self.autumn) == -8)
    }

    /// On every day of a year the moved term has today in its fifth to eighth week and a week of
    /// lessons ahead, moved by whole study cycles, so every date keeps its BSUIR study week.
    @Test func everyDayOfTheYearGetsAWeekOfLessons() {
        var today = day("01.06.2026")
        while today < day("01.09.2027") {
            let weeks = TimetableImport.weeksBringingLessons(to: today, lessons: Self.autumn)
            #expect(weeks % 4 == 0, "\(today)")
            let start = Self.autumn.lowerBound.adding(days: weeks * 7)
            let end = Self.autumn.upperBound.adding(days: weeks * 7)
            #expect(start <= today && today.adding(days: 7) <= end, "\(today)")
            if weeks != 0 { #expect((28..<56).contains(start.days(until: today)), "\(today)") }
            today = today.adding(days: 1)
        }
    }

    @Test func theLessonDaysSpanEveryTerm() {
        let early = ImportedSchedule(
            owner: .group("151004"), term: TermDates(lessonsStart: day("04.09.2023"), lessonsEnd: day("21.12.2023")),
            lessons: [])
        let late = ImportedSchedule(
            owner: .group("010101"), term: TermDates(lessonsStart: day("01.09.2023"), lessonsEnd: day("20.12.2023")),
            lessons: [])
        let exams = ImportedSchedule(
            owner: .group("913801"), term: TermDates(examsStart: day("22.12.2022"), examsEnd: day("10.01.2023")),
            lessons: [])
        var data = TimetableImport()
        data.schedules = [early, late, exams]
        #expect(data.lessonDays == day("01.09.2023")...day("21.12.2023"))
        data.schedules = [exams]
        #expect(data.lessonDays == nil)
    }
}
