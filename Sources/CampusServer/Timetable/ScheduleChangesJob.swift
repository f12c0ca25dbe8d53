import Foundation

extension SharedJob {
    /// Forgets schedule changes eight weeks after they were seen, and removed lessons' cancelled
    /// events two weeks after (``TimetableService/forgetOldChanges()``).
    static func scheduleChanges(_ timetable: TimetableService, interval: Duration) -> SharedJob {
        SharedJob(name: "schedule-changes", interval: interval) {
            try await timetable.forgetOldChanges()
        }
    }
}
