import Foundation

/// The dates Campus reads from anywhere (the API, forms, imports, feeds, files' tags, GPX tracks,
/// the command line): years 1900 to 2200. A date outside them is refused where it is read, with
/// words that say so; dates worked out from accepted ones (a year before, a year after) stay well
/// inside what the Gregorian calendar of Foundation computes with.
public enum DateRules {
    public static let years = 1900...2200

    /// The first and last day, for messages.
    public static let rangeText = "1900-01-01 to 2200-12-31"

    /// Whether a moment falls in ``years`` (in UTC).
    public static func isSupported(_ moment: Date) -> Bool {
        // 1900-01-01T00:00:00Z and 2201-01-01T00:00:00Z in seconds since 1970.
        (-2_208_988_800.0..<7_289_654_400.0).contains(moment.timeIntervalSince1970)
    }
}
