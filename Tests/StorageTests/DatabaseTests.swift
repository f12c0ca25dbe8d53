import Accounts
import CampusTestSupport
import Foundation
import SQLKit
import Testing

@testable import Storage

/// The database itself: transactions, concurrent writers, SQLite's journal, the settings table.
@Suite struct DatabaseTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func newUser(_ email: String, role: Role = .user) -> NewUser {
        NewUser(email: email, passwordHash: "hash", firstName: "Ann", lastName: "Lee", role: role)
    }

    @Test(arguments: TestDatabases.kinds)
    func aFailedWriteLeavesNothingBehind(_ kind: Database.Kind) async throws {
        struct Boom: Error {}
        try await TestDatabases.withDatabase(kind) { database in
            await #expect(throws: Boom.self) {
                try await database.write { db in
                    _ = try await AccountStore(db).createUser(newUser("ann@example.org"), now: now)
                    throw Boom()
                }
            }
            #expect(try await database.read { db in try await AccountStore(db).countUsers() } == 0)
            // The connection is usable after the rollback.
            _ = try await database.write { db in
                try await AccountStore(db).createUser(newUser("ann@example.org"), now: now)
            }
            #expect(try await database.read { db in try await AccountStore(db).countUsers() } == 1)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func settingsAreKeptAndReplaced(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            try await database.write { db in try await SettingsStore(db).set(.institutionName, to: "1") }
            try await database.write { db in try await SettingsStore(db).set(.institutionName, to: "2") }
            #expect(try await database.read { db in try await SettingsStore(db).value(.institutionName) } == "2")
            #expect(try await database.read { db in try await SettingsStore(db).value(.serverSecret) } == nil)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func concurrentWritersAllCommit(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        _ = try await database.write { db in
                            try await AccountStore(db).createUser(newUser("user\(index)@example.org"), now: now)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await database.read { db in try await AccountStore(db).countUsers() } == 40)
        }
    }

    @Test func sqliteUsesWriteAheadLoggingAndKeepsDataAcrossReopening() async throws {
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        defer { Task { await cleanup() } }
        let first = try await Database.open(location, logger: TestDatabases.logger)
        try await first.migrate(logger: TestDatabases.logger)
        _ = try await first.write { db in try await AccountStore(db).createUser(newUser("ann@example.org"), now: now) }
        let mode = try await first.read { db in
            try await db.raw("PRAGMA journal_mode").first(decodingColumn: "journal_mode", as: String.self)
        }
        #expect(mode == "wal")
        let foreignKeys = try await first.read { db in
            try await db.raw("PRAGMA foreign_keys").first(decodingColumn: "foreign_keys", as: Int.self)
        }
        #expect(foreignKeys == 1)
        await first.close()
        let second = try await Database.open(location, logger: TestDatabases.logger)
        #expect(try await second.migrate(logger: TestDatabases.logger).isEmpty)
        #expect(try await second.read { db in try await AccountStore(db).credentials(email: "ann@example.org") } != nil)
        await second.close()
    }

    @Test func databaseOptionIsRead() throws {
        #expect(try DatabaseLocation.from(option: nil, dataDirectory: "/data") == .sqlite(path: "/data/campus.sqlite"))
        #expect(
            try DatabaseLocation.from(option: "postgres://u:p@h/db", dataDirectory: "/data")
                == .postgres(url: "postgres://u:p@h/db"))
        #expect(try DatabaseLocation.from(option: "./x.sqlite", dataDirectory: "/data") == .sqlite(path: "./x.sqlite"))
        #expect(throws: DatabaseError.self) { try DatabaseLocation.from(option: "mysql://x", dataDirectory: "/data") }
        #expect(DatabaseLocation.postgres(url: "postgres://u:secret@h/db").description == "postgres://u:***@h/db")
    }
}
