import Accounts
import CampusHTTP
import Foundation
import InputRules
import NIOConcurrencyHelpers
import Storage
import Timetable

/// Schedules of groups, teachers, rooms and compounds of them, as the API, the web app, the
/// calendar feeds and the CLI show them.
struct TimetableService: Sendable {
    let database: Database
    let timeZone: TimeZone
    let now: @Sendable () -> Date
    private let todayCache = DayCache()

    /// The longest range one schedule request may cover.
    static let maximumDays = 366
    /// How far ahead "next lesson" looks.
    static let nextLessonHorizon = 120

    /// Whose schedule.
    enum Target: Sendable, Hashable {
        case group(String)
        case teacher(String)
        case room(Int64)
    }

    /// A day of a schedule.
    struct Day: Sendable {
        var date: LocalDate
        var week: Int?
        var occurrences: [Occurrence]
        var windows: [Window]
    }

    struct Result: Sendable {
        var range: ClosedRange<LocalDate>
        var calendar: StudyCalendar
        var days: [Day]
        var types: [String: LessonType]
    }

    // MARK: Calendar

    /// The institution's study calendar: BSUIR's 4-week cycle unless set otherwise
    /// (`campus calendar`).
    func studyCalendar() async throws -> StudyCalendar {
        let setting = try await database.read { db in try await SettingsStore(db).value(.studyCalendar) }
        return Self.parseCalendar(setting) ?? .bsuir
    }

    /// "bsuir", "odd-even YYYY-MM-DD" (term start) or "dated".
    static func parseCalendar(_ text: String?) -> StudyCalendar? {
        guard let text else { return nil }
        let parts = text.split(separator: " ")
        switch parts.first {
        case "bsuir": return .bsuir
        case "dated": return .datedOnly
        case "odd-even":
            guard parts.count == 2, let start = LocalDate(iso: parts[1]) else { return nil }
            return .oddEven(termStart: start)
        default: return nil
        }
    }

    static func describe(_ calendar: StudyCalendar) -> String {
        switch calendar {
        case .datedOnly: "dated"
        case .cycle(_, .firstOfSeptember): "bsuir"
        case .cycle(_, .date(let start)): "odd-even \(start.iso)"
        }
    }

    func today() -> LocalDate { LocalDate(now(), in: timeZone) }

    /// Today's date as `YYYY-MM-DD`, worked out again only when the day changes (it is part of
    /// the key of every cached answer).
    func todayKey() -> String { todayCache.value(now: now(), timeZone: timeZone) }

    // MARK: Ranges

    /// The days asked for: `from` and `to` as `YYYY-MM-DD`; without `from`, this week's Monday;
    /// without `to`, the Sunday after `from`.
    func range(from: String?, to: String?) throws -> ClosedRange<LocalDate> {
        var validator = Validator()
        let first = from.flatMap { text in
            validator.check { () throws(FieldProblem) in try Self.date(text, field: "from") }
        }
        let last = to.flatMap { text in
            validator.check { () throws(FieldProblem) in try Self.date(text, field: "to") }
        }
        try validator.finish()
        let start = first ?? (last.map { $0.monday } ?? today().monday)
        let end = last ?? start.adding(days: 6 - (start.weekday.rawValue - 1))
        guard start <= end else {
            throw Problem.invalid(
                FieldProblem(
                    field: "to", detail: "to ({to}) is before from ({from}).", ["to": end.iso, "from": start.iso]))
        }
        guard start.days(until: end) < Self.maximumDays else {
            throw Problem.invalid(
                FieldProblem(
                    field: "to", detail: "A schedule covers at most {maximum} days; ask for a shorter range.",
                    ["maximum": String(Self.maximumDays)])
            )
        }
        return start...end
    }

    static func date(_ text: String, field: String) throws(FieldProblem) -> LocalDate {
        switch LocalDate.read(iso: text) {
        case .success(let date): return date
        case .failure(let problem):
            throw LocalDate.fieldProblem(problem, field: field, example: "2023-09-25")
        }
    }

    // MARK: Schedules

