import Foundation

/// A calendar day without a time or a time zone, such as a lesson's date.
///
/// The day is kept as its number of days since 1970-01-01, so that stepping by days and
/// counting days between two dates is exact integer arithmetic; year, month and day come from
/// Foundation's Gregorian calendar when the value is made.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int
    public let year: Int
    public let month: Int
    public let day: Int

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The date with these parts; nil when there is no such day (31 February).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let key = (year * 100 + month) * 100 + day
        let dayNumber: Int
        if let known = Self.known.number(for: key) {
            dayNumber = known
        } else {
            guard let date = Self.calendar.date(from: DateComponents(year: year, month: month, day: day)),
                Self.calendar.component(.day, from: date) == day
            else { return nil }
            dayNumber = Int((date.timeIntervalSince1970 / 86400).rounded(.down))
            Self.known.remember(dayNumber, for: key)
        }
        self.year = year
        self.month = month
        self.day = day
        self.dayNumber = dayNumber
    }

    /// Day numbers of dates already worked out: imports read the same few dates thousands of
    /// times, and the calendar is the slow part.
    private static let known = KnownDays()

    public init(dayNumber: Int) {
        let parts = Self.calendar.dateComponents(
            [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(dayNumber) * 86400))
        self.dayNumber = dayNumber
        self.year = parts.year!
        self.month = parts.month!
        self.day = parts.day!
    }

    /// The day a moment falls on in a time zone.
    public init(_ moment: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: moment)
        self.init(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// Reads `YYYY-MM-DD` (ISO 8601, as the API writes dates).
    public init?(iso text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Reads `dd.MM.yyyy`, as BSUIR's IIS and seed 003 write dates.
    public init?(dotted text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4,
            let day = Int(parts[0]), let month = Int(parts[1]), let year = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var iso: String { "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))" }

    /// `dd.MM.yyyy`.
    public var dotted: String { "\(padded(day, 2)).\(padded(month, 2)).\(padded(year, 4))" }

    public var description: String { iso }

    /// Monday is 1, Sunday 7 (ISO 8601). 1970-01-01 was a Thursday.
    public var weekday: Weekday {
        Weekday(rawValue: ((dayNumber + 3) % 7 + 7) % 7 + 1)!
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    public func days(until other: LocalDate) -> Int { other.dayNumber - dayNumber }

    /// The Monday of this date's week.
    public var monday: LocalDate { adding(days: 1 - weekday.rawValue) }

    /// The moment this day starts in a time zone.
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public static func == (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber == rhs.dayNumber }

    public func hash(into hasher: inout Hasher) { hasher.combine(dayNumber) }
}

/// A day of the week, Monday first (ISO 8601).
public enum Weekday: Int, Sendable, CaseIterable, Comparable, Codable {
    case monday = 1
    case tuesday, wednesday, thursday, friday, saturday, sunday

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The weekday of a Russian day name as IIS writes them ("Понедельник" … "Воскресенье"),
    /// in any letter case.
    public init?(russian name: String) {
        let names = ["понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье"]
        guard let index = names.firstIndex(of: name.lowercased().trimmingCharacters(in: .whitespaces)) else {
            return nil
        }
        self.init(rawValue: index + 1)
    }

    public var englishName: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue - 1]
    }

    public var shortEnglishName: String { String(englishName.prefix(3)) }
}

/// A wall-clock time of day at any minute, such as 11:40, in the institution's time zone.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes after midnight, 0–1439.
    public let minutes: Int

    public init?(minutes: Int) {
        guard (0..<1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.minutes = hour * 60 + minute
    }

    /// Reads `HH:mm` (also `H:mm`).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    /// `HH:mm`.
    public var description: String { "\(padded(hour, 2)):\(padded(minute, 2))" }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.minutes < rhs.minutes }
}

/// A moment as the institution's clocks and calendars show it.
public struct LocalDateTime: Hashable, Comparable, Sendable {
    public var date: LocalDate
    /// Minutes after midnight.
    public var minutes: Int

    public init(date: LocalDate, minutes: Int) {
        self.date = date
        self.minutes = minutes
    }

    public init(_ moment: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: moment)
        self.date = LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
        self.minutes = parts.hour! * 60 + parts.minute!
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.minutes) < (rhs.date, rhs.minutes)
    }

    /// The moment this is in a time zone (the earlier one when clocks go back).
    public func moment(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(
            from: DateComponents(
                year: date.year, month: date.month, day: date.day, hour: minutes / 60, minute: minutes % 60))!
    }
}

/// A number with leading zeros to `width` digits (cheaper than `String(format:)`, which these
/// dates and times are written with on every schedule answer).
func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// A lock-protected memo of valid dates (yyyymmdd → day number).
final class KnownDays: @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: [Int: Int] = [:]

    func number(for key: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return numbers[key]
    }

    func remember(_ number: Int, for key: Int) {
        lock.lock()
        defer { lock.unlock() }
        if numbers.count > 100_000 { numbers.removeAll() }
        numbers[key] = number
    }
}
