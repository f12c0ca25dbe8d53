/// How an institution numbers its study weeks. Lessons that repeat name the weeks of the cycle
/// they happen in ("weeks 1 and 3").
public enum StudyCalendar: Sendable, Hashable {
    /// A cycle of `length` weeks. Each week starts on Monday; week 1 is the week that holds
    /// `start`, and the count goes on 1, 2, …, length, 1, … across New Year.
    case cycle(length: Int, start: CycleStart)
    /// Every lesson has its own date (seed 003): there are no study weeks.
    case datedOnly

    public enum CycleStart: Sendable, Hashable {
        /// 1 September of each academic year (BSUIR). The academic year of a date begins on the
        /// Monday of the week that holds 1 September.
        case firstOfSeptember
        /// A fixed term start (seed 004's odd and even weeks).
        case date(LocalDate)
    }

    /// BSUIR: a 4-week cycle from the week of 1 September.
    public static let bsuir = StudyCalendar.cycle(length: 4, start: .firstOfSeptember)

    /// Odd and even weeks counted from a term start: week 1 is odd, week 2 even.
    public static func oddEven(termStart: LocalDate) -> StudyCalendar {
        .cycle(length: 2, start: .date(termStart))
    }

    /// The calendar a setting names: "bsuir", "odd-even YYYY-MM-DD" (the term start) or "dated".
    public init?(setting text: String) {
        let parts = text.split(separator: " ")
        switch parts.first {
        case "bsuir": self = .bsuir
        case "dated": self = .datedOnly
        case "odd-even":
            guard parts.count == 2, let start = LocalDate(iso: parts[1]) else { return nil }
            self = .oddEven(termStart: start)
        default: return nil
        }
    }

    /// The number of weeks in the cycle (nil for dated-only calendars).
    public var cycleLength: Int? {
        if case .cycle(let length, _) = self { return length }
        return nil
    }

    /// The study week of a date, 1…cycle length; nil for a dated-only calendar.
    public func week(of date: LocalDate) -> Int? {
        guard case .cycle(let length, let start) = self, length > 0 else { return nil }
        let firstMonday: LocalDate
        switch start {
        case .date(let termStart):
            firstMonday = termStart.monday
        case .firstOfSeptember:
            guard let thisYear = Self.academicYearStart(date.year),
                let lastYear = Self.academicYearStart(date.year - 1)
            else { return nil }
            firstMonday = date >= thisYear ? thisYear : lastYear
        }
        // Whole weeks since the first Monday, rounded toward minus infinity, so that dates before
        // a term start still get the week the cycle gives them.
        let days = firstMonday.days(until: date)
        let weeks = days >= 0 ? days / 7 : -((-days + 6) / 7)
        return ((weeks % length) + length) % length + 1
    }

    /// The Monday of the week that holds 1 September of `year`, where the academic year begins;
    /// nil for a year the calendar cannot name.
    public static func academicYearStart(_ year: Int) -> LocalDate? {
        LocalDate(year: year, month: 9, day: 1)?.monday
    }

    /// The week of the academic year a date is in, counted from the week of 1 September (1 is
    /// that week): what a dated-only calendar, which has no cycle, shows as the week's number.
    public static func academicWeek(of date: LocalDate) -> Int? {
        guard let start = academicYearStart(academicYear(of: date)) else { return nil }
        return start.days(until: date) / 7 + 1
    }

    /// The academic year a date is in: the year of the 1 September it follows.
    public static func academicYear(of date: LocalDate) -> Int {
        guard let start = academicYearStart(date.year) else { return date.year }
        return date >= start ? date.year : date.year - 1
    }

    /// A name for a week: "odd" and "even" in a two-week cycle, else its number.
    public func weekName(_ week: Int) -> String {
        if cycleLength == 2 { return week == 1 ? "odd" : "even" }
        return "week \(week)"
    }
}
