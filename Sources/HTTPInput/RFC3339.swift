import Foundation
import InputRules

/// Dates in JSON as RFC 3339 `date-time`: written in whole seconds in UTC, read with or without
/// fractional seconds and with any offset, as the format allows, in ``DateRules/years``.
public enum RFC3339 {
    /// The moment `text` names, if it is an RFC 3339 date-time in the years Campus reads.
    public static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        let date =
            (try? Date(text, strategy: Date.ISO8601FormatStyle()))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        guard let date, DateRules.isSupported(date) else { return nil }
        return date
    }

    /// `2026-11-22T09:00:00Z`.
    public static func text(_ date: Date) -> String { date.formatted(.iso8601) }
}
