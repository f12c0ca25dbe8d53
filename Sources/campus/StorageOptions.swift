import Accounts
import ArgumentParser
import CampusServer
import Foundation
import Localization
import Logging
import NIOCore
import Storage

/// Where the data is: the options every command that touches the database shares.
struct StorageOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "The data directory (default ./campus-data; env CAMPUS_DATA_DIR).")
    var dataDirectory: String?

    @Option(
        name: .customLong("media-dir"),
        help:
            "Where uploads, covers and recordings are kept; every instance of one PostgreSQL database shares it (default: the data directory; env CAMPUS_MEDIA_DIR)."
    )
    var mediaDirectory: String?

    @Option(
        help: ArgumentHelp(
            "postgres://user:password@host/db for PostgreSQL; absent means the SQLite file in the data directory (env CAMPUS_DATABASE).",
            valueName: "url"))
    var database: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error (env CAMPUS_LOG_LEVEL).")
    var logLevel: String?

    @Option(help: "Log format: text or json (env CAMPUS_LOG_FORMAT).")
    var logFormat: String?

    var resolvedDataDirectory: String {
        dataDirectory ?? Environment.value("CAMPUS_DATA_DIR") ?? "./campus-data"
    }

    var resolvedMediaDirectory: String {
        mediaDirectory ?? Environment.value("CAMPUS_MEDIA_DIR") ?? resolvedDataDirectory
    }

    func location() throws -> DatabaseLocation {
        do {
            return try DatabaseLocation.from(
                option: database ?? Environment.value("CAMPUS_DATABASE"), dataDirectory: resolvedDataDirectory)
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// Sets up logging once per process and returns the logger to use.
    func logger(defaultLevel: Logger.Level = .warning) -> Logger {
        let level =
            (logLevel ?? Environment.value("CAMPUS_LOG_LEVEL")).flatMap(Logger.Level.init(rawValue:)) ?? defaultLevel
        let json = (logFormat ?? Environment.value("CAMPUS_LOG_FORMAT")) == "json"
        LoggingSetup.once(json: json, level: level)
        return Logger(label: "campus")
    }

    func open(logger: Logger) async throws -> Database {
        try await Database.open(try location(), logger: logger)
    }
}

/// A command that could not do its work, for a reason the person running it can act on. Unlike a
/// `ValidationError` (a wrong option), it is printed without the usage.
/// The language the command speaks to people (``CommandLineLanguage``).
let t = CommandLineLanguage.translator()
