import Foundation
import InputRules

/// Dates in JSON as RFC 3339 `date-time`: written in whole seconds in UTC, read with or without
/// fractional seconds and with any offset, as the format allows, in ``DateRules/years``.
public enum RFC3339 {
    /// The moment `text` names, if it is an RFC 3339 date-time in the years Campus reads.
    public static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 64, isWellFormed(text) else { return nil }
        // RFC 3339 allows a lower-case `t` and `z`; Foundation reads only capitals.
        let text = text.uppercased()
        let date =
            (try? Date(text, strategy: Date.ISO8601FormatStyle()))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        guard let date, DateRules.isSupported(date) else { return nil }
        return date
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
        var index = 19
        if byte(index, ".") {
            index += 1
            let start = index
            while digits(index..<index + 1) { index += 1 }
            guard index > start else { return false }
        }
        if byte(index, "Zz") { return index + 1 == bytes.count }
        return byte(index, "+-") && digits(index + 1..<index + 3) && byte(index + 3, ":")
            && digits(index + 4..<index + 6) && index + 6 == bytes.count
    }

    /// `2026-11-22T09:00:00Z`.
    public static func text(_ date: Date) -> String { date.formatted(.iso8601) }
}
