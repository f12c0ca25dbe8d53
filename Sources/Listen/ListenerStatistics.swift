import Foundation

/// A station's listener statistics (issue 42), worked out from its listening sessions: per day
/// (in the institution's calendar) and per show, the unique listeners, the most at once, the
/// sessions and the hours listened. Pure: the sessions, the days and the calendar are given.
public enum ListenerStatistics {
    /// One listener's time with a station: who (a key that tells listeners apart without saying
    /// who they are), from when to when, and the show that was on when they came.
    public struct Session: Sendable, Equatable {
        public var listener: String
        public var start: Date
        public var end: Date
        public var showID: Int64?

        public init(listener: String, start: Date, end: Date, showID: Int64? = nil) {
            self.listener = listener
            self.start = start
            self.end = max(start, end)
            self.showID = showID
        }
    }

    /// The figures of a stretch of time.
    public struct Figures: Sendable, Equatable {
        public var uniqueListeners: Int
        public var peakListeners: Int
        public var sessions: Int
        /// Hours listened within the stretch (sessions cut at its edges).
        public var hours: Double

        public static let zero = Figures(uniqueListeners: 0, peakListeners: 0, sessions: 0, hours: 0)
    }

    /// The figures of the sessions within `start ..< end`.
    public static func figures(_ sessions: [Session], from start: Date, to end: Date) -> Figures {
        let within = sessions.filter { $0.start < end && ($0.end > start || $0.start >= start) }
        var seconds = 0.0
        for session in within {
            seconds += max(0, min(session.end, end).timeIntervalSince(max(session.start, start)))
        }
        return Figures(
            uniqueListeners: Set(within.map(\.listener)).count, peakListeners: peak(within), sessions: within.count,
            hours: seconds / 3600)
    }

    /// The most sessions at one moment: a sweep over their starts and ends (an end before a start
    /// at the same moment: a listener who reconnects is not two).
    public static func peak(_ sessions: [Session]) -> Int {
        var events: [(Date, Int)] = []
        for session in sessions {
            events.append((session.start, 1))
            events.append((session.end, -1))
        }
        events.sort { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
        var current = 0
        var most = 0
        for (_, change) in events {
            current += change
            most = max(most, current)
        }
        // A session that starts and ends at the same moment still was one listener at once.
        return max(most, sessions.isEmpty ? 0 : 1)
    }

    /// Each day's figures, the `days` days up to and including the day of `now`, oldest first.
    public static func days(
        _ sessions: [Session], days: Int, until now: Date, calendar: Calendar
    ) -> [(day: Date, figures: Figures)] {
        let today = calendar.startOfDay(for: now)
        return (0..<max(1, days)).reversed().compactMap { back in
            guard let day = calendar.date(byAdding: .day, value: -back, to: today),
                let next = calendar.date(byAdding: .day, value: 1, to: day)
            else { return nil }
            return (day, figures(sessions, from: day, to: next))
        }
    }

    /// Each show's figures over its sessions (those that came while it was on).
    public static func shows(_ sessions: [Session]) -> [Int64: Figures] {
        let byShow = Dictionary(grouping: sessions.filter { $0.showID != nil }) { $0.showID ?? 0 }
        return byShow.mapValues { group in
            figures(
                group, from: group.map(\.start).min() ?? .distantPast,
                to: (group.map(\.end).max() ?? .distantPast).addingTimeInterval(1))
        }
    }
}
