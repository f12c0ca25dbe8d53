import Foundation
import InputRules

/// Dates in JSON as RFC 3339 `date-time`: written in whole seconds in UTC, read with or without
/// fractional seconds and with any offset, as the format allows, when the day they fall on in the
/// institution's time zone is in ``DateRules/years`` (``DateRules/isSupported(_:in:)``).
public enum RFC3339 {
    /// Why a text is not a moment Campus reads.
    public enum ReadProblem: Error, Sendable, Equatable {
        /// Not an RFC 3339 date-time.
        case malformed
        /// A date-time whose day in the institution's time zone is outside ``DateRules/years``
        /// (`2200-12-31T23:59:59-14:00` is 2201-01-01 in Minsk).
        case outOfRange
    }

    /// The moment `text` names, telling a text that is not an RFC 3339 date-time from one whose
    /// day in `timeZone` (the institution's; UTC only where none is known: fuzzers and tests) is
    /// outside the years Campus reads.
    public static func read(_ text: String, in timeZone: TimeZone = .gmt) -> Result<Date, ReadProblem> {
        guard text.utf8.count <= 64, isWellFormed(text) else { return .failure(.malformed) }
        // RFC 3339 allows a lower-case `t` and `z`; Foundation reads only capitals.
        let text = text.uppercased()
        let date =
            (try? Date(text, strategy: Date.ISO8601FormatStyle()))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        guard let date else { return .failure(.malformed) }
        return DateRules.isSupported(date, in: timeZone) ? .success(date) : .failure(.outOfRange)
    }

    /// The moment `text` names, if it is an RFC 3339 date-time whose day in `timeZone` is in the
    /// years Campus reads.
    public static func date(_ text: String, in timeZone: TimeZone = .gmt) -> Date? {
        try? read(text, in: timeZone).get()
    }

    /// Whether `text` has the shape of RFC 3339's `date-time` (section 5.6), all of it:
    /// Foundation's ISO 8601 parser reads a date from the start of a text and ignores what
    /// follows (`2026-11-22T09:00:00Z*` would be a date), so the shape is checked first.
    static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && range.allSatisfy { (0x30...0x39).contains(bytes[$0]) }
        }
        func byte(_ index: Int, _ allowed: String) -> Bool {
            index < bytes.count && allowed.utf8.contains(bytes[index])
        }
        guard digits(0..<4), byte(4, "-"), digits(5..<7), byte(7, "-"), digits(8..<10), byte(10, "Tt"),
            digits(11..<13), byte(13, ":"), digits(14..<16), byte(16, ":"), digits(17..<19)
        else { return false }
        // And every part within its range (section 5.7): Foundation would roll 12:99 over into
        // the next hour and February 30 into March.
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) } }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...days[month - 1]).contains(day), number(11..<13) <= 23,
            number(14..<16) <= 59, number(17..<19) <= 60
        else { return false }
        var index = 19
        if byte(index, ".") {
            index += 1
            let start = index
            while digits(index..<index + 1) { index += 1 }
            guard index > start else { return false }
        }
        if byte(index, "Zz") { return index + 1 == bytes.count }
        return byte(index, "+-") && digits(index + 1..<index + 3) && byte(index + 3, ":")
            && digits(index + 4..<index + 6) && index + 6 == bytes.count && number(index + 1..<index + 3) <= 23
            && number(index + 4..<index + 6) <= 59
    }

    /// `2026-11-22T09:00:00Z`.
    public static func text(_ date: Date) -> String { date.formatted(.iso8601) }
}
