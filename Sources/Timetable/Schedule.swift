/// Which occurrences of a schedule to show.
public struct ScheduleFilter: Sendable, Hashable {
    /// Show whole-group lessons (subgroup 0) and this subgroup's; nil shows every subgroup.
    public var subgroup: Int?
    /// The groups `subgroup` is about; nil for every group. A student's own schedule with other
    /// schedules in it (saved compounds) keeps every subgroup of the others' lessons.
    public var subgroupOf: Set<String>?
    /// Show only these subjects (short or full names, any letter case); nil shows all.
    public var subjects: Set<String>?
    /// Show only subjects whose short or full name holds this text anywhere (any letter case,
    /// ё as е); nil shows all.
    public var containing: String?

    public init(
        subgroup: Int? = nil, subgroupOf: Set<String>? = nil, subjects: Set<String>? = nil, containing: String? = nil
    ) {
        self.subgroup = subgroup
        self.subgroupOf = subgroupOf
        self.subjects = subjects
        self.containing = containing.map(SearchText.fold).flatMap { $0.isEmpty ? nil : $0 }
    }

    public func admits(_ lesson: Lesson) -> Bool {
        if let subgroup, subgroup != 0, lesson.subgroup != 0, lesson.subgroup != subgroup,
            subgroupOf.map({ !$0.isDisjoint(with: lesson.groups) }) ?? true
        {
            return false
        }
        if let subjects {
            let wanted = Set(subjects.map { $0.lowercased() })
            guard
                wanted.contains(lesson.subject.lowercased())
                    || lesson.subjectFullName.map({ wanted.contains($0.lowercased()) }) == true
            else { return false }
        }
        if let containing {
            guard
                SearchText.fold(lesson.subject).contains(containing)
                    || lesson.subjectFullName.map({ SearchText.fold($0).contains(containing) }) == true
            else { return false }
        }
        return true
    }
}

/// A free gap between two consecutive lessons of a day (seed 004's "window").
public struct Window: Sendable, Hashable {
    public var date: LocalDate
    public var start: WallTime
    public var end: WallTime
    /// What the group's timetable says of it (seed 004's window messages).
    public var message: String? = nil

    public var minutes: Int { end.minutes - start.minutes }
}

/// What is on now and what comes next, for a "now / next" banner.
public struct NowAndNext: Sendable, Hashable {
    /// Lessons going on at the moment (several when subgroups meet at once).
    public var current: [Occurrence]
    public var next: Occurrence?
    /// Minutes until the current lessons end.
    public var minutesLeft: Int?
    /// Minutes until the next lesson starts.
    public var minutesUntilNext: Int?
}

public enum Schedule {
    /// Every occurrence of `lessons` between `range`'s first and last day that the filter admits,
    /// sorted by date, start time, then subgroup. This one path serves a group, a teacher, a room
    /// or a compound of several: the caller passes their lessons (each lesson once).
    public static func occurrences(
        of lessons: [Lesson], in range: ClosedRange<LocalDate>, calendar: StudyCalendar,
        filter: ScheduleFilter = ScheduleFilter()
    ) -> [Occurrence] {
        var result: [Occurrence] = []
        for lesson in lessons where filter.admits(lesson) {
            for day in lesson.days(in: range, calendar: calendar) {
                result.append(Occurrence(lesson: lesson, date: day))
            }
        }
        result.sort { a, b in
            (
                a.date.dayNumber, a.lesson.start.minutes, a.lesson.subgroup, a.lesson.end.minutes, a.lesson.subject,
                a.lesson.id
            )
                < (
                    b.date.dayNumber, b.lesson.start.minutes, b.lesson.subgroup, b.lesson.end.minutes, b.lesson.subject,
                    b.lesson.id
                )
        }
        return result
    }

    /// The gaps of at least `minimumMinutes` between consecutive lessons of each day. Lessons that
    /// overlap (two subgroups at once) count as one busy stretch; before the first lesson and after
    /// the last there is no window.
    public static func windows(in occurrences: [Occurrence], minimumMinutes: Int = 60) -> [Window] {
        var windows: [Window] = []
        var byDay: [LocalDate: [Occurrence]] = [:]
        for occurrence in occurrences { byDay[occurrence.date, default: []].append(occurrence) }
        for (date, day) in byDay.sorted(by: { $0.key < $1.key }) {
            let sorted = day.sorted { $0.lesson.start < $1.lesson.start }
            guard var busyUntil = sorted.first?.lesson.end else { continue }
            for occurrence in sorted.dropFirst() {
                if occurrence.lesson.start.minutes - busyUntil.minutes >= minimumMinutes {
                    windows.append(Window(date: date, start: busyUntil, end: occurrence.lesson.start))
                }
                busyUntil = max(busyUntil, occurrence.lesson.end)
            }
        }
        return windows
    }

    /// The lessons going on at `now` and the next one to start after it, from occurrences sorted
    /// as ``occurrences(of:in:calendar:filter:)`` returns them.
    public static func nowAndNext(in occurrences: [Occurrence], at now: LocalDateTime) -> NowAndNext {
        let current = occurrences.filter { $0.start <= now && now < $0.end }
        let next = occurrences.first { $0.start > now }
        func minutes(from: LocalDateTime, to: LocalDateTime) -> Int {
            from.date.days(until: to.date) * 1440 + to.minutes - from.minutes
        }
        return NowAndNext(
            current: current, next: next,
            minutesLeft: current.map { minutes(from: now, to: $0.end) }.max(),
            minutesUntilNext: next.map { minutes(from: now, to: $0.start) })
    }

    /// The days of the week holding `date`, Monday to Sunday.
    public static func week(holding date: LocalDate) -> ClosedRange<LocalDate> {
        date.monday...date.monday.adding(days: 6)
    }
}
