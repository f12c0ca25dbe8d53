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
    /// (1900-01-01 00:00 at UTC+14) to 2201-01-01T12:00Z (2200-12-31 24:00 at UTC−12). For the
    /// moments of outside files read where the institution is not known (a GPX track's points, a
    /// feed's or a tag's dates), which Campus does not show as days of the institution.
    public static func isSupported(_ moment: Date) -> Bool {
        (-2_209_039_200.0..<7_289_697_600.0).contains(moment.timeIntervalSince1970)
    }

    /// Whether a moment falls in ``years`` on the institution's clocks (`timeZone`): the rule for
    /// every moment Campus keeps and shows as a day of the institution (the API's date-times, a
    /// task's deadline, a competition's start and end). A moment is the day it is where the
    /// institution is, whatever offset it was written with: `1900-01-01T00:00:00+14:00` is
    /// 1899-12-31 in Minsk, outside, and `2200-12-31T23:59:59-14:00` is 2201-01-01, outside too.
    public static func isSupported(_ moment: Date, in timeZone: TimeZone) -> Bool {
        let seconds = moment.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12 else { return false }
        let local = seconds + Double(timeZone.secondsFromGMT(for: moment))
        // 1900-01-01T00:00 to 2201-01-01T00:00 on the institution's clocks.
        return (-2_208_988_800.0..<7_289_654_400.0).contains(local)
    }
}
