import CampusHTTP
import Foundation
import Logging

extension SharedJob {
    /// The IIS sync: soon after start (when no instance synced within `interval`), then every
    /// `interval`, on one instance at a time. A sync that fails leaves the data as it was.
    static func iisSync(_ sync: IISSync, interval: Duration, cache: ResponseCache, logger: Logger) -> SharedJob {
        SharedJob(name: "iis-sync", interval: interval, firstDelay: .seconds(5)) {
            do {
                let report = try await sync.run()
                cache.invalidate()
                logger.notice("timetable synced from IIS", metadata: ["report": "\(report)"])
            } catch {
                logger.error(
                    "timetable sync failed; the data stays as it was",
                    metadata: ["error": "\(describeForPeople(error))"])
                throw error
            }
        }
    }
}
