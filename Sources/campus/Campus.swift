import Accounts
import ArgumentParser
import CampusServer
import Foundation
import Localization
import Logging
import NIOCore
import Storage

struct Campus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "campus",
        abstract: "Timetable, listening and competitions for a university, in one self-hosted server.",
        discussion: """
            Every option can also be set with an environment variable: CAMPUS_PORT, CAMPUS_HOST, \
            CAMPUS_DATA_DIR, CAMPUS_DATABASE, CAMPUS_BASE_URL, CAMPUS_TIME_ZONE, CAMPUS_LIBRARY, \
            CAMPUS_LOG_LEVEL, CAMPUS_LOG_FORMAT. A flag wins over its variable.
            """,
        subcommands: [
            Serve.self, Migrate.self, UserCommand.self, ImportCommand.self, SyncCommand.self, ScheduleCommand.self,
            CalendarCommand.self, DemoCommand.self, LibraryCommand.self, PodcastCommand.self, StationCommand.self,
            JobsCommand.self, BackupCommand.self, RestoreCommand.self,
        ],
        defaultSubcommand: Serve.self)
}

enum Environment {
    static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}

enum LoggingSetup {
    nonisolated(unsafe) private static var done = false
    static func once(json: Bool, level: Logger.Level) {
        guard !done else { return }
        done = true
        LoggingSystem.bootstrap { label in
            var handler = CampusLogHandler(label: label, format: json ? .json : .text)
            handler.logLevel = level
            return handler
        }
    }
}

