import Accounts
import Foundation
import InputRules
import Logging
import Storage

/// Backups of a running Campus, and their restore (issue 40): the database as one consistent
/// copy (SQLite's `VACUUM INTO`, PostgreSQL's `pg_dump -Fc`), which holds the server secret, the
/// push key and every setting; the media directory's uploads, covers, recordings and demo media;
/// and a manifest with every file's size and SHA-256, written last. docs/DEPLOYING.md, “Backup
/// and restore”, says how to use them.
public struct Backups: Sendable {
    /// The folders of the media directory a backup holds (the media directory may be the data
    /// directory, whose SQLite file, mail and backups are not media).
    static let mediaFolders = ["uploads", "covers", "recordings", "demo-media"]
    static let sqliteFile = "database.sqlite"
    static let postgresFile = "database.pgdump"

    let database: Database
    let mediaDirectory: String
    let logger: Logger
    let now: @Sendable () -> Date

    public init(
        database: Database, mediaDirectory: String, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.database = database
        self.mediaDirectory = mediaDirectory
        self.logger = logger
        self.now = now
    }

    /// Makes a backup in `folder`, which must not exist or be empty, while the server goes on;
    /// the audit log records it as done by `actor`.
    @discardableResult
    public func make(in folder: URL, by actor: AuditActor) async throws -> BackupManifest {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: folder.path) {
            guard (try? fileManager.contentsOfDirectory(atPath: folder.path))?.isEmpty == true else {
                throw Refusal.conflict(
                    "{path} is not empty: a backup goes into a new folder.", ["path": folder.path])
            }
        }
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        let started = now()
        var files: [BackupManifest.File] = []
        // The database first: the media then hold at least every file it names (files are only
        // ever added under new names; a file deleted meanwhile is left out).
        let databaseFile: String
        switch database.location {
        case .sqlite:
            databaseFile = Self.sqliteFile
            try await database.copySQLite(to: folder.appendingPathComponent(databaseFile).path)
        case .postgres(let url):
            databaseFile = Self.postgresFile
            try await PostgresTools(url: url).dump(to: folder.appendingPathComponent(databaseFile))
        }
        let (size, sum) = try BackupFiles.checksum(folder.appendingPathComponent(databaseFile))
        files.append(.init(path: databaseFile, size: size, sha256: sum))
        let media = URL(fileURLWithPath: mediaDirectory).standardizedFileURL
        let marker = media.appendingPathComponent(MediaDirectory.markerName)
        var mediaFiles = fileManager.fileExists(atPath: marker.path) ? [MediaDirectory.markerName] : []
        for name in Self.mediaFolders {
            mediaFiles += BackupFiles.files(in: media.appendingPathComponent(name)).map { "\(name)/\($0)" }
        }
        for path in mediaFiles {
            try Task.checkCancellation()
            let target = "media/\(path)"
            do {
                let (size, sum) = try BackupFiles.copy(
                    media.appendingPathComponent(path), to: folder.appendingPathComponent(target))
                files.append(.init(path: target, size: size, sha256: sum))
            } catch  where !fileManager.fileExists(atPath: media.appendingPathComponent(path).path) {
                // Deleted since it was listed (an admin removed an upload): not in the backup.
                try? fileManager.removeItem(at: folder.appendingPathComponent(target))
            }
        }
        let manifest = BackupManifest(
            format: BackupManifest.currentFormat, made: started, database: database.kind.rawValue,
            schemaVersion: try await database.schemaVersion(), mediaDirectory: media.path, files: files)
        try manifest.write(into: folder)
        try await database.write { [now, files] db in
            try await AuditStore(db).record(
                AuditEntry(
                    at: now(), action: .backupMade, actor: actor,
                    target: AuditTarget(kind: "backup", id: nil, label: folder.path),
                    after: "\(files.count) files, \(manifest.totalBytes) bytes"))
        }
        logger.notice(
            "backup made",
            metadata: ["folder": "\(folder.path)", "files": "\(files.count)", "bytes": "\(manifest.totalBytes)"])
        return manifest
    }

    /// Restores the backup in `folder` into this (empty) database and media directory; refuses a
    /// damaged or half backup, one of another kind of database or a newer schema, and a
    /// database or media directory that already holds anything. For SQLite, ``restoreSQLite``.
    public static func restore(
        from folder: URL, into location: DatabaseLocation, mediaDirectory: String, logger: Logger
    ) async throws -> BackupManifest {
        let manifest = try BackupManifest.verified(folder)
        let kind: Database.Kind =
            switch location {
            case .sqlite: .sqlite
            case .postgres: .postgres
            }
        guard manifest.database == kind.rawValue else {
            throw Refusal.conflict(
                "The backup is of a {kind} database; restore it into one of the same kind.",
                ["kind": manifest.database])
        }
        guard manifest.schemaVersion <= (Database.migrations.map(\.version).max() ?? 0) else {
            throw Refusal.conflict("The backup was made by a newer Campus: restore it with that version or later.")
        }
        // Nothing is written until every target is known to be empty: the database first.
        switch location {
        case .sqlite(let path):
            guard !FileManager.default.fileExists(atPath: path) else {
                throw Refusal.conflict(
                    "{path} already exists: restore into an empty data directory.", ["path": path])
            }
        case .postgres:
            let database = try await Database.open(location, logger: logger)
            let empty = try await database.hasNoTables()
            await database.close()
            guard empty else {
                throw Refusal.conflict("The database already holds tables: restore into an empty database.")
            }
        }
        let media = URL(fileURLWithPath: mediaDirectory).standardizedFileURL
        for name in Self.mediaFolders + [MediaDirectory.markerName] {
            let existing = media.appendingPathComponent(name)
            let occupied =
                name.hasPrefix(".")
                ? FileManager.default.fileExists(atPath: existing.path)
                : !BackupFiles.files(in: existing).isEmpty
            guard !occupied else {
                throw Refusal.conflict(
                    "{path} already holds media: restore into an empty media directory.", ["path": existing.path])
            }
        }
        switch location {
        case .sqlite(let path):
            // Under a hidden name until whole, so that a restore stopped half-way leaves no
            // database a server would start with.
            let target = URL(fileURLWithPath: path)
            let temporary = target.deletingLastPathComponent().appendingPathComponent(".restoring-\(UUID().uuidString)")
            _ = try BackupFiles.copy(folder.appendingPathComponent(Self.sqliteFile), to: temporary)
            try FileManager.default.moveItem(at: temporary, to: target)
        case .postgres(let url):
            try await PostgresTools(url: url).restore(from: folder.appendingPathComponent(Self.postgresFile))
        }
        for file in manifest.files where file.path.hasPrefix("media/") {
            _ = try BackupFiles.copy(
                folder.appendingPathComponent(file.path),
                to: media.appendingPathComponent(String(file.path.dropFirst("media/".count))))
        }
        return manifest
    }
}
