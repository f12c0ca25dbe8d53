import Foundation

/// A show of a station's schedule (issue 42): its hosts may broadcast as DJs with their own
/// source credentials only while it is on (with a grace period either side), and what they
/// broadcast becomes an episode of its programme. Weekly on some days at set times (a block that
/// may run over midnight), or once. Pure: the time and the calendar (the institution's zone) are
/// given.
public struct RadioShow: Sendable, Equatable {
    public enum When: Sendable, Equatable {
        /// Every week, on the block's days and times.
        case weekly(TimeBlock)
        /// Once, from the start to the end.
        case once(start: Date, end: Date)
    }

    public var id: Int64
    public var stationID: Int64
    public var title: String
    public var description: String
    /// The accounts that host it: its DJs.
    public var hostIDs: [Int64]
    public var when: When
    /// The programme its broadcasts are recorded into, as episodes; nil: not recorded.
    public var programmeID: Int64?

    public init(
        id: Int64, stationID: Int64, title: String, description: String = "", hostIDs: [Int64], when: When,
        programmeID: Int64? = nil
    ) {
        self.id = id
        self.stationID = stationID
        self.title = title
        self.description = description
        self.hostIDs = hostIDs
        self.when = when
        self.programmeID = programmeID
    }

    /// How long before its start and after its end a show's DJ may be on the air (getting ready,
    /// a last song, a dropped connection).
    public static let grace: TimeInterval = 5 * 60
    public static let titleLength = 200
    public static let descriptionLength = 2000
    public static let hostLimit = 20
    /// Shows of one station.
    public static let stationLimit = 200
    /// The longest one-off show.
    public static let longest: TimeInterval = 24 * 3600

    /// Whether the show is on at `date`.
    public func isOn(_ date: Date, calendar: Calendar) -> Bool {
        switch when {
        case .weekly(let block): block.contains(date, calendar: calendar)
        case .once(let start, let end): date >= start && date < end
        }
    }

    /// Whether its DJs may broadcast at `date`: while it is on, or within `grace` of it.
    public func admits(_ date: Date, calendar: Calendar, grace: TimeInterval = RadioShow.grace) -> Bool {
        isOn(date, calendar: calendar) || isOn(date.addingTimeInterval(grace), calendar: calendar)
            || isOn(date.addingTimeInterval(-grace), calendar: calendar)
    }

    /// Where a weekly show starts on the first of its days on or after `date` (the start of its
    /// series in a calendar feed), and how many minutes it lasts; for a one-off, its start.
    public func firstStart(onOrAfter date: Date, calendar: Calendar) -> Date? {
        switch when {
        case .once(let start, _): return start
        case .weekly(let block):
            let day = calendar.startOfDay(for: date)
            for offset in 0..<8 {
                guard let candidate = calendar.date(byAdding: .day, value: offset, to: day) else { continue }
                let weekday = (calendar.component(.weekday, from: candidate) + 5) % 7 + 1
                if block.weekdays.contains(weekday) {
                    return calendar.date(byAdding: .minute, value: block.from, to: candidate)
                }
            }
            return nil
        }
    }

    /// How long one airing lasts, in minutes.
    public var minutes: Int {
        switch when {
        case .weekly(let block): block.to > block.from ? block.to - block.from : block.to + 1440 - block.from
        case .once(let start, let end): Int(end.timeIntervalSince(start) / 60)
        }
    }

    /// The user name a host's own source credentials have (`dj-42`): Icecast's clients send one.
    public static func djUser(_ userID: Int64) -> String { "dj-\(userID)" }

    /// The account of a DJ's user name; nil for any other (`source`, the station's own).
    public static func djAccount(user: String) -> Int64? {
        guard user.hasPrefix("dj-"), let id = Int64(user.dropFirst(3)), id > 0 else { return nil }
        return id
    }
}
