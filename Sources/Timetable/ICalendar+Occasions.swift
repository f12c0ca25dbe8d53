import Foundation

/// Events that are not lessons (a radio station's shows, issue 42): each at a wall-clock time in
/// the institution's zone, once or every week on some days, in the same feed format as the
/// timetable's (a VTIMEZONE, folded lines, escaped text).
extension ICalendar {
    public struct Occasion: Sendable {
        public var uid: String
        public var summary: String
        public var description: String
        /// Its first start.
        public var start: Date
        public var minutes: Int
        /// ISO days (1 Monday … 7 Sunday) it repeats on every week; empty: once.
        public var weekdays: [Int]

        public init(uid: String, summary: String, description: String, start: Date, minutes: Int, weekdays: [Int]) {
            self.uid = uid
            self.summary = summary
            self.description = description
            self.start = start
            self.minutes = minutes
            self.weekdays = weekdays
        }
    }

    static let dayCodes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// A calendar of `occasions`, the weekly ones repeating without end.
    public func render(occasions: [Occasion]) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Campus//Radio//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:\(escape(name))", "X-WR-TIMEZONE:\(timeZone.identifier)",
        ]
        let days = occasions.map { LocalDate($0.start, in: timeZone) }
        if let first = days.min(), let last = days.max() {
            lines += timeZoneComponent(from: first.adding(days: -7), to: last.adding(days: 370))
        }
        let stamp = Self.utc(stamp)
        for occasion in occasions {
            let start = LocalDateTime(occasion.start, in: timeZone)
            let end = LocalDateTime(
                occasion.start.addingTimeInterval(TimeInterval(occasion.minutes * 60)), in: timeZone)
            lines += [
                "BEGIN:VEVENT", "UID:\(occasion.uid)@\(host)", "DTSTAMP:\(stamp)",
                "DTSTART;TZID=\(timeZone.identifier):\(Self.local(start))",
                "DTEND;TZID=\(timeZone.identifier):\(Self.local(end))",
            ]
            let byDay = occasion.weekdays.sorted().filter { (1...7).contains($0) }.map { Self.dayCodes[$0 - 1] }
            if !byDay.isEmpty { lines.append("RRULE:FREQ=WEEKLY;BYDAY=\(byDay.joined(separator: ","))") }
            lines.append("SUMMARY:\(escape(occasion.summary))")
            if !occasion.description.isEmpty { lines.append("DESCRIPTION:\(escape(occasion.description))") }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(Self.fold).joined(separator: "\r\n") + "\r\n"
    }
}
