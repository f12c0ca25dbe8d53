import Accounts
import Foundation

/// When a user's push and mail go out, by their preferences in their time zone (else the
/// institution's).
struct NotificationTiming: Sendable {
    let preferences: NotificationPreferences
    let calendar: Calendar

    init(preferences: NotificationPreferences, institution: TimeZone) {
        self.preferences = preferences
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = preferences.timeZone.flatMap(TimeZone.init(identifier:)) ?? institution
        self.calendar = calendar
    }

    func release(_ moment: Date) -> Date { preferences.release(moment, calendar: calendar) }

    func digest(_ moment: Date) -> Date? { preferences.digest(after: moment, calendar: calendar) }
}
