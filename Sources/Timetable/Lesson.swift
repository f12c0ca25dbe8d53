/// A room, teacher or group as a lesson names it.
public struct RoomReference: Sendable, Hashable {
    public var id: Int64
    public var name: String
    /// Where the room is (``Room/point``), when known.
    public var point: MapPoint?

    public init(id: Int64, name: String, point: MapPoint? = nil) {
        self.id = id
        self.name = name
        self.point = point
    }
}

public struct TeacherReference: Sendable, Hashable {
    public var urlID: String
    /// "Киринович И. Ф.".
    public var name: String

    public init(urlID: String, name: String) {
        self.urlID = urlID
        self.name = name
    }
}

/// A lesson: a subject taught at a time, either every matching week on a weekday within a date
/// range, or once on a single date (exams, one-off lessons).
public struct Lesson: Sendable, Hashable, Identifiable {
    public var id: Int64
    /// The short subject name ("СПО").
    public var subject: String
    /// The full subject name ("Системное программное обеспечение").
    public var subjectFullName: String?
    /// The lesson type's id ("ЛК").
    public var typeID: String?
    public var start: WallTime
    public var end: WallTime
    /// The weekday of a repeating lesson.
    public var weekday: Weekday?
    /// The study weeks of the cycle the lesson repeats in; empty means every week.
    public var weeks: Set<Int>
    /// 0 is the whole group.
    public var subgroup: Int
    /// The first and last day a repeating lesson can happen.
    public var dateRange: ClosedRange<LocalDate>?
    /// The one date of a dated lesson.
    public var date: LocalDate?
    public var rooms: [RoomReference]
    public var teachers: [TeacherReference]
    public var groups: [String]
    public var note: String?
    /// An announcement (IIS): shown on its days without a subject of its own.
    public var isAnnouncement: Bool
    /// An exam or consultation of the exam session.
    public var isExam: Bool

    public init(
        id: Int64 = 0, subject: String, subjectFullName: String? = nil, typeID: String? = nil, start: WallTime,
        end: WallTime, weekday: Weekday? = nil, weeks: Set<Int> = [], subgroup: Int = 0,
        dateRange: ClosedRange<LocalDate>? = nil, date: LocalDate? = nil, rooms: [RoomReference] = [],
        teachers: [TeacherReference] = [], groups: [String] = [], note: String? = nil, isAnnouncement: Bool = false,
        isExam: Bool = false
    ) {
        self.id = id
        self.subject = subject
        self.subjectFullName = subjectFullName
        self.typeID = typeID
        self.start = start
        self.end = end
        self.weekday = weekday
        self.weeks = weeks
        self.subgroup = subgroup
        self.dateRange = dateRange
        self.date = date
        self.rooms = rooms
        self.teachers = teachers
        self.groups = groups
        self.note = note
        self.isAnnouncement = isAnnouncement
        self.isExam = isExam
    }

    /// Whether the lesson takes place on `day`: on its single date; or on its weekday, within its
    /// date range, in one of its study weeks.
    public func occurs(on day: LocalDate, calendar: StudyCalendar) -> Bool {
        if let date { return date == day }
        guard let weekday, day.weekday == weekday else { return false }
        if let dateRange, !dateRange.contains(day) { return false }
        if weeks.isEmpty { return true }
        guard let week = calendar.week(of: day) else { return false }
        return weeks.contains(week)
    }

    /// The days in `range` the lesson takes place on, in order.
    public func days(in range: ClosedRange<LocalDate>, calendar: StudyCalendar) -> [LocalDate] {
        if let date { return range.contains(date) ? [date] : [] }
        guard let weekday else { return [] }
        var first = range.lowerBound
        var last = range.upperBound
        if let dateRange {
            first = max(first, dateRange.lowerBound)
            last = min(last, dateRange.upperBound)
        }
        guard first <= last else { return [] }
        let offset = (weekday.rawValue - first.weekday.rawValue + 7) % 7
        var days: [LocalDate] = []
        var day = first.dayNumber + offset
        while day <= last.dayNumber {
            let candidate = LocalDate(dayNumber: day)
            if weeks.isEmpty || calendar.week(of: candidate).map(weeks.contains) == true {
                days.append(candidate)
            }
            day += 7
        }
        return days
    }
}

/// One lesson on one day.
public struct Occurrence: Sendable, Hashable {
    public var lesson: Lesson
    public var date: LocalDate

    public init(lesson: Lesson, date: LocalDate) {
        self.lesson = lesson
        self.date = date
    }

    public var start: LocalDateTime { LocalDateTime(date: date, minutes: lesson.start.minutes) }
    public var end: LocalDateTime { LocalDateTime(date: date, minutes: lesson.end.minutes) }
}
