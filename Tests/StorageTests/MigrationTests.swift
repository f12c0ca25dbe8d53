import Accounts
import CampusTestSupport
import Foundation
import SQLKit
import Testing

@testable import Storage

/// Migrations, on SQLite and on PostgreSQL.
@Suite struct MigrationTests {
    @Test(arguments: TestDatabases.kinds)
    func migrationsApplyOnceAndAreRecorded(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind, migrate: false) { database in
            let first = try await database.migrate(logger: TestDatabases.logger)
            #expect(first.map(\.version) == Database.migrations.map(\.version))
            let second = try await database.migrate(logger: TestDatabases.logger)
            #expect(second.isEmpty)
            #expect(try await database.appliedMigrations().map(\.version) == Database.migrations.map(\.version))
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func concurrentStartsMigrateOnce(_ kind: Database.Kind) async throws {
        let (location, cleanup) = try await TestDatabases.location(kind)
        defer { Task { await cleanup() } }
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    let database = try await Database.open(location, logger: TestDatabases.logger)
                    let applied = try await database.migrate(logger: TestDatabases.logger)
                    await database.close()
                    return applied.count
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == [0, 0, Database.migrations.count])
    }
}
