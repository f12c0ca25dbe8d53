import Accounts
import Foundation
import InputRules
import NIOConcurrencyHelpers
import Storage

/// What an admin sees of the server at a glance (issue 40): the jobs that run on one instance
/// at a time (last run, next, failures this week), the queues, the disk the media and backups
/// take, the database's size, uptime and the instances alive.
struct ServerOverview: Sendable {
    struct Job: Sendable {
        var name: String
        /// The instance holding its lease now, if any.
        var holder: String?
        var lastStarted: Date?
        var lastFinished: Date?
        var lastOutcome: String?
        /// When it is due next (its interval after the last run ended), where this instance
        /// runs it.
        var next: Date?
        var failuresThisWeek: Int
    }

    struct Folder: Sendable {
        var name: String
        var path: String
        var bytes: Int64
        var files: Int
    }

    var instance: String
    var startedAt: Date
    var now: Date
    var databaseKind: Database.Kind
    var databaseBytes: Int64
    var jobs: [Job]
    var mailWaiting: Int
    var notificationsWaiting: Int
    var folders: [Folder]
    var lastBackup: AuditEntry?
    var instances: [JobStore.Instance]
}

/// Reads the overview; only admins may.
final class OverviewService: Sendable {
    let database: Database
    let configuration: ServerConfiguration
    let instance: String
    let startedAt: Date
    let now: @Sendable () -> Date
    /// The jobs this server runs and their intervals, told once they are made (`CampusApp`).
    private let intervals = NIOLockedValueBox<[String: Duration]>([:])

    /// An instance is alive when it said so within this time (it says so every 5 seconds).
    static let aliveWithin: TimeInterval = 30

    init(database: Database, configuration: ServerConfiguration, instance: String, now: @escaping @Sendable () -> Date)
    {
        self.database = database
        self.configuration = configuration
        self.instance = instance
        self.now = now
        self.startedAt = now()
    }

    func know(_ jobs: [SharedJob]) {
        intervals.withLockedValue {
            $0 = Dictionary(jobs.map { ($0.name, $0.interval) }, uniquingKeysWith: { a, _ in a })
        }
    }

    func overview(by account: Account) async throws -> ServerOverview {
        guard account.role == .admin else { throw Refusal.notAllowed("Only admins see the server overview.") }
        let now = now()
        let intervals = intervals.withLockedValue { $0 }
        let (leases, failures, instances, mail, notifications, backup) = try await database.read { db in
            let jobs = JobStore(db)
            let backups = try await AuditStore(db).entries(AuditFilter(action: .backupMade), limit: 1, offset: 0)
            return (
                try await jobs.leases(), try await jobs.failedRuns(since: now.addingTimeInterval(-7 * 86_400)),
                try await jobs.instances(seenSince: now.addingTimeInterval(-Self.aliveWithin)),
                try await AccountStore(db).mailWaiting(), try await NotificationStore(db).waiting(),
                backups.entries.first
            )
        }
        var names = Set(leases.map(\.name)).union(intervals.keys).sorted()
        names.removeAll { $0.isEmpty }
        let jobs = names.map { name in
            let lease = leases.first { $0.name == name }
            let interval = intervals[name].map { TimeInterval($0.components.seconds) }
            return ServerOverview.Job(
                name: name, holder: lease.flatMap { $0.expiresAt > now ? $0.holder : nil },
                lastStarted: lease?.lastStartedAt, lastFinished: lease?.lastFinishedAt, lastOutcome: lease?.lastOutcome,
                next: interval.map { (lease?.lastFinishedAt ?? startedAt).addingTimeInterval($0) },
                failuresThisWeek: failures[name] ?? 0)
        }
        let media = URL(fileURLWithPath: configuration.resolvedMediaDirectory)
        var folders = Backups.mediaFolders.map { name in
            Self.folder(name, at: media.appendingPathComponent(name))
        }
        folders.append(Self.folder("backups", at: URL(fileURLWithPath: configuration.resolvedBackupDirectory)))
        let databaseBytes = try await database.sizeInBytes()
        return ServerOverview(
            instance: instance, startedAt: startedAt, now: now,
            databaseKind: database.kind,
            databaseBytes: databaseBytes, jobs: jobs, mailWaiting: mail, notificationsWaiting: notifications,
            folders: folders, lastBackup: backup, instances: instances)
    }

    /// The bytes and files under a folder (hidden files too: a file being written takes disk).
    static func folder(_ name: String, at url: URL) -> ServerOverview.Folder {
        var bytes: Int64 = 0
        var files = 0
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
        if let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: keys) {
            for case let file as URL in enumerator {
                guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                    continue
                }
                bytes += Int64(values.fileSize ?? 0)
                files += 1
            }
        }
        return .init(name: name, path: url.path, bytes: bytes, files: files)
    }
}
