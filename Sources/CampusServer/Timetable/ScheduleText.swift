import Foundation
import Localization
import Timetable

/// The words of a schedule page in the reader's language: dates, weekdays, durations and week
/// names. Subjects, groups, rooms and teachers are data and stay as the institution wrote them.
struct ScheduleText: Sendable {
    let t: Translator

    /// `November 23`, `23 ноября`.
    func shortDate(_ date: LocalDate) -> String {
        t.date(year: date.year, month: date.month, day: date.day, withYear: false)
    }

    /// `November 23, 2026`, `23 ноября 2026 г.`.
    func date(_ date: LocalDate) -> String { t.date(year: date.year, month: date.month, day: date.day) }

    /// `December 5, 14:03` in `timeZone` (with the year when `withYear`): when something happened.
    func moment(_ date: Date, in timeZone: TimeZone, withYear: Bool = false) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let day = LocalDate(date, in: timeZone)
        return (withYear ? self.date(day) : shortDate(day))
            + String(format: ", %02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// A span of days: `November 23 – November 29, 2026`.
    func span(_ from: LocalDate, _ to: LocalDate) -> String {
        from.year == to.year
            ? t("{from} – {to}", context: "span of dates", ["from": shortDate(from), "to": date(to)])
            : t("{from} – {to}", context: "span of dates", ["from": date(from), "to": date(to)])
    }

    func weekday(_ date: LocalDate, short: Bool = false) -> String { t.weekday(date.weekday.rawValue, short: short) }

    /// A stretch of time in the banner and between lessons: `25 min`, `2 h 5 min`, `3 days`.
    func duration(_ minutes: Int) -> String {
        if minutes < 60 { return t("{minutes} min", ["minutes": t.number(minutes)]) }
        if minutes < 24 * 60 {
            let hours = t.number(minutes / 60)
            return minutes % 60 == 0
                ? t("{hours} h", ["hours": hours])
                : t("{hours} h {minutes} min", ["hours": hours, "minutes": t.number(minutes % 60)])
        }
        return t.plural("{count} day", "{count} days", minutes / 1440)
    }

    /// A day's study week beside its date: `odd`, `even` in a two-week cycle, else `week 3`.
    func week(_ week: Int, in calendar: StudyCalendar) -> String {
        if calendar.cycleLength == 2 { return week == 1 ? t("odd", context: "week") : t("even", context: "week") }
        return t("week {number}", ["number": t.number(week)])
    }

    /// The week shown, as its heading says: `Odd week`, `Study week 3`.
    func studyWeek(_ week: Int, in calendar: StudyCalendar) -> String {
        if calendar.cycleLength == 2 { return week == 1 ? t("Odd week") : t("Even week") }
        return t("Study week {number}", ["number": t.number(week)])
    }

    /// A week of the academic year, for calendars without study weeks: `Week 12 of the year`.
    func academicWeek(_ week: Int) -> String {
        t("Week {number} of the academic year", ["number": t.number(week)])
    }

    /// The study weeks a lesson repeats in, when not every week: `odd weeks`, `weeks 1, 3`.
    func weeks(_ weeks: Set<Int>, in calendar: StudyCalendar) -> String? {
        guard !weeks.isEmpty, let length = calendar.cycleLength, weeks.count < length else { return nil }
        if length == 2 { return weeks.contains(1) ? t("odd weeks") : t("even weeks") }
        if weeks.count == 1, let only = weeks.first { return week(only, in: calendar) }
        return t("weeks {numbers}", ["numbers": weeks.sorted().map { t.number($0) }.joined(separator: ", ")])
    }

    /// How far off an exam is: `today`, `in 3 days`, `2 days ago`.
    func daysLeft(_ days: Int) -> String {
        if days == 0 { return t("today") }
        return days > 0
            ? t.plural("in {count} day", "in {count} days", days)
            : t.plural("{count} day ago", "{count} days ago", -days)
    }

    /// A lesson type as a page names it. Campus's own types for seed 004's lessons (`lecture`,
    /// `practice`, `lab`) have English names until an admin renames them: those words are
    /// Campus's, so they are said in the reader's language. Every other type is the
    /// institution's data (IIS's "ЛК", "Лекция"), shown as it is written.
    func lessonType(_ type: LessonType) -> LessonType {
        guard let original = LessonType.defaults.first(where: { $0.id == type.id }) else { return type }
        let words: String
        switch type.id {
        case "lecture": words = t("Lecture", context: "lesson type")
        case "practice": words = t("Practice", context: "lesson type")
        case "lab": words = t("Lab", context: "lesson type")
        default: return type
        }
        var shown = type
        if type.name == original.name { shown.name = words }
        if type.abbreviation == original.abbreviation { shown.abbreviation = words }
        return shown
    }

    /// When the next lesson is: `today` or its weekday and date.
    func when(_ date: LocalDate, today: LocalDate) -> String {
        date == today
            ? t("today")
            : t("{weekday} {date}", context: "weekday and date", ["weekday": weekday(date), "date": shortDate(date)])
    }
}

extension ICalendar.Words {
    /// A calendar feed's words in `t`'s language.
    init(_ t: Translator) {
        self.init(
            subgroup: { t("subgroup {number}", ["number": String($0)]) },
            teachers: { t("Teachers: {names}", context: "calendar", ["names": $0]) },
            groups: { t("Groups: {names}", context: "calendar", ["names": $0]) },
            reminder: { t("Lesson: {subject}", context: "calendar", ["subject": $0]) },
            deadline: { t("Due: {subject}", context: "calendar", ["subject": $0]) })
    }
}
