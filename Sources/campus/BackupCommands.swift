import ArgumentParser
import CampusServer
import Foundation
import Localization
import Storage

/// `campus backup --to DIR`: a consistent copy of a running Campus (docs/DEPLOYING.md, “Backup
/// and restore”).
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up the database, the media and the server secret into a new folder, while the server runs.",
        discussion: """
            The folder must not exist or be empty. It receives the database (SQLite's VACUUM INTO, or \
            pg_dump's custom format for PostgreSQL), the media directory's uploads, covers, recordings and \
            demo media, and manifest.json with every file's size and SHA-256, written last: a backup \
            stopped half-way has none, and campus restore refuses it.
            """)

    @OptionGroup var storage: StorageOptions

    @Option(help: ArgumentHelp("The new folder to write the backup into.", valueName: "folder"))
    var to: String

    func run() async throws {
        try await withDatabase(storage, migrate: false) { database, logger in
            do {
                let manifest = try await Backups(
                    database: database, mediaDirectory: storage.resolvedMediaDirectory, logger: logger
                ).make(in: URL(fileURLWithPath: to), by: .commandLine)
                print(
                    t.plural(
                        "{count} file backed up in {folder}", "{count} files backed up in {folder}",
                        manifest.files.count, ["folder": to]))
            } catch {
                throw Failure(error, t)
            }
        }
    }
}

/// `campus restore --from DIR`: a backup into an empty data directory (SQLite) or database
/// (PostgreSQL) and media directory.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into an empty data directory or database, and an empty media directory.",
        discussion: """
            Every file is checked against the backup's manifest first; a damaged or half backup, a backup \
            of the other kind of database, and a database or media directory that holds anything are \
            refused, and nothing is written.
            """)

    @OptionGroup var storage: StorageOptions

    @Option(help: ArgumentHelp("The backup's folder.", valueName: "folder"))
    var from: String

    func run() async throws {
        let logger = storage.logger()
        do {
            let manifest = try await Backups.restore(
                from: URL(fileURLWithPath: from), into: try storage.location(),
                mediaDirectory: storage.resolvedMediaDirectory, logger: logger)
            print(
                t.plural(
                    "{count} file restored from the backup of {date}",
                    "{count} files restored from the backup of {date}",
                    manifest.files.count, ["date": manifest.made.ISO8601Format()]))
            let media = URL(fileURLWithPath: storage.resolvedMediaDirectory).standardizedFileURL.path
            if manifest.mediaDirectory != media {
                print(
                    t(
                        "The catalogue names its files under {path}: serve with --media-dir {path}, or make that path lead to {media}.",
                        ["path": manifest.mediaDirectory, "media": media]))
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw Failure(error, t)
        }
    }
}
