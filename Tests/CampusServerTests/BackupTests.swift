import Accounts
import CampusTestSupport
import Foundation
import InputRules
import SQLKit
import Storage
import Testing

@testable import CampusServer

/// Issue 40: a backup made while a writer inserts is one consistent moment, and its restore
/// into an empty database and media directory gives back every row and file; a damaged, half or
/// misplaced restore is refused.
@Suite(.serialized) struct BackupTests {
    /// Every row of every table, as text, in order: two databases hold the same data when these
    /// are equal.
    static func rows(_ database: Database) async throws -> [String: [String]] {
        let kind = database.kind
        return try await database.read { db in
            var tables: [String: [String]] = [:]
            switch kind {
            case .sqlite:
                let names = try await db.raw(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                ).all().map { try $0.decode(column: "name", as: String.self) }
                for name in names {
                    let columns = try await db.raw("SELECT name FROM pragma_table_info(\(bind: name))").all().map {
                        try $0.decode(column: "name", as: String.self)
                    }
                    let row = columns.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
                    tables[name] = try await db.raw(
                        "SELECT \(unsafeRaw: row) AS r FROM \"\(unsafeRaw: name)\" ORDER BY 1"
                    )
                    .all().map { try $0.decode(column: "r", as: String.self) }
                }
            case .postgres:
                let names = try await db.raw(
                    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()"
                ).all().map { try $0.decode(column: "name", as: String.self) }
                for name in names {
                    tables[name] = try await db.raw(
                        "SELECT t::text AS r FROM \"\(unsafeRaw: name)\" t ORDER BY 1"
                    ).all().map { try $0.decode(column: "r", as: String.self) }
                }
            }
            return tables
        }
    }

