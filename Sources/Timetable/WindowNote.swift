/// What a group's timetable says of a free slot (seed 004's `windowMessage`: "Окно", "Library
/// hour"): shown with the window it falls in.
public struct WindowNote: Sendable, Hashable {
    public var weekday: Weekday
    /// The study weeks of the cycle it is for; empty means every week.
    public var weeks: Set<Int>
    public var start: WallTime
    public var end: WallTime
    public var text: String

    public init(weekday: Weekday, weeks: Set<Int> = [], start: WallTime, end: WallTime, text: String) {
        self.weekday = weekday
        self.weeks = weeks
        self.start = start
        self.end = end
        self.text = text
    }

    /// Whether the note is about `window`: on its weekday, in one of its weeks, at a time inside
    /// the window.
    public func applies(to window: Window, calendar: StudyCalendar) -> Bool {
        guard window.date.weekday == weekday, window.start < end, start < window.end else { return false }
        guard !weeks.isEmpty else { return true }
        return calendar.week(of: window.date).map(weeks.contains) == true
    }

    /// The windows of `groups`' days with the text of the notes about them (the first note's, in
    /// time order, when several are).
    public static func annotate(
        _ windows: [Window], notes: [String: [WindowNote]], groups: [String], calendar: StudyCalendar
    ) -> [Window] {
        let relevant = groups.flatMap { notes[$0] ?? [] }.sorted { $0.start < $1.start }
        guard !relevant.isEmpty else { return windows }
        return windows.map { window in
            var window = window
            window.message = relevant.first { $0.applies(to: window, calendar: calendar) }?.text
            return window
        }
    }
}
