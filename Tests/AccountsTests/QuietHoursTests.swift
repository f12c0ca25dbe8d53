import Foundation
import Testing

@testable import Accounts

/// Quiet hours and the mail digest's time, in a user's time zone (issue 39).
@Suite struct QuietHoursTests {
    func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    func date(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    @Test func aSpanPastMidnightHoldsTheNightAndReleasesAtItsEnd() throws {
        let quiet = try #require(QuietHours(start: 22 * 60, end: 7 * 60))
        #expect(quiet.contains(minute: 23 * 60))
        #expect(quiet.contains(minute: 0))
        #expect(quiet.contains(minute: 6 * 60 + 59))
        #expect(!quiet.contains(minute: 7 * 60))
        #expect(!quiet.contains(minute: 12 * 60))
        let kyiv = calendar("Europe/Kyiv")
        // 23:30 in Kyiv (UTC+2 in December) → 07:00 the next morning there.
        #expect(quiet.release(date("2026-12-05T21:30:00Z"), calendar: kyiv) == date("2026-12-06T05:00:00Z"))
        // 03:00 → 07:00 the same morning.
        #expect(quiet.release(date("2026-12-06T01:00:00Z"), calendar: kyiv) == date("2026-12-06T05:00:00Z"))
        // Noon is not quiet.
        #expect(quiet.release(date("2026-12-06T10:00:00Z"), calendar: kyiv) == date("2026-12-06T10:00:00Z"))
        #expect(QuietHours(start: 60, end: 60) == nil)
        #expect(QuietHours(start: -1, end: 60) == nil)
        #expect(QuietHours(start: 0, end: 24 * 60) == nil)
    }

    @Test func aSpanWithinADayAndTheDigestTime() throws {
        let quiet = try #require(QuietHours(start: 13 * 60, end: 14 * 60))
        let minsk = calendar("Europe/Minsk")  // UTC+3
        #expect(quiet.release(date("2026-12-05T10:30:00Z"), calendar: minsk) == date("2026-12-05T11:00:00Z"))
        var preferences = NotificationPreferences(quietHours: quiet, emailDigest: false)
        #expect(preferences.digest(after: date("2026-12-05T10:30:00Z"), calendar: minsk) == nil)
        preferences.emailDigest = true
        // The digest goes out when quiet hours end: 14:00 today, else tomorrow.
        #expect(
            preferences.digest(after: date("2026-12-05T09:00:00Z"), calendar: minsk) == date("2026-12-05T11:00:00Z"))
        #expect(
            preferences.digest(after: date("2026-12-05T12:00:00Z"), calendar: minsk) == date("2026-12-06T11:00:00Z"))
        preferences.quietHours = nil
        #expect(
            preferences.digest(after: date("2026-12-05T12:00:00Z"), calendar: minsk) == date("2026-12-06T04:00:00Z"))
    }
}
