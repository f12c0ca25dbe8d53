import Foundation

/// Writes schedules as iCalendar (RFC 5545) for calendar apps to subscribe to.
///
/// A repeating lesson becomes one event per study week it happens in, repeating every cycle
/// (`RRULE:FREQ=WEEKLY;INTERVAL=4;UNTIL=…` at BSUIR) from its first day to its last; a dated
/// lesson is a single event. Times are wall-clock times in the institution's time zone, with a
/// VTIMEZONE that describes it. UIDs stay the same for as long as the lesson does.
public struct ICalendar: Sendable {
    public var name: String
    public var timeZone: TimeZone
    public var calendar: StudyCalendar
    /// The domain part of UIDs ("campus.example.org").
    public var host: String
    /// When the feed was made (DTSTAMP).
    public var stamp: Date
    public var lessonTypes: [String: LessonType]
    /// Minutes before each lesson a calendar app reminds (a VALARM); nil for none.
    public var reminderMinutes: Int?
    /// The feed's own words, in the reader's language.
    public var words: Words

    /// The words a feed writes around the timetable's data, which a page gives in its reader's
    /// language (the domain writes no language of its own).
    public struct Words: Sendable {
        /// "subgroup 2"
        public var subgroup: @Sendable (Int) -> String
        /// "Teachers: {names}"
        public var teachers: @Sendable (String) -> String
        /// "Groups: {names}"
        public var groups: @Sendable (String) -> String
        /// "Lesson: {subject}", a reminder's text.
        public var reminder: @Sendable (String) -> String
        /// "Due: {subject}", a task's deadline and its reminder.
        public var deadline: @Sendable (String) -> String

        public init(
            subgroup: @escaping @Sendable (Int) -> String, teachers: @escaping @Sendable (String) -> String,
            groups: @escaping @Sendable (String) -> String, reminder: @escaping @Sendable (String) -> String,
            deadline: @escaping @Sendable (String) -> String
        ) {
            self.subgroup = subgroup
            self.teachers = teachers
            self.groups = groups
            self.reminder = reminder
            self.deadline = deadline
        }

        public static let english = Words(
            subgroup: { "subgroup \($0)" }, teachers: { "Teachers: \($0)" }, groups: { "Groups: \($0)" },
            reminder: { "Lesson: \($0)" }, deadline: { "Due: \($0)" })
    }

    /// A task's deadline, an event of its own (without an end: a moment, RFC 5545 3.6.1). With
    /// reminders on, it is reminded a day before.
    public struct Deadline: Sendable {
        public var taskID: Int64
        public var subject: String
        public var text: String
        public var at: Date

        public init(taskID: Int64, subject: String, text: String, at: Date) {
            self.taskID = taskID
            self.subject = subject
            self.text = text
            self.at = at
        }
    }

    /// The longest a reminder may come before a lesson: a week.
    public static let reminderRange = 0...10_080

    public init(
        name: String, timeZone: TimeZone, calendar: StudyCalendar, host: String, stamp: Date,
        lessonTypes: [String: LessonType] = [:], reminderMinutes: Int? = nil, words: Words = .english
    ) {
        self.name = name
        self.timeZone = timeZone
        self.calendar = calendar
        self.host = host
        self.stamp = stamp
        self.lessonTypes = lessonTypes
        self.reminderMinutes = reminderMinutes
        self.words = words
    }

    /// One event: its first day, and how it repeats.
    struct Event {
        var lesson: Lesson
        var first: LocalDate
        /// Repeat every `interval` weeks until `until`; nil for a single event.
        var repeating: (interval: Int, until: LocalDate)?
        var uid: String
        /// An event of a lesson the timetable no longer has.
        var cancelled = false
    }

