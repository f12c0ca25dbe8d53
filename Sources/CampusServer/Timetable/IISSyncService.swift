import CampusHTTP
import Formats
import Foundation
import InputRules
import Logging
import NIOCore
import ServiceLifecycle
import Storage
import Timetable

/// Runs the IIS sync in the server: soon after start, then at every interval. Where several
/// instances share a database, the one holding the lease (a setting renewed at each run) syncs.
struct IISSyncService: NamedService {
    let sync: IISSync
    let interval: Duration
    let database: Database
    let cache: ResponseCache
    let logger: Logger
    let instance = UUID().uuidString

    func run() async throws {
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(5)) }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                if try await takeLease() {
                    let report = try await sync.run()
                    cache.invalidate()
                    logger.notice("timetable synced from IIS", metadata: ["report": "\(report)"])
                }
            } catch {
                logger.error(
                    "timetable sync failed; the data stays as it was",
                    metadata: ["error": "\(describeForPeople(error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// Whether this instance may sync now: nobody holds the lease, it has expired, or it is ours.
    func takeLease() async throws -> Bool {
        let now = Date()
        let seconds = Double(interval.components.seconds)
        return try await database.write { [instance] db in
            let store = SettingsStore(db)
            if let lease = try await store.value(.iisSyncLease) {
                let parts = lease.split(separator: " ")
                if parts.count == 2, parts[0] != instance, let until = Double(parts[1]),
                    until > now.timeIntervalSince1970
                {
                    return false
                }
            }
            try await store.set(.iisSyncLease, to: "\(instance) \(now.timeIntervalSince1970 + seconds * 1.5)")
            return true
        }
    }
}
