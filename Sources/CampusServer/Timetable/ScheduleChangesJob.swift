import Foundation

extension SharedJob {
    /// Forgets schedule changes eight weeks after they were seen, and removed lessons' cancelled
    /// events two weeks after (``TimetableService/forgetOldChanges()``); not at once when the
    /// server starts (nothing is urgent about it).
    static func scheduleChanges(_ timetable: TimetableService, interval: Duration) -> SharedJob {
        SharedJob(name: "schedule-changes", interval: interval, firstDelay: .seconds(60)) {
            try await timetable.forgetOldChanges()
        }
    }
}
