import Foundation

/// The dates Campus reads from anywhere (the API, forms, imports, feeds, files' tags, GPX tracks,
/// the command line): years 1900 to 2200. A date outside them is refused where it is read, with
/// words that say so; dates worked out from accepted ones (a year before, a year after) stay well
/// inside what the Gregorian calendar of Foundation computes with.
public enum DateRules {
    public static let years = 1900...2200

    /// The first and last day, for messages: `{firstDay}` and `{lastDay}` (``rangeValues``).
    public static let firstDay = "1900-01-01"
    public static let lastDay = "2200-12-31"

    /// The values of a message's `{firstDay}` and `{lastDay}` placeholders.
    public static let rangeValues = ["firstDay": firstDay, "lastDay": lastDay]

    /// The first and last day in English, for the command line and logs: "1900-01-01 to 2200-12-31".
    public static let rangeText = "\(firstDay) to \(lastDay)"

    /// Whether a moment falls in ``years`` on the clocks of some time zone: from 1899-12-31T10:00Z
    /// (1900-01-01 00:00 at UTC+14) to 2201-01-01T12:00Z (2200-12-31 24:00 at UTC−12).
    public static func isSupported(_ moment: Date) -> Bool {
        (-2_209_039_200.0..<7_289_697_600.0).contains(moment.timeIntervalSince1970)
    }
}
