import Accounts
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
    /// The calendar and lesson types as of a version of the timetable (which every change of
    /// them, and every import, moves on): read once per version rather than for every schedule.
    private let constants: TimetableConstants
    /// Each owner's lessons, as of a version of the timetable.
    private let memory = LessonMemory()

    /// `version` reads the timetable's version (``ResponseCache/currentVersion()``, at most once a
    /// second); nil reads the calendar and the lesson types each time.
    init(
        database: Database, timeZone: TimeZone, now: @escaping @Sendable () -> Date,
        version: (@Sendable () async throws -> String)? = nil
    ) {
        self.database = database
        self.timeZone = timeZone
        self.now = now
        self.constants = TimetableConstants(version: version)
    }

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
        try await constants.get(read: readConstants).calendar
    }

    /// The institution's pairs: BSUIR's unless set otherwise (`campus calendar --pairs`).
    func pairTimes() async throws -> PairTimes {
        try await constants.get(read: readConstants).pairs
    }

    /// The calendar, the pairs and the lesson types, in one read.
    private func readConstants() async throws -> TimetableConstants.Values {
        try await database.read { db in
            let setting = try await SettingsStore(db).value(.studyCalendar)
            let pairs = try await SettingsStore(db).value(.pairTimes)
            let types = try await TimetableStore(db).lessonTypes()
            return TimetableConstants.Values(
                calendar: setting.flatMap(StudyCalendar.init(setting:)) ?? .bsuir,
                pairs: pairs.flatMap(PairTimes.init(text:)) ?? .bsuir,
                windowNotes: try await TimetableStore(db).windowNotes(),
                types: Dictionary(types.map { ($0.id, $0) }) { a, _ in a })
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
            throw Refusal.invalid(
                FieldProblem(
                    field: "to", detail: "to ({to}) is before from ({from}).", ["to": end.iso, "from": start.iso]))
        }
        guard start.days(until: end) < Self.maximumDays else {
            throw Refusal.invalid(
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

    /// Checks that the targets exist (404 otherwise) and returns their lessons in `range`, each
    /// once, by id: from memory while the timetable's version stays (``LessonMemory``).
    func lessons(of targets: [Target], in range: ClosedRange<LocalDate>?) async throws -> [Lesson] {
        guard let version = try await constants.version?() else {
            return try await Self.read(targets, in: range, database: database).map(\.lesson)
        }
        var owners: [[LessonMemory.Kept]] = []
        for target in targets {
            owners.append(
                try await memory.lessons(of: target, version: version) {
                    try await Self.read([target], in: nil, database: database)
                })
        }
        return Self.lessons(in: range, of: owners)
    }

    /// The lessons of the owners' kept lessons in `range`, each once, by id.
    private static func lessons(in range: ClosedRange<LocalDate>?, of owners: [[LessonMemory.Kept]]) -> [Lesson] {
        if owners.count == 1 { return owners[0].compactMap { $0.isIn(range) ? $0.lesson : nil } }
        var lessons: [Lesson] = []
        var seen: Set<Int64> = []
        for kept in owners {
            for entry in kept where entry.isIn(range) && seen.insert(entry.lesson.id).inserted {
                lessons.append(entry.lesson)
            }
        }
        return lessons.sorted { $0.id < $1.id }
    }

    /// The targets' lessons in `range` from the database, with the day bounds ranges are
    /// compared with; 404 for a target there is not.
    private static func read(_ targets: [Target], in range: ClosedRange<LocalDate>?, database: Database)
        async throws -> [LessonMemory.Kept]
    {
        try await database.read { db in
            let timetable = TimetableStore(db)
            let (groups, teachers, rooms) = try await resolve(targets, in: timetable)
            let lessons = try await timetable.lessons(groups: groups, teachers: teachers, rooms: rooms, in: range)
            let irregular = try await timetable.irregularDayBounds(of: lessons.map(\.id))
            return lessons.map { LessonMemory.Kept($0, irregular: irregular[$0.id]) }
        }
    }

    /// The groups' names, and the teachers' and rooms' ids, of `targets`; 404 for a target
    /// there is not.
    static func resolve(_ targets: [Target], in timetable: TimetableStore) async throws -> (
        groups: [String], teachers: [Int64], rooms: [Int64]
    ) {
        var groups: [String] = []
        var teachers: [Int64] = []
        var rooms: [Int64] = []
        for target in targets {
            switch target {
            case .group(let name):
                guard try await timetable.group(named: name) != nil else {
                    throw Refusal.notFound("There is no group {name}.", ["name": name])
                }
                groups.append(name)
            case .teacher(let urlID):
                guard let teacher = try await timetable.teacher(urlID: urlID) else {
                    throw Refusal.notFound("There is no teacher {id}.", ["id": urlID])
                }
                teachers.append(teacher.id)
            case .room(let id):
                guard try await timetable.room(id: id) != nil else {
                    throw Refusal.notFound("There is no room {id}.", ["id": String(id)])
                }
                rooms.append(id)
            }
        }
        return (groups, teachers, rooms)
    }

    func lessonTypes() async throws -> [String: LessonType] {
        try await constants.get(read: readConstants).types
    }

    /// The schedule of `targets` from `range`'s first to last day, day by day, with windows.
    func schedule(of targets: [Target], in range: ClosedRange<LocalDate>, filter: ScheduleFilter) async throws -> Result
    {
        let lessons = try await lessons(of: targets, in: range)
        let constants = try await constants.get(read: readConstants)
        return Self.schedule(of: targets, lessons: lessons, constants: constants, in: range, filter: filter)
    }

    /// The schedule ``schedule(of:in:filter:)`` makes, from what is kept in memory for `version`
    /// of the timetable alone, or nil when any of it is not (then that reads it): made without
    /// waiting, on the connection's event loop (``EarlyScheduleAnswer``).
    func keptSchedule(of targets: [Target], in range: ClosedRange<LocalDate>, filter: ScheduleFilter, version: String)
        -> Result?
    {
        guard let constants = constants.kept(version: version) else { return nil }
        var owners: [[LessonMemory.Kept]] = []
        for target in targets {
            guard let kept = memory.kept(of: target, version: version) else { return nil }
            owners.append(kept)
        }
        return Self.schedule(
            of: targets, lessons: Self.lessons(in: range, of: owners), constants: constants, in: range, filter: filter)
    }

    private static func schedule(
        of targets: [Target], lessons: [Lesson], constants: TimetableConstants.Values, in range: ClosedRange<LocalDate>,
        filter: ScheduleFilter
    ) -> Result {
        let calendar = constants.calendar
        let groups = targets.compactMap { target -> String? in
            if case .group(let name) = target { return name }
            return nil
        }
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
                    windows: WindowNote.annotate(
                        Schedule.windows(in: dayOccurrences), notes: constants.windowNotes, groups: groups,
                        calendar: calendar)))
            day = day.adding(days: 1)
        }
        return Result(range: range, calendar: calendar, days: days, types: constants.types)
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
    /// lesson without dates runs from a year back to a year ahead. A personal feed adds its
    /// owner's `deadlines`.
    func iCalendar(
        of targets: [Target], name: String, host: String, filter: ScheduleFilter, reminderMinutes: Int? = nil,
        deadlines: [ICalendar.Deadline] = [], words: ICalendar.Words = .english
    ) async throws -> String {
        let today = today()
        let lessons = try await lessons(of: targets, in: nil)
        let cancelled = try await cancelledLessons(of: targets)
        let yearAround = today.adding(days: -366)...today.adding(days: 366)
        var days = (lessons + cancelled).flatMap { lesson in
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
        ).render(lessons, within: range, filter: filter, deadlines: deadlines, cancelled: cancelled)
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

/// What every schedule needs besides its lessons, kept for one version of the timetable.
final class TimetableConstants: Sendable {
    struct Values: Sendable {
        var calendar: StudyCalendar
        var pairs: PairTimes
        /// Seed 004's notes on free slots, by group.
        var windowNotes: [String: [WindowNote]]
        var types: [String: LessonType]
    }

    let version: (@Sendable () async throws -> String)?
    private let kept = NIOLockedValueBox<(version: String, values: Values)?>(nil)

    init(version: (@Sendable () async throws -> String)?) { self.version = version }

    /// The values kept for `version`, if they are.
    func kept(version: String) -> Values? {
        kept.withLockedValue { kept in kept?.version == version ? kept?.values : nil }
    }

    func get(read: () async throws -> Values) async throws -> Values {
        guard let version else { return try await read() }
        let current = try await version()
        if let kept = kept.withLockedValue({ $0 }), kept.version == current { return kept.values }
        let values = try await read()
        kept.withLockedValue { $0 = (current, values) }
        return values
    }
}
