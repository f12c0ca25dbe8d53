import CampusTestSupport
import Foundation
import SQLKit
import Testing

@testable import Storage

/// Every wait for the database is bounded (issue 35, item 31), and closing it waits for what runs
/// (item 28).
@Suite struct DatabaseOutageTests {
    static func selectOne(_ database: Database) async throws {
        try await database.read { db in try await db.raw("SELECT 1 AS one").run() }
    }

    /// A PostgreSQL address that takes connections and never answers: the first operation is
    /// refused after the wait for a connection, and once the server is probed, at once.
    @Test(.timeLimit(.minutes(2)))
    func aServerThatNeverAnswersIsUnavailableWithinTheWait() async throws {
        let blackhole = try Blackhole()
        let database = try await Database.open(
            .postgres(url: "postgres://campus@127.0.0.1:\(blackhole.port)/campus"), logger: TestDatabases.logger)
        let clock = ContinuousClock()
        var started = clock.now
        await #expect(throws: DatabaseUnavailable.self) { try await Self.selectOne(database) }
        // Hangs are what is tested (an unbounded wait was a minute); figures are in docs/BENCHMARKS.md.
        #expect(clock.now - started < .seconds(15), "the first operation waited \(clock.now - started)")
        var fast = false
        for _ in 0..<40 where !fast {
            started = clock.now
            await #expect(throws: DatabaseUnavailable.self) { try await Self.selectOne(database) }
            // Known to be down: no wait for a connection (which is two seconds).
            fast = clock.now - started < .seconds(1)
            if !fast { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(fast, "operations still wait while the database is known to be down")
        started = clock.now
        #expect(await database.ping() == false)
        #expect(clock.now - started < .seconds(5))
        started = clock.now
        await database.close()
        #expect(clock.now - started < .seconds(15))
        withExtendedLifetime(blackhole) {}
    }

    /// Connections that PostgreSQL ends (as a restart does) are the database's unavailability,
    /// never a statement's error, and the next operations go on within a second.
    @Test(.timeLimit(.minutes(2)))
    func connectionsEndedByTheServerComeBackWithinASecond() async throws {
        guard TestDatabases.kinds.contains(.postgres) else { return }
        try await TestDatabases.withDatabase(.postgres) { database in
            // Several connections in the pool.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await database.read { db in try await db.raw("SELECT pg_sleep(0.05)").run() }
                    }
                }
                try await group.waitForAll()
            }
            guard case .postgres(let url) = database.location else { return }
            let killer = try await Database.open(.postgres(url: url), logger: TestDatabases.logger)
            try await killer.read { db in
                try await db.raw(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid()
                    """
                ).run()
            }
            await killer.close()
            let clock = ContinuousClock()
            let started = clock.now
            var answered = false
            while !answered, clock.now - started < .seconds(10) {
                do {
                    try await Self.selectOne(database)
                    answered = true
                } catch is DatabaseUnavailable {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(answered, "the database did not come back within 10 s")
        }
    }

    /// A statement written to a connection that has closed is given up on within seconds:
    /// PostgresNIO 1.33 loses it (its write to the closed channel has no promise), which left the
    /// operation waiting for ever (a restart's closed connections once held a whole test run).
    @Test(.timeLimit(.minutes(1)))
    func aStatementOnAClosedConnectionEndsUnavailable() async throws {
        guard TestDatabases.kinds.contains(.postgres) else { return }
        let (location, cleanup) = try await TestDatabases.location(.postgres)
        defer { Task { await cleanup() } }
        guard case .postgres(let url) = location else { return }
        let backend = try PostgresBackend(url: url, logger: TestDatabases.logger)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: DatabaseUnavailable.self) {
            try await backend.withConnection(wait: .seconds(10)) { connection in
                try await connection.close()
                try await connection.sql().raw("SELECT 1 AS one").run()
            }
        }
        #expect(clock.now - started < .seconds(30))
        await backend.close()
    }

    /// Closing waits for the operations under way (a connection given back to a closed pool was
    /// left open, and trapped debug builds); operations after it are refused.
    @Test(arguments: TestDatabases.kinds)
    func closingWaitsForWhatRuns(_ kind: Database.Kind) async throws {
        let (location, cleanup) = try await TestDatabases.location(kind)
        defer { Task { await cleanup() } }
        let database = try await Database.open(location, logger: TestDatabases.logger)
        async let slow = database.read { db in
            try await Task.sleep(for: .milliseconds(300))
            return try await db.raw("SELECT 1 AS one").first(decodingColumn: "one", as: Int.self)
        }
        async let write: Void = database.write { db in
            try await Task.sleep(for: .milliseconds(200))
            try await db.raw("CREATE TABLE closing_test (id INTEGER)").run()
        }
        try await Task.sleep(for: .milliseconds(50))
        await database.close()
        #expect(try await slow == 1)
        try await write
        await #expect(throws: DatabaseError.closed) { try await Self.selectOne(database) }
    }
}
