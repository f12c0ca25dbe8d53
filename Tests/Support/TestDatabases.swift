import Foundation
import Logging
import Storage

/// Fresh databases for tests: an SQLite file in a new temporary folder, or a new PostgreSQL
/// database on the server named by `CAMPUS_TEST_POSTGRES_URL` (an account allowed to create
/// databases, e.g. postgres://campus:campus@127.0.0.1:5432/postgres).
///
/// Tests that take `TestDatabases.kinds` as arguments run on SQLite, and on PostgreSQL when it is
/// configured. With `CAMPUS_TEST_REQUIRE_POSTGRES=1` (as CI sets it) a missing server fails the
/// PostgreSQL runs instead of skipping them.
public enum TestDatabases {
    public static var postgresURL: String? {
        guard let url = ProcessInfo.processInfo.environment["CAMPUS_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }

    public static var kinds: [Database.Kind] {
        let required = ProcessInfo.processInfo.environment["CAMPUS_TEST_REQUIRE_POSTGRES"] == "1"
        return postgresURL != nil || required ? [.sqlite, .postgres] : [.sqlite]
    }

    public static let logger: Logger = {
        var logger = Logger(label: "campus-test")
        logger.logLevel = .warning
        return logger
    }()

    public struct MissingPostgres: Error, CustomStringConvertible {
        public var description: String {
            "CAMPUS_TEST_POSTGRES_URL is not set; scripts/test starts PostgreSQL and sets it."
        }
    }

    /// A new, empty database location of this kind; `cleanup` removes it.
    public static func location(_ kind: Database.Kind) async throws -> (
        location: DatabaseLocation, cleanup: @Sendable () async -> Void
    ) {
        switch kind {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "campus-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return (
                .sqlite(path: folder.appendingPathComponent("campus.sqlite").path),
                { try? FileManager.default.removeItem(at: folder) }
            )
        case .postgres:
            guard let adminURL = postgresURL, var components = URLComponents(string: adminURL) else {
                throw MissingPostgres()
            }
            let name =
                "campus_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
            let admin = try await Database.open(.postgres(url: adminURL), logger: logger)
            do {
                try await admin.read { db in try await db.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
            } catch {
                await admin.close()
                throw error
            }
            await admin.close()
            components.path = "/" + name
            return (
                .postgres(url: components.string!),
                {
                    guard let admin = try? await Database.open(.postgres(url: adminURL), logger: logger) else { return }
                    try? await admin.read { db in
                        try await db.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run()
                    }
                    await admin.close()
                }
            )
        }
    }

    /// Runs `body` with a new, migrated database of this kind, then closes and removes it.
    public static func withDatabase<T>(
        _ kind: Database.Kind, migrate: Bool = true, _ body: (Database) async throws -> T
    ) async throws -> T {
        let (location, cleanup) = try await location(kind)
        let database = try await Database.open(location, logger: logger)
        do {
            if migrate { try await database.migrate(logger: logger) }
            let value = try await body(database)
            await database.close()
            await cleanup()
            return value
        } catch {
            await database.close()
            await cleanup()
            throw error
        }
    }
}
