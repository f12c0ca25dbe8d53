import CampusTestSupport
import Foundation
import Storage
import Synchronization
import Testing

@testable import CampusServer

/// Jobs that run on one instance at a time (issue 38): the lease is taken by one holder, passes
/// to another only when it expired or was given up, and two runners of one job on one database
/// never run it at once. (A holder killed with SIGKILL is test_instances.py's.)
@Suite struct SharedJobsTests {
    @Test(arguments: TestDatabases.kinds)
    func aLeaseHasOneHolderUntilItExpiresOrIsGivenUp(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            func take(_ holder: String, at seconds: TimeInterval) async throws -> JobStore.Lease? {
                let now = start.addingTimeInterval(seconds)
                return try await database.write { db in
                    try await JobStore(db).take("sync", holder: holder, now: now, until: now.addingTimeInterval(15))
                }
            }
            #expect(try await take("a", at: 0)?.holder == "a")
            #expect(try await take("b", at: 1) == nil)
            #expect(try await take("a", at: 10)?.holder == "a", "renewed")
            #expect(try await take("b", at: 20) == nil, "the renewal lasts until 25")
            #expect(try await take("b", at: 26)?.holder == "b", "expired: taken over")
            #expect(try await take("a", at: 27) == nil)
            try await database.write { db in try await JobStore(db).release("sync", holder: "a") }
            #expect(try await take("a", at: 28) == nil, "only the holder gives it up")
            try await database.write { db in try await JobStore(db).release("sync", holder: "b") }
            #expect(try await take("a", at: 29)?.holder == "a", "given up: taken at once")
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func twoInstancesNeverRunAJobAtOnceAndTheOtherTakesOver(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let tally = Tally()
            let first = Task { try await Self.runner("one", database, tally).run() }
            try await Task.sleep(for: .milliseconds(300))
            let second = Task { try await Self.runner("two", database, tally).run() }
            // Waits (on a busy machine the whole suite shares two cores) until the runs say enough.
            func wait(until done: @escaping @Sendable ([String]) -> Bool) async throws {
                let deadline = ContinuousClock.now + .seconds(120)
                while !tally.state.withLock({ done($0.runs) }), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            try await wait { $0.count >= 5 }
            let before = tally.state.withLock { $0.runs }
            #expect(before.count >= 5)
            #expect(Set(before) == ["one"], "the holder keeps the job: \(before)")
            // The holder stops (and gives the lease up): the other takes the job over.
            first.cancel()
            _ = await first.result
            try await wait { $0.filter { $0 == "two" }.count >= 3 }
            second.cancel()
            _ = await second.result
            let after = tally.state.withLock { Array($0.runs.dropFirst(before.count)) }
            #expect(after.filter { $0 == "two" }.count >= 3, "\(after)")
            #expect(tally.state.withLock { !$0.overlapped })
            // Every run is recorded with its instance, and none overlaps another.
            let recorded = try await database.read { db in try await JobStore(db).runs("sync") }
            #expect(recorded.count >= before.count)
            for (earlier, later) in zip(recorded, recorded.dropFirst()) {
                #expect((earlier.finishedAt ?? .distantFuture) <= later.startedAt)
            }
        }
    }

    /// What the runs of the test's job saw.
    final class Tally: Sendable {
        let state = Mutex<(running: Int, overlapped: Bool, runs: [String])>((0, false, []))
    }

    /// An instance's runner of one job, which says in `tally` when it runs and whether another
    /// run was under way.
    static func runner(_ instance: String, _ database: Database, _ tally: Tally) -> SharedJobs {
        let job = SharedJob(name: "sync", interval: .milliseconds(100)) {
            tally.state.withLock { state in
                state.running += 1
                if state.running > 1 { state.overlapped = true }
                state.runs.append(instance)
            }
            try? await Task.sleep(for: .milliseconds(50))
            tally.state.withLock { $0.running -= 1 }
        }
        return SharedJobs(
            jobs: [job], database: database, instance: instance, logger: TestDatabases.logger, now: { Date() },
            leaseTime: .seconds(2), renewal: .milliseconds(200))
    }
}