/// Runs `body` with the database open and closes it afterwards, whatever happens.
func withDatabase<T>(_ storage: StorageOptions, migrate: Bool = true, _ body: (Database, Logger) async throws -> T)
    async throws -> T
{
    let logger = storage.logger()
    let database = try await storage.open(logger: logger)
    do {
        if migrate { try await database.migrate(logger: logger) }
        let value = try await body(database, logger)
        await database.close()
        return value
    } catch {
        await database.close()
        throw error
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Campus server.")

    @OptionGroup var storage: StorageOptions

    @Option(help: "The address to listen on (default 127.0.0.1; env CAMPUS_HOST).")
    var host: String?

    @Option(help: "The port to listen on (default 8080; env CAMPUS_PORT).")
    var port: Int?

    @Option(
        name: .customLong("base-url"), help: "The URL users reach Campus by, for links in mail (env CAMPUS_BASE_URL).")
    var baseURL: String?

    @Option(
        name: .customLong("instance-url"),
        help: """
            The address other Campus instances reach this one by, to relay the radio sources it holds             (default http://HOST:PORT; env CAMPUS_INSTANCE_URL).
            """)
    var instanceURL: String?

    @Option(
        name: .customLong("time-zone"),
        help: "The institution's IANA time zone (default Europe/Minsk; env CAMPUS_TIME_ZONE).")
    var timeZone: String?

    @Flag(help: "Load the demo institution and accounts (see the README).")
    var demo = false

    @Option(
        help: """
            The institution's language, for visitors whose browser asks for none Campus speaks: \
            en, be, bg, ru or uk (default en, ru with --demo; env CAMPUS_LANGUAGE).
            """)
    var language: String?

    @Option(name: .customLong("bcrypt-cost"), help: "bcrypt's cost factor, 4–31 (default 12).")
    var bcryptCost: UInt8?

    @Flag(
        name: .customLong("trust-proxy"),
        help: "Take client addresses from X-Forwarded-For (only behind your own reverse proxy).")
    var trustProxy = false

    @Option(
        name: .customLong("iis-url"), help: "Sync the timetable from this IIS-compatible server (env CAMPUS_IIS_URL).")
    var iisURL: String?

    @Option(name: .customLong("iis-sync-hours"), help: "Hours between syncs (default 6).")
    var iisSyncHours: Double?

    @Option(
        name: .customLong("podcast-refresh-hours"),
        help: "Hours between readings of the podcasts' feeds, which find their new episodes (default 1).")
    var podcastRefreshHours: Double?

    @Option(
        help: ArgumentHelp(
            "Scan this folder of audio files into the catalogue before serving (env CAMPUS_LIBRARY).",
            valueName: "folder"))
    var library: String?

    @Flag(
        name: .customLong("allow-private-fetch"),
        help: "Let podcast feeds, covers and enclosures be on loopback, private and link-local addresses too.")
    var allowPrivateFetch = false

    @Option(
        name: .customLong("fetch-timeout"),
        help: "Seconds a podcast feed or cover may take to arrive in all (default 15).")
    var fetchTimeout: Int?

    @Option(
        name: .customLong("idle-timeout"),
        help: "Seconds after which a connection that sends nothing is closed (default 60).")
    var idleTimeout: Int?

    @Option(
        name: .customLong("max-connections-per-address"),
        help: "The most connections open at once from one client address (default 256).")
    var maxConnectionsPerAddress: Int?

    @Option(name: .customLong("max-transcodes"), help: "The most ffmpeg transcodes at once (default 8).")
    var maxTranscodes: Int?

    @OptionGroup var notifying: NotificationOptions
    @OptionGroup var administering: AdministrationOptions
    @OptionGroup var signingOn: SignOnOptions

    func validate() throws {
        if let fetchTimeout, !(1...600).contains(fetchTimeout) {
            throw ValidationError("--fetch-timeout must be 1–600 seconds.")
        }
        if let idleTimeout, !(1...3600).contains(idleTimeout) {
            throw ValidationError("--idle-timeout must be 1–3600 seconds.")
        }
        if let maxConnectionsPerAddress, !(1...100_000).contains(maxConnectionsPerAddress) {
            throw ValidationError("--max-connections-per-address must be 1–100000.")
        }
        if let maxTranscodes, !(1...1000).contains(maxTranscodes) {
            throw ValidationError("--max-transcodes must be 1–1000.")
        }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0–65535.") }
        if let cost = bcryptCost, !(4...31).contains(cost) { throw ValidationError("--bcrypt-cost must be 4–31.") }
        if let zone = timeZone ?? Environment.value("CAMPUS_TIME_ZONE"), TimeZone(identifier: zone) == nil {
            throw ValidationError("\"\(zone)\" is not an IANA time zone such as Europe/Minsk.")
        }
    }

    func run() async throws {
        let logger = storage.logger(defaultLevel: .info)
        var configuration = ServerConfiguration(database: try storage.location())
        configuration.host = host ?? Environment.value("CAMPUS_HOST") ?? "127.0.0.1"
        let port = port ?? Environment.value("CAMPUS_PORT").map({ Int($0) ?? -1 }) ?? 8080
        guard (0...65535).contains(port) else { throw ValidationError("CAMPUS_PORT must be a port number.") }
        configuration.port = port
        configuration.dataDirectory = storage.resolvedDataDirectory
        configuration.mediaDirectory = storage.resolvedMediaDirectory
        configuration.baseURL = baseURL ?? Environment.value("CAMPUS_BASE_URL")
        configuration.instanceURL = (instanceURL ?? Environment.value("CAMPUS_INSTANCE_URL")).map {
            var url = $0
            while url.hasSuffix("/") { url.removeLast() }
            return url
        }
        if let zone = timeZone ?? Environment.value("CAMPUS_TIME_ZONE") {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw ValidationError("\"\(zone)\" is not an IANA time zone such as Europe/Minsk.")
            }
            configuration.timeZone = timeZone
        }
        configuration.outbound.allowPrivateAddresses = allowPrivateFetch
        if let fetchTimeout { configuration.outbound.deadline = .seconds(fetchTimeout) }
        if let idleTimeout { configuration.limits.idleTimeout = .seconds(idleTimeout) }
        if let maxConnectionsPerAddress { configuration.limits.connectionsPerAddress = maxConnectionsPerAddress }
        if let maxTranscodes { configuration.limits.transcodes = maxTranscodes }
        configuration.demo = demo
        configuration.demoMedia = demo
        if let language = language ?? Environment.value("CAMPUS_LANGUAGE") { configuration.language = language }
        if let bcryptCost { configuration.bcryptCost = bcryptCost }
        configuration.trustForwardedFor = trustProxy
        if let text = iisURL ?? Environment.value("CAMPUS_IIS_URL") {
            guard let url = URL(string: text), url.scheme != nil else {
                throw ValidationError("--iis-url must be a URL.")
            }
            configuration.iisURL = url
        }
        if let hours = iisSyncHours {
            guard hours > 0 else { throw ValidationError("--iis-sync-hours must be more than 0.") }
            configuration.iisSyncInterval = .seconds(hours * 3600)
        }
        if let hours = podcastRefreshHours {
            guard hours > 0 else { throw ValidationError("--podcast-refresh-hours must be more than 0.") }
            configuration.podcastRefreshInterval = .seconds(hours * 3600)
        }
        configuration.libraryFolder = library ?? Environment.value("CAMPUS_LIBRARY")
        notifying.apply(to: &configuration)
        administering.apply(to: &configuration)
        try signingOn.apply(to: &configuration)
        let settings = configuration
        let app = try await CampusApp.make(
            configuration: configuration, logger: logger,
            onRunning: { port in
                let configuration = settings
                var url = configuration.resolvedBaseURL
                if configuration.baseURL == nil, port != configuration.port {
                    url = "http://\(configuration.host):\(port)"
                }
                var text = t("Campus is running. Open {url} in your browser.", ["url": url + "/"]) + "\n"
                if configuration.demo {
                    let accounts = Demo.accounts.map { "\($0.email) / \($0.password)" }.joined(separator: ", ")
                    text += t("Demo accounts: {accounts}", ["accounts": accounts]) + "\n"
                    // What the demo's media and station need and this machine lacks.
                    let lacks =
                        configuration.libraryFolder == nil
                        ? DemoMedia.lacks(mediaDirectory: configuration.resolvedMediaDirectory) : []
                    if lacks.contains(.ffmpeg) {
                        text +=
                            t("The demo has no media and no radio: ffmpeg is not installed (apt-get install ffmpeg).")
                            + "\n"
                    }
                    if lacks.contains(.speech) {
                        text +=
                            t("Spoken demo items are tones: espeak-ng is not installed (apt-get install espeak-ng).")
                            + "\n"
                    }
                }
                FileHandle.standardOutput.write(Data(text.utf8))
                let released = await StartupPages.release()
                logger.debug("start-up pages given back", metadata: ["mappings": "\(released)"])
            })
        do {
            try await app.runService()
        } catch {
            // The database is closed by then (the server's services end before this returns).
            if let failure = Self.listenFailure(error, host: configuration.host, port: configuration.port) {
                throw failure
            }
            throw error
        }
    }

    /// The address the server cannot listen on, said in one line instead of NIO's words
    /// ("bind(descriptor:ptr:bytes:): Address already in use (errno: 98)"); nil for other errors.
    static func listenFailure(_ error: any Error, host: String, port: Int) -> Failure? {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        if error is SocketAddressError {
            return Failure(
                t(
                    "Cannot listen on {address}: the host name cannot be resolved. Choose another --host.",
                    ["address": address]))
        }
        guard let error = error as? IOError, String(describing: error).hasPrefix("bind") else { return nil }
        switch error.errnoCode {
        case EADDRINUSE:
            return Failure(
                t(
                    "Cannot listen on {address}: another program listens there. Stop it, or choose another --port.",
                    ["address": address]))
        case EACCES:
            return Failure(
                t(
                    "Cannot listen on {address}: permission denied (ports below 1024 need privileges). Choose another --port.",
                    ["address": address]))
        case EADDRNOTAVAIL:
            return Failure(
                t(
                    "Cannot listen on {address}: this machine has no such address. Choose another --host.",
                    ["address": address]))
        default:
            return Failure(
                t("Cannot listen on {address}: {reason}.", ["address": address, "reason": String(describing: error)]))
        }
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply database migrations and list them.")

    @OptionGroup var storage: StorageOptions

    func run() async throws {
        try await withDatabase(storage, migrate: false) { database, logger in
            let applied = try await database.migrate(logger: logger)
            for migration in try await database.appliedMigrations() {
                let line = "\(migration.version) \(migration.name)"
                print(applied.contains(migration) ? t("{migration} (applied now)", ["migration": line]) : line)
            }
        }
    }
}

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Load the demo institution and accounts into the database.")

    @OptionGroup var storage: StorageOptions

    func run() async throws {
        try await withDatabase(storage) { database, logger in
            try await Demo.load(into: database, bcryptCost: 12, logger: logger)
            for account in Demo.accounts {
                print("\(account.email)\t\(account.password)\t\(account.role.rawValue)")
            }
        }
    }
}

extension Campus {
    /// What ArgumentParser's asynchronous `main()` does: parse the command line, run the command,
    /// and exit with a message on error. (Called from main.swift, where `main()` would resolve to
    /// the synchronous variant.)
    static func runFromCommandLine() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.runAsync()
            } else {
                try command.run()
            }
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("Error: \(failure.description)\n".utf8))
            exit(withError: ExitCode(failure.status))
        } catch {
            exit(withError: error)
        }
    }
}

extension AsyncParsableCommand {
    /// The asynchronous `run()` (a bare `run()` on a command that has both resolves to the
    /// synchronous one, which only prints help).
    mutating func runAsync() async throws {
        let body: (inout Self) async throws -> Void = { try await $0.run() }
        try await body(&self)
    }
}
