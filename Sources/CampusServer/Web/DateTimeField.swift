import Foundation
import Timetable

/// A form's `datetime-local` field: a wall-clock date and time in the institution's time zone,
/// which the browser shows and sends as `2026-11-23T09:00`.
enum DateTimeField {
    /// A moment as the field shows it; nil for none.
    static func value(_ date: Date?, in zone: TimeZone) -> String? {
        guard let date else { return nil }
        let local = LocalDateTime(date, in: zone)
        return "\(local.date.iso)T\(WallTime(minutes: local.minutes)?.description ?? "00:00")"
    }

    /// A moment for reading (`2026-11-23 09:00`); nil for none.
    static func text(_ date: Date?, in zone: TimeZone) -> String? {
        value(date, in: zone)?.replacingOccurrences(of: "T", with: " ")
    }

    /// What the field sent: `.some(nil)` when empty, nil when it is not a date and time Campus
    /// reads.
    static func read(_ text: String?, in zone: TimeZone) -> Date?? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .some(nil) }
        guard case .success(let local) = LocalDateTime.read(local: text) else { return nil }
        return .some(local.moment(in: zone))
    }
}
