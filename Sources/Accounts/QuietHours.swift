import Foundation

/// Hours of the day when no push and no mail reach a user (the inbox still fills), in the user's
/// time zone: from `start` to `end`, minutes after midnight; a span that passes midnight (22:00 to
/// 07:00) is the usual case. Equal ends mean none.
public struct QuietHours: Sendable, Equatable, Codable {
    public var start: Int
    public var end: Int

    public static let minutesInDay = 24 * 60

    public init?(start: Int, end: Int) {
        guard (0..<Self.minutesInDay).contains(start), (0..<Self.minutesInDay).contains(end), start != end else {
            return nil
        }
        self.start = start
        self.end = end
    }

    /// Whether a minute of the day is quiet.
    public func contains(minute: Int) -> Bool {
        start < end ? (start..<end).contains(minute) : (minute >= start || minute < end)
    }

    /// When a message due at `moment` may go out: `moment` itself outside quiet hours, else the
    /// end of the quiet hours it falls in (the next day's, when they pass midnight), by `calendar`
    /// in its time zone.
    public func release(_ moment: Date, calendar: Calendar) -> Date {
        let parts = calendar.dateComponents([.hour, .minute], from: moment)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        guard contains(minute: minute) else { return moment }
        let startOfDay = calendar.startOfDay(for: moment)
        let endToday =
            calendar.date(byAdding: .minute, value: end, to: startOfDay, wrappingComponents: false) ?? moment
        if endToday > moment { return endToday }
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: startOfDay) ?? moment
        return calendar.date(byAdding: .minute, value: end, to: tomorrow, wrappingComponents: false) ?? moment
    }
}

extension NotificationPreferences {
    /// The time of day a mail digest goes out: when quiet hours end, else 07:00.
    public var digestMinute: Int { quietHours?.end ?? 7 * 60 }

    /// When a push or mail due at `moment` may go out (after quiet hours), by `calendar` in the
    /// user's time zone.
    public func release(_ moment: Date, calendar: Calendar) -> Date {
        quietHours?.release(moment, calendar: calendar) ?? moment
    }

    /// When the digest that a mail due at `moment` joins goes out: the next ``digestMinute``
    /// after it; nil when the user takes mail at once.
    public func digest(after moment: Date, calendar: Calendar) -> Date? {
        guard emailDigest else { return nil }
        let startOfDay = calendar.startOfDay(for: moment)
        let today = calendar.date(byAdding: .minute, value: digestMinute, to: startOfDay) ?? moment
        if today > moment { return today }
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: startOfDay) ?? moment
        return calendar.date(byAdding: .minute, value: digestMinute, to: tomorrow) ?? moment
    }
}
