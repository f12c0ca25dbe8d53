import Accounts
import Foundation
import Logging

extension SharedJob {
    /// Backups on a schedule (`--backup-every`, `--backup-keep`, `--backup-dir`): one instance
    /// at a time makes `campus-YYYYMMDD-HHMMSS` in the folder, then keeps the newest `keep`
    /// complete ones and removes the rest, and any half one an instance left when it died.
    static func backups(_ backups: Backups, folder: URL, keep: Int, interval: Duration) -> SharedJob {
        SharedJob(name: "backup", interval: interval, firstDelay: min(.seconds(600), interval)) {
            let made = folder.appendingPathComponent("campus-\(BackupSchedule.stamp(backups.now()))")
            try await backups.make(in: made, by: .scheduledJob)
            BackupSchedule.prune(folder, keep: keep, logger: backups.logger)
        }
    }
}

/// The scheduled backups of a folder.
public enum BackupSchedule {
    /// A backup's name: when it was made, in UTC, so that names sort by time.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02d-%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
    }

    /// The scheduled backups in `folder`, newest first, and whether each is complete.
    public static func list(_ folder: URL) -> [(url: URL, complete: Bool)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("campus-") }.sorted(by: >).map { name in
            let url = folder.appendingPathComponent(name)
            return (
                url, FileManager.default.fileExists(atPath: url.appendingPathComponent(BackupManifest.fileName).path)
            )
        }
    }

    /// Removes all but the newest `keep` complete backups, and every half one older than the
    /// newest complete one (a half one newer than that may still be being written).
    static func prune(_ folder: URL, keep: Int, logger: Logger) {
        let backups = list(folder)
        guard let newestComplete = backups.firstIndex(where: \.complete) else { return }
        var kept = 0
        for (index, backup) in backups.enumerated() where index >= newestComplete {
            if backup.complete && kept < keep {
                kept += 1
                continue
            }
            do {
                try FileManager.default.removeItem(at: backup.url)
                logger.info("old backup removed", metadata: ["folder": "\(backup.url.path)"])
            } catch {
                logger.warning(
                    "Cannot remove an old backup",
                    metadata: ["folder": "\(backup.url.path)", "error": "\(String(describing: error))"])
            }
        }
    }
}