    /// The calendar of `lessons` within `range` (a repeating lesson without dates of its own is
    /// bounded by it). The events of `cancelled` lessons (which the timetable had and lost) are
    /// there too, under the UIDs they had, with `STATUS:CANCELLED` and a higher `SEQUENCE`, so
    /// that a subscribed calendar shows them cancelled rather than silently gone.
    public func render(
        _ lessons: [Lesson], within range: ClosedRange<LocalDate>, filter: ScheduleFilter = ScheduleFilter(),
        deadlines: [Deadline] = [], cancelled: [Lesson] = []
    )
        -> String
    {
        var events: [Event] = []
        for lesson in lessons.sorted(by: { $0.id < $1.id }) where filter.admits(lesson) {
            events += self.events(for: lesson, within: range)
        }
        for lesson in cancelled.sorted(by: { $0.id < $1.id }) where filter.admits(lesson) {
            events += self.events(for: lesson, within: range).map { event in
                var event = event
                event.cancelled = true
                return event
            }
        }
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Campus//Timetable//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:\(escape(name))", "X-WR-TIMEZONE:\(timeZone.identifier)",
        ]
        let days =
            events.flatMap { event in [event.first, event.repeating?.until ?? event.first] }
            + deadlines.map { LocalDate($0.at, in: timeZone) }
        if let first = days.min(), let last = days.max() {
            lines += timeZoneComponent(from: first.adding(days: -7), to: last.adding(days: 7))
        }
        let stamp = Self.utc(stamp)
        for event in events {
            let lesson = event.lesson
            let type = lesson.typeID.map { lessonTypes[$0] ?? .unknown($0) }
            var summary = lesson.subject
            if let type { summary += " (\(type.abbreviation))" }
            if lesson.subgroup != 0 { summary += " · " + words.subgroup(lesson.subgroup) }
            var description: [String] = []
            if let full = lesson.subjectFullName { description.append(full) }
            if let type { description.append(type.name) }
            if !lesson.teachers.isEmpty {
                description.append(words.teachers(lesson.teachers.map(\.name).joined(separator: ", ")))
            }
            if !lesson.groups.isEmpty { description.append(words.groups(lesson.groups.joined(separator: ", "))) }
            if let note = lesson.note { description.append(note) }
            lines += [
                "BEGIN:VEVENT",
                "UID:\(event.uid)",
                "DTSTAMP:\(stamp)",
                "DTSTART;TZID=\(timeZone.identifier):\(Self.local(event.first, lesson.start))",
                "DTEND;TZID=\(timeZone.identifier):\(Self.local(event.first, lesson.end))",
            ]
            if event.cancelled { lines += ["STATUS:CANCELLED", "SEQUENCE:1"] }
            if let repeating = event.repeating {
                // UNTIL is in UTC for a DTSTART with a time zone (RFC 5545 3.3.10): the end of the last day.
                let end = LocalDateTime(date: repeating.until, minutes: 23 * 60 + 59).moment(in: timeZone)
                lines.append("RRULE:FREQ=WEEKLY;INTERVAL=\(repeating.interval);UNTIL=\(Self.utc(end))")
            }
            lines.append("SUMMARY:\(escape(summary))")
            if !lesson.rooms.isEmpty {
                lines.append("LOCATION:\(escape(lesson.rooms.map(\.name).joined(separator: ", ")))")
            }
            if !description.isEmpty { lines.append("DESCRIPTION:\(escape(description.joined(separator: "\n")))") }
            if let type { lines.append("CATEGORIES:\(escape(type.name))") }
            if let minutes = reminderMinutes, !event.cancelled {
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(escape(words.reminder(lesson.subject)))",
                    "TRIGGER:-PT\(minutes)M", "END:VALARM",
                ]
            }
            lines.append("END:VEVENT")
        }
        for deadline in deadlines.sorted(by: { $0.taskID < $1.taskID }) {
            lines += self.event(for: deadline, stamp: stamp)
        }
        lines.append("END:VCALENDAR")
        return lines.map(Self.fold).joined(separator: "\r\n") + "\r\n"
    }

    /// A deadline's event: at its moment, in the institution's time zone, a day's reminder.
    func event(for deadline: Deadline, stamp: String) -> [String] {
        let local = LocalDateTime(deadline.at, in: timeZone)
        let summary = words.deadline(deadline.subject)
        var lines = [
            "BEGIN:VEVENT", "UID:task-\(deadline.taskID)@\(host)", "DTSTAMP:\(stamp)",
            "DTSTART;TZID=\(timeZone.identifier):\(Self.local(local))",
            "SUMMARY:\(escape(summary))",
        ]
        if !deadline.text.isEmpty { lines.append("DESCRIPTION:\(escape(deadline.text))") }
        if reminderMinutes != nil {
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(escape(summary))", "TRIGGER:-P1D", "END:VALARM"]
        }
        lines.append("END:VEVENT")
        return lines
    }

    /// The events of one lesson. In a cycle of N weeks, each study week of the lesson starts its
    /// own series repeating every N weeks; when the lesson's dates cross the start of a new cycle
    /// (an academic year), each stretch gets its own series.
    func events(for lesson: Lesson, within range: ClosedRange<LocalDate>) -> [Event] {
        let uidBase = "lesson-\(lesson.id)"
        if let date = lesson.date {
            guard range.contains(date) else { return [] }
            return [Event(lesson: lesson, first: date, repeating: nil, uid: "\(uidBase)@\(host)")]
        }
        let days = lesson.days(in: range, calendar: calendar)
        guard let first = days.first, let last = days.last else { return [] }
        guard let length = calendar.cycleLength, !lesson.weeks.isEmpty else {
            // Every week: one weekly series, as long as no week is missing.
            if days.count == (first.days(until: last) / 7) + 1 {
                return [Event(lesson: lesson, first: first, repeating: (1, last), uid: "\(uidBase)@\(host)")]
            }
            return days.map { Event(lesson: lesson, first: $0, repeating: nil, uid: "\(uidBase)-\($0.iso)@\(host)") }
        }
        // Series of days that are exactly `length` weeks apart.
        var series: [[LocalDate]] = []
        var open: [Int: Int] = [:]  // day number of the next expected day → series index
        for day in days {
            if let index = open.removeValue(forKey: day.dayNumber) {
                series[index].append(day)
                open[day.dayNumber + 7 * length] = index
            } else {
                series.append([day])
                open[day.dayNumber + 7 * length] = series.count - 1
            }
        }
        return series.map { days in
            let week = calendar.week(of: days[0]) ?? 0
            let uid = "\(uidBase)-w\(week)-\(days[0].iso)@\(host)"
            return days.count == 1
                ? Event(lesson: lesson, first: days[0], repeating: nil, uid: uid)
                : Event(lesson: lesson, first: days[0], repeating: (length, days[days.count - 1]), uid: uid)
        }
    }

    /// A VTIMEZONE with every offset change of the zone in the span (a zone without changes has
    /// one STANDARD observance).
    func timeZoneComponent(from first: LocalDate, to last: LocalDate) -> [String] {
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(timeZone.identifier)"]
        let start = first.start(in: timeZone)
        let end = last.adding(days: 1).start(in: timeZone)
        // The offset in force at the start, observed from long before.
        var offset = timeZone.secondsFromGMT(for: start)
        var transitions: [(Date, Int, Int)] = []
        var moment = start
        while let next = timeZone.nextDaylightSavingTimeTransition(after: moment), next < end {
            let newOffset = timeZone.secondsFromGMT(for: next)
            transitions.append((next, offset, newOffset))
            offset = newOffset
            moment = next
        }
        let initial = transitions.first?.1 ?? timeZone.secondsFromGMT(for: start)
        lines += [
            timeZone.isDaylightSavingTime(for: start) ? "BEGIN:DAYLIGHT" : "BEGIN:STANDARD",
            "DTSTART:19700101T000000",
            "TZOFFSETFROM:\(Self.offset(initial))", "TZOFFSETTO:\(Self.offset(initial))",
            "TZNAME:\(timeZone.abbreviation(for: start) ?? timeZone.identifier)",
            timeZone.isDaylightSavingTime(for: start) ? "END:DAYLIGHT" : "END:STANDARD",
        ]
        for (date, from, to) in transitions {
            let daylight = timeZone.isDaylightSavingTime(for: date)
            // DTSTART of an observance is the local time, in the offset before it, when it begins.
            let begins = Self.utc(date.addingTimeInterval(TimeInterval(from))).dropLast()
            lines += [
                daylight ? "BEGIN:DAYLIGHT" : "BEGIN:STANDARD",
                "DTSTART:\(begins)",
                "TZOFFSETFROM:\(Self.offset(from))", "TZOFFSETTO:\(Self.offset(to))",
                "TZNAME:\(timeZone.abbreviation(for: date) ?? timeZone.identifier)",
                daylight ? "END:DAYLIGHT" : "END:STANDARD",
            ]
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let value = abs(seconds)
        return sign + padded(value / 3600, 2) + padded((value % 3600) / 60, 2)
    }

    static func local(_ date: LocalDate, _ time: WallTime) -> String {
        padded(date.year, 4) + padded(date.month, 2) + padded(date.day, 2) + "T" + padded(time.hour, 2)
            + padded(time.minute, 2) + "00"
    }

    static func local(_ moment: LocalDateTime) -> String {
        let date = moment.date
        return padded(date.year, 4) + padded(date.month, 2) + padded(date.day, 2) + "T" + padded(moment.minutes / 60, 2)
            + padded(moment.minutes % 60, 2) + "00"
    }

    static func utc(_ moment: Date) -> String {
        let (day, second) = LocalDate.localSeconds(moment, in: .gmt)
        let date = LocalDate(dayNumber: day)
        return padded(date.year, 4) + padded(date.month, 2) + padded(date.day, 2) + "T" + padded(second / 3600, 2)
            + padded(second % 3600 / 60, 2) + padded(second % 60, 2) + "Z"
    }

    /// TEXT escaping (RFC 5545 3.3.11).
    func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            case "\r": break
            default: result.append(character)
            }
        }
        return result
    }

    /// Folds a content line at 75 octets without splitting a UTF-8 character (RFC 5545 3.1).
    static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var result = ""
        var width = 0
        var limit = 75
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if width + size > limit {
                result += "\r\n "
                width = 1
                limit = 75
            }
            result.unicodeScalars.append(scalar)
            width += size
        }
        return result
    }
}
