import Foundation
import InputRules

/// A calendar day without a time or a time zone, such as a lesson's date.
///
/// The day is kept as its number of days since 1970-01-01, so that stepping by days and
/// counting days between two dates is exact integer arithmetic.
///
/// Year, month and day and the day number are worked out from each other by the proleptic
/// Gregorian calendar's integer formulas (H. Hinnant, "chrono-Compatible Low-Level Date
/// Algorithms", `days_from_civil` and `civil_from_days`) from 1600 on, where Foundation's
/// Gregorian calendar (Julian before October 1582) agrees with them, as a test checks day by
/// day; earlier days ask Foundation. The formulas because a fresh schedule steps through days:
/// Foundation's `dateComponents` for each was a tenth of its time (docs/BENCHMARKS.md).
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int
    public let year: Int
    public let month: Int
    public let day: Int

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// The first day the formulas are used for: 1600-01-01.
    static let firstFormulaDay = -135_140

    /// The date with these parts; nil when there is no such day (31 February) or the year is
    /// outside 1…9999, where the Gregorian calendar works.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let dayNumber: Int
        if year >= 1600 {
            dayNumber = Self.dayNumber(year: year, month: month, day: day)
            // 31 April runs on to 1 May.
            guard Self.civil(dayNumber).day == day else { return nil }
        } else {
            guard let date = Self.calendar.date(from: DateComponents(year: year, month: month, day: day)),
                Self.calendar.component(.day, from: date) == day
            else { return nil }
            dayNumber = Int((date.timeIntervalSince1970 / 86400).rounded(.down))
        }
        self.year = year
        self.month = month
        self.day = day
        self.dayNumber = dayNumber
    }

    public init(dayNumber: Int) {
        self.dayNumber = dayNumber
        if dayNumber >= Self.firstFormulaDay {
            (year, month, day) = Self.civil(dayNumber)
        } else {
            let parts = Self.calendar.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(dayNumber) * 86400))
            self.year = parts.year ?? 1970
            self.month = parts.month ?? 1
            self.day = parts.day ?? 1
        }
    }

    /// `days_from_civil`: the day number of a proleptic Gregorian date (month and day may run over).
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `civil_from_days`: the proleptic Gregorian date of a day number.
    static func civil(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day a moment falls on in a time zone.
    public init(_ moment: Date, in timeZone: TimeZone) {
        self.init(dayNumber: Self.localSeconds(moment, in: timeZone).day)
    }

    /// A moment's day number and second of that day on the clocks of a time zone.
    static func localSeconds(_ moment: Date, in timeZone: TimeZone) -> (day: Int, second: Int) {
        let seconds = moment.timeIntervalSince1970 + TimeInterval(timeZone.secondsFromGMT(for: moment))
        guard seconds.isFinite, abs(seconds) < 1e15 else { return (0, 0) }
        let whole = Int(seconds.rounded(.down))
        let day = whole >= 0 ? whole / 86400 : -((-whole + 86399) / 86400)
        return (day, whole - day * 86400)
    }

    /// Reads `YYYY-MM-DD` (ISO 8601, as the API writes dates), in ``DateRules/years``.
    public init?(iso text: some StringProtocol) {
        guard case .success(let date) = Self.read(iso: text) else { return nil }
        self = date
    }

    /// Reads `dd.MM.yyyy`, as BSUIR's IIS and seed 003 write dates, in ``DateRules/years``.
    public init?(dotted text: some StringProtocol) {
        guard case .success(let date) = Self.read(dotted: text) else { return nil }
        self = date
    }

    /// Why a text is not a date Campus reads.
    public enum ReadProblem: Error, Sendable, Equatable {
        /// Not in the form, or no such day (31 February).
        case malformed
        /// A real day, outside ``DateRules/years``.
        case outOfRange
    }

    /// Reads `YYYY-MM-DD`, telling a malformed text from a date outside ``DateRules/years``.
    public static func read(iso text: some StringProtocol) -> Result<LocalDate, ReadProblem> {
        if let read = text.utf8.withContiguousStorageIfAvailable(readISO) { return read }
        var text = String(text)
        return text.withUTF8(readISO)
    }

    /// `YYYY-MM-DD` from its bytes (every schedule request reads two).
    private static func readISO(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<LocalDate, ReadProblem> {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = asciiNumber(bytes, 0..<4), let month = asciiNumber(bytes, 5..<7),
            let day = asciiNumber(bytes, 8..<10)
        else { return .failure(.malformed) }
        return checked(year: year, month: month, day: day)
    }

    /// Reads `dd.MM.yyyy` from a string's bytes (an IIS import reads tens of thousands).
    public static func read(dotted text: String) -> Result<LocalDate, ReadProblem> {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 10, bytes[2] == UInt8(ascii: "."), bytes[5] == UInt8(ascii: "."),
                let day = asciiNumber(bytes, 0..<2), let month = asciiNumber(bytes, 3..<5),
                let year = asciiNumber(bytes, 6..<10)
            else { return .failure(.malformed) }
            return checked(year: year, month: month, day: day)
        }
    }

    /// Reads `dd.MM.yyyy`, telling a malformed text from a date outside ``DateRules/years``.
    public static func read(dotted text: some StringProtocol) -> Result<LocalDate, ReadProblem> {
        read(dotted: String(text))
    }

    /// What is wrong with the value of `field`, in a sentence that calls it `name` (the field
    /// itself unless given) and names an example of the form.
    public static func fieldProblem(_ problem: ReadProblem, field: String, name: String? = nil, example: String)
        -> FieldProblem
    {
        switch problem {
        case .malformed:
            return FieldProblem(
                field: field, detail: "{field} must be a date like {example}.",
                ["field": name ?? field, "example": example])
        case .outOfRange:
            return FieldProblem(
                field: field, detail: "{field} is outside the dates Campus works with, {firstDay} to {lastDay}.",
                DateRules.rangeValues.merging(["field": name ?? field]) { _, new in new })
        }
    }

    /// Says what is wrong with the value of `field`, a sentence that names an example of the form
    /// (in English: for the command line; a request's problem is ``fieldProblem(_:field:name:example:)``).
    public static func problemText(_ problem: ReadProblem, field: String, example: String) -> String {
        fieldProblem(problem, field: field, example: example).detail
    }

    private static func checked(year: Int, month: Int, day: Int) -> Result<LocalDate, ReadProblem> {
        guard let date = LocalDate(year: year, month: month, day: day) else { return .failure(.malformed) }
        return DateRules.years.contains(year) ? .success(date) : .failure(.outOfRange)
    }

    /// `YYYY-MM-DD`.
    public var iso: String { "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))" }

    /// `dd.MM.yyyy`.
    public var dotted: String { "\(padded(day, 2)).\(padded(month, 2)).\(padded(year, 4))" }

    public var description: String { iso }

    /// Monday is 1, Sunday 7 (ISO 8601). 1970-01-01 was a Thursday.
    public var weekday: Weekday {
        Weekday.allCases[((dayNumber + 3) % 7 + 7) % 7]
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    public func days(until other: LocalDate) -> Int { other.dayNumber - dayNumber }

    /// The Monday of this date's week.
    public var monday: LocalDate { adding(days: 1 - weekday.rawValue) }

    /// The moment this day starts in a time zone.
    public func start(in timeZone: TimeZone) -> Date {
        LocalDateTime(date: self, minutes: 0).moment(in: timeZone)
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

    /// Reads `HH:mm` (also `H:mm`) from a string's bytes (an IIS import reads tens of thousands).
    public init?(_ text: String) {
        var text = text
        let parts = text.withUTF8 { bytes -> (hour: Int, minute: Int)? in
            let colon = bytes.count - 3
            guard colon == 1 || colon == 2, bytes[colon] == UInt8(ascii: ":"),
                let hour = asciiNumber(bytes, 0..<colon), let minute = asciiNumber(bytes, colon + 1..<bytes.count)
            else { return nil }
            return (hour, minute)
        }
        guard let parts else { return nil }
        self.init(hour: parts.hour, minute: parts.minute)
    }

    /// Reads `HH:mm` (also `H:mm`).
    public init?(_ text: some StringProtocol) {
        self.init(String(text))
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
        let (day, second) = LocalDate.localSeconds(moment, in: timeZone)
        self.date = LocalDate(dayNumber: day)
        self.minutes = second / 60
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.minutes) < (rhs.date, rhs.minutes)
    }

    /// Reads `YYYY-MM-DDTHH:mm`, as a `datetime-local` form field sends it (seconds, if given,
    /// are dropped), in ``DateRules/years``.
    public static func read(local text: some StringProtocol) -> Result<LocalDateTime, LocalDate.ReadProblem> {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 5 || parts[1].count == 8 else { return .failure(.malformed) }
        if parts[1].count == 8 {
            let seconds = parts[1].suffix(3)
            guard seconds.first == ":", asciiNumber(seconds.dropFirst()).map({ $0 < 60 }) == true else {
                return .failure(.malformed)
            }
        }
        guard parts[1].prefix(5).count == 5, let time = WallTime(parts[1].prefix(5)) else {
            return .failure(.malformed)
        }
        return LocalDate.read(iso: parts[0]).map { LocalDateTime(date: $0, minutes: time.minutes) }
    }

    /// The moment this is in a time zone (the earlier one when clocks go back).
    public func moment(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = DateComponents(
            year: date.year, month: date.month, day: date.day, hour: minutes / 60, minute: minutes % 60)
        if let moment = calendar.date(from: parts) { return moment }
        // Only for days the calendar cannot name: the wall time read as UTC, moved by the zone.
        let local = Date(timeIntervalSince1970: TimeInterval(date.dayNumber * 86400 + minutes * 60))
        return local.addingTimeInterval(-TimeInterval(timeZone.secondsFromGMT(for: local)))
    }
}

/// A number written in ASCII digits only (`Int("+1")` would take a sign), of at most 9 digits.
func asciiNumber(_ text: some StringProtocol) -> Int? {
    guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(text)
}

/// The number the ASCII digits at `range` of `bytes` write, if they are all digits.
func asciiNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var value = 0
    for index in range {
        let digit = Int(bytes[index]) - 0x30
        guard (0...9).contains(digit) else { return nil }
        value = value * 10 + digit
    }
    return value
}

/// A number with leading zeros to `width` digits (cheaper than `String(format:)`, which these
/// dates and times are written with on every schedule answer).
func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
