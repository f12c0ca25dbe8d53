extension TimetableImport {
    /// The same timetable moved by whole weeks (dates, terms and lessons alike), so that weekdays
    /// and study weeks stay what they were. The demo moves the real IIS fixtures of 2022 and 2023
    /// into the current academic year this way.
    public func shifted(byWeeks weeks: Int) -> TimetableImport {
        let days = weeks * 7
        func move(_ date: LocalDate?) -> LocalDate? { date?.adding(days: days) }
        func move(_ range: ClosedRange<LocalDate>) -> ClosedRange<LocalDate> {
            range.lowerBound.adding(days: days)...range.upperBound.adding(days: days)
        }
        var result = self
        result.schedules = schedules.map { schedule in
            var schedule = schedule
            schedule.term = schedule.term.map {
                TermDates(
                    lessonsStart: move($0.lessonsStart), lessonsEnd: move($0.lessonsEnd),
                    examsStart: move($0.examsStart), examsEnd: move($0.examsEnd))
            }
            schedule.lastUpdate = move(schedule.lastUpdate)
            schedule.lessons = schedule.lessons.map { lesson in
                var lesson = lesson
                lesson.date = move(lesson.date)
                lesson.dateRange = lesson.dateRange.map(move)
                return lesson
            }
            return schedule
        }
        return result
    }

    /// The whole weeks from the start of the academic year `from` (the Monday of the week of
    /// 1 September) to that of `to`.
    public static func weeksBetweenAcademicYears(_ from: Int, _ to: Int) -> Int {
        guard let first = StudyCalendar.academicYearStart(from), let last = StudyCalendar.academicYearStart(to) else {
            return 0
        }
        return first.days(until: last) / 7
    }
}

extension TimetableImport {
    /// The days of lessons of every schedule that names them in its term: from the first start to
    /// the last end.
    public var lessonDays: ClosedRange<LocalDate>? {
        let terms = schedules.compactMap(\.term)
        guard let first = terms.compactMap(\.lessonsStart).min(), let last = terms.compactMap(\.lessonsEnd).max(),
            first <= last
        else { return nil }
        return first...last
    }

    /// How many weeks to move a term of `lessons` so that `today` has a week of lessons ahead:
    /// none when it has, otherwise whole four-week study cycles (so every date keeps its study
    /// week) that put today in the term's fifth to eighth week. The demo's IIS terms are autumn
    /// terms; from late December to August they are moved so that the demo's week is not empty.
    public static func weeksBringingLessons(to today: LocalDate, lessons: ClosedRange<LocalDate>) -> Int {
        if lessons.lowerBound <= today && today.adding(days: 7) <= lessons.upperBound { return 0 }
        func floorDivided(_ value: Int, by divisor: Int) -> Int {
            value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        }
        let weeksIn = floorDivided(lessons.lowerBound.days(until: today), by: 7)
        return 4 * floorDivided(weeksIn - 4, by: 4)
    }
}