    /// Checks that the targets exist (404 otherwise) and returns their lessons in `range`.
    func lessons(of targets: [Target], in range: ClosedRange<LocalDate>?) async throws -> [Lesson] {
        try await database.read { db in
            let timetable = TimetableStore(db)
            var groups: [String] = []
            var teachers: [Int64] = []
            var rooms: [Int64] = []
            for target in targets {
                switch target {
                case .group(let name):
                    guard try await timetable.group(named: name) != nil else {
                        throw Problem.notFound("There is no group {name}.", ["name": name])
                    }
                    groups.append(name)
                case .teacher(let urlID):
                    guard let teacher = try await timetable.teacher(urlID: urlID) else {
                        throw Problem.notFound("There is no teacher {id}.", ["id": urlID])
                    }
                    teachers.append(teacher.id)
                case .room(let id):
                    guard try await timetable.room(id: id) != nil else {
                        throw Problem.notFound("There is no room {id}.", ["id": String(id)])
                    }
                    rooms.append(id)
                }
            }
            return try await timetable.lessons(groups: groups, teachers: teachers, rooms: rooms, in: range)
        }
    }

    func lessonTypes() async throws -> [String: LessonType] {
        let types = try await database.read { db in try await TimetableStore(db).lessonTypes() }
        return Dictionary(types.map { ($0.id, $0) }) { a, _ in a }
    }

    /// The schedule of `targets` from `range`'s first to last day, day by day, with windows.
    func schedule(of targets: [Target], in range: ClosedRange<LocalDate>, filter: ScheduleFilter) async throws -> Result
    {
        let lessons = try await lessons(of: targets, in: range)
        let calendar = try await studyCalendar()
        let occurrences = Schedule.occurrences(of: lessons, in: range, calendar: calendar, filter: filter)
        var byDay: [LocalDate: [Occurrence]] = [:]
        for occurrence in occurrences { byDay[occurrence.date, default: []].append(occurrence) }
        var days: [Day] = []
        var day = range.lowerBound
        while day <= range.upperBound {
            let dayOccurrences = byDay[day] ?? []
            days.append(
                Day(
                    date: day, week: calendar.week(of: day), occurrences: dayOccurrences,
                    windows: Schedule.windows(in: dayOccurrences)))
            day = day.adding(days: 1)
        }
        return Result(range: range, calendar: calendar, days: days, types: try await lessonTypes())
    }

    /// What `targets` have on now, and next.
    func nowAndNext(of targets: [Target], filter: ScheduleFilter) async throws -> (NowAndNext, [String: LessonType]) {
        let moment = now()
        let local = LocalDateTime(moment, in: timeZone)
        let range = local.date...local.date.adding(days: Self.nextLessonHorizon)
        let lessons = try await lessons(of: targets, in: range)
        let calendar = try await studyCalendar()
        let occurrences = Schedule.occurrences(of: lessons, in: range, calendar: calendar, filter: filter)
        return (Schedule.nowAndNext(in: occurrences, at: local), try await lessonTypes())
    }

    /// The calendar feed of `targets`: every lesson they have, each over its own dates; a weekly
    /// lesson without dates runs from a year back to a year ahead.
    func iCalendar(
        of targets: [Target], name: String, host: String, filter: ScheduleFilter, reminderMinutes: Int? = nil,
        words: ICalendar.Words = .english
    ) async throws -> String {
        let today = today()
        let lessons = try await lessons(of: targets, in: nil)
        let yearAround = today.adding(days: -366)...today.adding(days: 366)
        var days = lessons.flatMap { lesson in
            [lesson.date, lesson.dateRange?.lowerBound, lesson.dateRange?.upperBound].compactMap { $0 }
        }
        if days.isEmpty || lessons.contains(where: { $0.date == nil && $0.dateRange == nil }) {
            days += [yearAround.lowerBound, yearAround.upperBound]
        }
        let range = (days.min() ?? yearAround.lowerBound)...(days.max() ?? yearAround.upperBound)
        let stamp = today.start(in: timeZone)
        return ICalendar(
            name: name, timeZone: timeZone, calendar: try await studyCalendar(), host: host, stamp: stamp,
            lessonTypes: try await lessonTypes(), reminderMinutes: reminderMinutes, words: words
        ).render(lessons, within: range, filter: filter)
    }
}

/// Today's date as text until the day ends.
final class DayCache: Sendable {
    private let state = NIOLockedValueBox<(text: String, until: Date)?>(nil)

    func value(now: Date, timeZone: TimeZone) -> String {
        if let cached = state.withLockedValue({ $0 }), now < cached.until,
            now >= cached.until.addingTimeInterval(-86400 * 2)
        {
            return cached.text
        }
        let today = LocalDate(now, in: timeZone)
        let text = today.iso
        state.withLockedValue { $0 = (text, today.adding(days: 1).start(in: timeZone)) }
        return text
    }
}