    static func folder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("campus-\(name)-\(UUID().uuidString)")
    }

    @Test(arguments: TestDatabases.kinds)
    func aBackupUnderLoadRestoresEveryRowAndFile(_ kind: Database.Kind) async throws {
        let (location, cleanup) = try await TestDatabases.location(kind)
        let (restoredLocation, restoredCleanup) = try await TestDatabases.location(kind)
        let (againLocation, againCleanup) = try await TestDatabases.location(kind)
        let (media, restoredMedia, againMedia, backups) = (
            Self.folder("media"), Self.folder("restored-media"), Self.folder("again-media"), Self.folder("backups")
        )
        defer {
            Task { for clean in [cleanup, restoredCleanup, againCleanup] { await clean() } }
            for folder in [media, restoredMedia, againMedia, backups] {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        let database = try await Database.open(location, logger: TestDatabases.logger)
        try await database.migrate(logger: TestDatabases.logger)
        // Media: an upload, a cover, a recording; a file being written (hidden) is no media yet.
        for (path, size) in [("uploads/a/track.mp3", 3_000_000), ("covers/7-300.jpg", 20_000), ("recordings/1.mp3", 1)]
        {
            let url = media.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: url)
        }
        try Data("half".utf8).write(to: media.appendingPathComponent("uploads/.\(UUID().uuidString).part"))
        let backup = Backups(database: database, mediaDirectory: media.path, logger: TestDatabases.logger)

        // A writer adds two entries per transaction while the backup is made.
        let writer = Task {
            var written = 0
            while !Task.isCancelled {
                let pair = written + 1
                do {
                    try await database.write { db in
                        for half in ["a", "b"] {
                            try await AuditStore(db).record(
                                AuditEntry(
                                    at: Date(), action: .feedChanged, actor: .scheduledJob,
                                    target: AuditTarget(kind: "pair", id: "\(pair)", label: half)))
                        }
                    }
                } catch {
                    break
                }
                written = pair
            }
            return written
        }
        try await Task.sleep(for: .milliseconds(100))
        let first = try await backup.make(in: backups.appendingPathComponent("under-load"), by: .commandLine)
        writer.cancel()
        let written = await writer.value
        #expect(written > 0)
        #expect(
            first.files.map(\.path).sorted()
                == [
                    kind == .sqlite ? "database.sqlite" : "database.pgdump", "media/covers/7-300.jpg",
                    "media/recordings/1.mp3", "media/uploads/a/track.mp3",
                ].sorted())

        // The backup under load restores to one moment: every transaction whole, none half.
        let restored = try await Backups.restore(
            from: backups.appendingPathComponent("under-load"), into: restoredLocation,
            mediaDirectory: restoredMedia.path, logger: TestDatabases.logger)
        #expect(restored.files == first.files)
        let copy = try await Database.open(restoredLocation, logger: TestDatabases.logger)
        let pairs = try await copy.read { db in
            try await AuditStore(db).entries(AuditFilter(targetKind: "pair"), limit: 1_000_000, offset: 0).entries
        }
        let halves = Dictionary(grouping: pairs, by: { $0.target.id ?? "" })
        #expect(halves.values.allSatisfy { $0.count == 2 })
        #expect(!halves.isEmpty)
        await copy.close()
        for path in ["uploads/a/track.mp3", "covers/7-300.jpg", "recordings/1.mp3"] {
            #expect(
                FileManager.default.contents(atPath: restoredMedia.appendingPathComponent(path).path)
                    == FileManager.default.contents(atPath: media.appendingPathComponent(path).path))
        }

        // A second backup once the writer stopped restores every row of every table as it is.
        let source = try await Self.rows(database)
        try await backup.make(in: backups.appendingPathComponent("quiet"), by: .commandLine)
        _ = try await Backups.restore(
            from: backups.appendingPathComponent("quiet"), into: againLocation, mediaDirectory: againMedia.path,
            logger: TestDatabases.logger)
        let again = try await Database.open(againLocation, logger: TestDatabases.logger)
        let restoredRows = try await Self.rows(again)
        #expect(restoredRows.keys.sorted() == source.keys.sorted())
        for (table, rows) in source {
            let same = restoredRows[table] == rows
            #expect(same, "\(table): \(restoredRows[table]?.count ?? 0) rows restored of \(rows.count)")
        }
        #expect((source["audit_log"]?.count ?? 0) >= written * 2)
        // Both backups are in the audit log, by the command line.
        let made = try await database.read { db in
            try await AuditStore(db).entries(AuditFilter(action: .backupMade), limit: 10, offset: 0).entries
        }
        #expect(made.count == 2 && made.allSatisfy { $0.actor == .commandLine })

        // Restoring again into what now holds data is refused, and so is a backup of the other kind.
        await #expect {
            try await Backups.restore(
                from: backups.appendingPathComponent("quiet"), into: againLocation,
                mediaDirectory: Self.folder("empty").path, logger: TestDatabases.logger)
        } throws: { ($0 as? Refusal)?.reason == .conflict }
        await #expect {
            try await Backups.restore(
                from: backups.appendingPathComponent("quiet"), into: restoredLocation,
                mediaDirectory: againMedia.path, logger: TestDatabases.logger)
        } throws: { ($0 as? Refusal)?.reason == .conflict }
        await again.close()
        await database.close()
    }

    @Test func aDamagedOrHalfBackupIsRefused() async throws {
        try await TestDatabases.withDatabase(.sqlite) { database in
            let media = Self.folder("media")
            let folder = Self.folder("backup")
            defer { for url in [media, folder] { try? FileManager.default.removeItem(at: url) } }
            let upload = media.appendingPathComponent("uploads/song.mp3")
            try FileManager.default.createDirectory(
                at: upload.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: 1000).write(to: upload)
            let backups = Backups(database: database, mediaDirectory: media.path, logger: TestDatabases.logger)
            try await backups.make(in: folder, by: .commandLine)
            // Not into a folder that holds something.
            await #expect { try await backups.make(in: folder, by: .commandLine) } throws: {
                ($0 as? Refusal)?.reason == .conflict
            }
            #expect(try BackupManifest.verified(folder).files.count == 2)

            func restore() async throws {
                let target = Self.folder("target")
                defer { try? FileManager.default.removeItem(at: target) }
                _ = try await Backups.restore(
                    from: folder, into: .sqlite(path: target.appendingPathComponent("campus.sqlite").path),
                    mediaDirectory: target.path, logger: TestDatabases.logger)
            }
            // One byte changed.
            let copied = folder.appendingPathComponent("media/uploads/song.mp3")
            try Data(repeating: 8, count: 1000).write(to: copied)
            await #expect { try await restore() } throws: { ($0 as? Refusal)?.reason == .malformed }
            try Data(repeating: 7, count: 1000).write(to: copied)
            try await restore()
            // No manifest: a backup stopped half-way.
            try FileManager.default.removeItem(at: folder.appendingPathComponent("manifest.json"))
            await #expect { try await restore() } throws: { ($0 as? Refusal)?.reason == .malformed }
        }
    }

    @Test func scheduledBackupsKeepTheNewestComplete() throws {
        let folder = Self.folder("scheduled")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Five complete backups, a half one among them, and a half one being written now.
        let names = [
            ("campus-20261201-000000", true), ("campus-20261202-000000", false), ("campus-20261203-000000", true),
            ("campus-20261204-000000", true), ("campus-20261205-000000", true), ("campus-20261206-000000", true),
            ("campus-20261207-000000", false),
        ]
        for (name, complete) in names {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            if complete { try Data("{}".utf8).write(to: url.appendingPathComponent("manifest.json")) }
        }
        BackupSchedule.prune(folder, keep: 3, logger: TestDatabases.logger)
        #expect(
            BackupSchedule.list(folder).map(\.url.lastPathComponent) == [
                "campus-20261207-000000", "campus-20261206-000000", "campus-20261205-000000",
                "campus-20261204-000000",
            ])
        #expect(BackupSchedule.stamp(Date(timeIntervalSince1970: 1_796_000_000)) == "20261130-005320")
    }
}
