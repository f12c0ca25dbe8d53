import Foundation
import Logging
import SQLKit

extension Database {
    /// Every migration Campus knows, in order. Later modules append theirs here.
    public static let migrations: [Migration] = [
        .accounts, .timetable, .compete, .listen, .rankingIndexAndFeedLinks, .userLanguage, .personalTimetable,
        .lessonNotes, .personalTouches, .savedSchedules, .teacherCardAnswers, .studyTasks,
        .savedSchedulesInMySchedule, .radioStations, .radioSourcesAndRecordings,
        .radioListeningAndStationImages, .changeCounters, .places, .electives, .windowNotes, .appCredentials,
        .publicPlaylists, .contentReports, .feedBlockFieldsAndPicks, .linkChecksPerStatement, .linkChecksLockSharedRows,
        .timetableDisplaySettings, .commentsByWriter, .sentForms, .sharedJobs, .scheduleChanges, .notifications,
        .stationLikes, .auditLog, .instances, .twoFactor, .singleSignOn, .coOrganizers, .liveTracking,
        .friends, .competitionChat, .categoriesAndTeams, .laps, .resultReviews, .challenges, .radioAutoDJ, .radioShows,
        .radioListenerSessions, .radioRequests,
    ]

    /// Applies the migrations this database has not seen, in one transaction. Several app
    /// instances may start at once: PostgreSQL serializes them with an advisory lock, SQLite with
    /// its write lock. Returns the migrations applied now.
    @discardableResult
    public func migrate(
        _ migrations: [Migration] = Database.migrations, logger: Logger
    ) async throws -> [AppliedMigration] {
        let kind = self.kind
        let applied = try await retryingWhileBusy { try await migrateOnce(migrations, kind: kind) }
        for migration in applied {
            logger.info(
                "applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
        }
        return applied
    }

    private func migrateOnce(_ migrations: [Migration], kind: Kind) async throws -> [AppliedMigration] {
        try await write { db -> [AppliedMigration] in
            if kind == .postgres {
                try await db.raw("SELECT pg_advisory_xact_lock(4242001)").run()
            }
            try await db.raw(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at BIGINT NOT NULL
                )
                """
            ).run()
            let done = Set(
                try await db.raw("SELECT version FROM schema_migrations").all(decodingColumn: "version", as: Int.self))
            var now: [AppliedMigration] = []
            for migration in migrations.sorted(by: { $0.version < $1.version }) where !done.contains(migration.version)
            {
                for statement in migration.sql(for: kind) {
                    try await db.raw(SQLQueryString(statement)).run()
                }
                for added in migration.addedColumns where migration.applies(to: kind) {
                    try await Self.add(added, kind: kind, on: db)
                }
                try await db.insert(into: "schema_migrations")
                    .columns("version", "name", "applied_at")
                    .values(
                        SQLBind(migration.version), SQLBind(migration.name),
                        SQLBind(Int64(Date().timeIntervalSince1970))
                    )
                    .run()
                now.append(AppliedMigration(version: migration.version, name: migration.name))
            }
            return now
        }
    }

    /// Adds a column unless the table has it.
    private static func add(_ added: Migration.AddedColumn, kind: Kind, on db: any SQLDatabase) async throws {
        switch kind {
        case .postgres:
            try await db.raw(
                "ALTER TABLE \(ident: added.table) ADD COLUMN IF NOT EXISTS \(ident: added.column) \(unsafeRaw: added.definition)"
            ).run()
        case .sqlite:
            let columns = try await db.raw("SELECT name FROM pragma_table_info(\(bind: added.table))")
                .all(decodingColumn: "name", as: String.self)
            guard !columns.contains(added.column) else { return }
            try await db.raw(
                "ALTER TABLE \(ident: added.table) ADD COLUMN \(ident: added.column) \(unsafeRaw: added.definition)"
            ).run()
        }
    }

    /// The migrations recorded in this database, oldest first.
    public func appliedMigrations() async throws -> [AppliedMigration] {
        try await read { db in
            try await db.raw("SELECT version, name FROM schema_migrations ORDER BY version").all().map {
                AppliedMigration(
                    version: try $0.decode(column: "version", as: Int.self),
                    name: try $0.decode(column: "name", as: String.self))
            }
        }
    }
}
