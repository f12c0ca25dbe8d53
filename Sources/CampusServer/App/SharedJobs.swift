import Foundation
import Logging
import ServiceLifecycle
import Storage

/// Work that must run on one instance at a time however many share the database (issue 38):
/// IIS sync, housekeeping (mail, expired sessions), completing recordings a lost instance left.
/// Each job has a lease in the database (``JobStore``): the instance holding it runs the job when
/// it is due (``SharedJob/interval`` after its last run ended, on whichever instance that was)
/// and renews the lease every ``renewal``; the others look every ``renewal`` whether it has
/// expired. An instance that stops gives its leases up, so another takes them over within
/// ``renewal``; one that dies (kill -9, its machine lost) is replaced within ``leaseTime`` +
/// ``renewal``. A holder that cannot renew for ``leaseTime`` − ``renewal`` (it lost the database)
/// cancels its run before its lease can pass to another, so two runs never overlap.
struct SharedJob: Sendable {
    /// The lease's name, as `campus jobs` shows it.
    var name: String
    /// From the end of one run to the start of the next.
    var interval: Duration
    /// How long after the server starts it may first run (when none ran within `interval`).
    var firstDelay: Duration = .zero
    var body: @Sendable () async throws -> Void
}

struct SharedJobs: NamedService {
    let jobs: [SharedJob]
    let database: Database
    /// This instance's name in the leases (``InstanceName``).
    let instance: String
    let logger: Logger
    let now: @Sendable () -> Date

    /// How long a lease lasts unless renewed.
    var leaseTime = Duration.seconds(15)
    /// How often the holder renews, and the others look.
    var renewal = Duration.seconds(5)
    /// How long runs are remembered.
    static let runsKept: TimeInterval = 7 * 24 * 3600

    func run() async throws {
        let started = ContinuousClock.now
        let startedAt = now()
        await withDiscardingTaskGroup { group in
            group.addTask { await sayAlive(startedAt: startedAt) }
            for job in jobs {
                group.addTask { await keep(job, startedAt: started) }
            }
        }
    }

    /// Says every ``renewal`` that this instance is there (`instances`, for the admin overview);
    /// a failed write waits for the next round.
    private func sayAlive(startedAt: Date) async {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let (instance, now) = (instance, now())
            _ = try? await database.write { db in
                try await JobStore(db).seen(
                    instance, startedAt: startedAt, at: now, forgetBefore: now.addingTimeInterval(-Self.runsKept))
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: renewal) }
        }
    }

    /// Takes or renews the job's lease every ``renewal`` and runs the job when due, until
    /// shutdown; then gives the lease up.
    private func keep(_ job: SharedJob, startedAt: ContinuousClock.Instant) async {
        var holding = false
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var wait = renewal
            if let lease = await take(job.name) {
                if !holding { logger.info("job lease taken", metadata: ["job": "\(job.name)"]) }
                holding = true
                let sinceStart = ContinuousClock.now - startedAt
                let untilDue = dueIn(lease, interval: job.interval, firstDelay: job.firstDelay - sinceStart)
                if untilDue <= .zero {
                    await runHeld(job)
                    wait = min(renewal, job.interval)
                } else {
                    wait = min(renewal, untilDue)
                }
            } else {
                holding = false
            }
            let pause = max(wait, .milliseconds(10))
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
        }
        if holding {
            // Given up also when the server's tasks were cancelled (a start that failed): in a task
            // of its own, which the cancellation does not reach.
            let (name, instance, database) = (job.name, instance, database)
            await Task {
                _ = try? await database.write { db in try await JobStore(db).release(name, holder: instance) }
            }.value
        }
    }

    /// How long until the job is due: `interval` after the last run ended, and not before
    /// `firstDelay` (what is left of it) when this instance has just started.
    private func dueIn(_ lease: JobStore.Lease, interval: Duration, firstDelay: Duration) -> Duration {
        var due = firstDelay
        if let finished = lease.lastFinishedAt {
            let since = now().timeIntervalSince(finished)
            due = max(due, interval - .milliseconds(Int64(since * 1000)))
        }
        return due
    }

    /// This instance's lease of the job, taken or renewed; nil when another instance holds it
    /// (or the database cannot be reached).
    private func take(_ name: String) async -> JobStore.Lease? {
        let (instance, now) = (self.instance, now())
        let until = now.addingTimeInterval(Self.seconds(leaseTime))
        return try? await database.write { db in
            try await JobStore(db).take(name, holder: instance, now: now, until: until)
        }
    }

    /// Runs the job while renewing its lease; the run is cancelled when the lease could not be
    /// renewed for ``leaseTime`` − ``renewal`` or another instance has it.
    private func runHeld(_ job: SharedJob) async {
        let (name, instance, startedAt) = (job.name, instance, now())
        do {
            try await database.write { db in try await JobStore(db).started(name, instance: instance, at: startedAt) }
        } catch {
            return  // Not recorded, not run: the next round tries again.
        }
        let outcome = await withTaskGroup(of: String?.self) { group -> String in
            group.addTask {
                do {
                    try await job.body()
                    return "ok"
                } catch {
                    if Task.isCancelled { return "cancelled" }
                    logger.warning("job failed", metadata: ["job": "\(name)", "error": "\(ErrorLog.text(error))"])
                    return String(ErrorLog.text(error).prefix(500))
                }
            }
            group.addTask {
                var renewed = ContinuousClock.now
                while true {
                    do { try await Task.sleep(for: renewal) } catch { return nil }
                    if await take(name) != nil {
                        renewed = ContinuousClock.now
                    } else if ContinuousClock.now - renewed >= leaseTime - renewal {
                        logger.warning("job lease lost; the run is cancelled", metadata: ["job": "\(name)"])
                        return "lease lost"
                    }
                }
            }
            var outcome = "cancelled"
            while let result = await group.next() {
                if let result {
                    outcome = result
                    break
                }
            }
            group.cancelAll()
            return outcome
        }
        let finished = now()
        let keepSince = finished.addingTimeInterval(-Self.runsKept)
        // Recorded also when the run was cancelled (the server's tasks were).
        await Task { [database] in
            _ = try? await database.write { db in
                try await JobStore(db).finished(
                    name, instance: instance, startedAt: startedAt, at: finished, outcome: outcome,
                    keepSince: keepSince)
            }
        }.value
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// An instance's name for itself in leases and the radio's announcements: where it runs and a
/// random part, so that a restart on the same machine is another instance.
enum InstanceName {
    static func make() -> String {
        let host = ProcessInfo.processInfo.hostName
        return "\(host.prefix(60)) \(ProcessInfo.processInfo.processIdentifier) \(UUID().uuidString.prefix(8))"
    }
}

extension Administration {
    /// The shared jobs' leases: who runs each, and how its last run went (`campus jobs`).
    public func jobLeases() async throws -> [JobStore.Lease] {
        try await database.read { db in try await JobStore(db).leases() }
    }
}
