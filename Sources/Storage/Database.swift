import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

/// Where Campus keeps its data: an SQLite file (the embedded default) or a PostgreSQL server.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// Reads the `--database` option: absent means the SQLite file in the data directory.
    public static func from(option: String?, dataDirectory: String) throws -> DatabaseLocation {
        guard let option, !option.isEmpty else {
            return .sqlite(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent("campus.sqlite").path)
        }
        if option.hasPrefix("postgres://") || option.hasPrefix("postgresql://") {
            return .postgres(url: option)
        }
        if option.hasPrefix("sqlite://") {
            return .sqlite(path: String(option.dropFirst("sqlite://".count)))
        }
        if option.hasSuffix(".sqlite") || option.hasSuffix(".db") || option.hasPrefix("/") || option.hasPrefix(".") {
            return .sqlite(path: option)
        }
        throw DatabaseError.unsupportedLocation(option)
    }

    /// The location with any password hidden, for logs.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://…"
        }
    }
}

public enum DatabaseError: Error, CustomStringConvertible, Equatable {
    case unsupportedLocation(String)
    case invalidPostgresURL(String)

    public var description: String {
        switch self {
        case .unsupportedLocation(let value):
            "--database \"\(value)\" is neither a postgres:// URL nor an SQLite file path (ending in .sqlite or .db)."
        case .invalidPostgresURL(let reason): "The PostgreSQL URL is not usable: \(reason)"
        }
    }
}

/// The one way Campus talks to its database, the same for SQLite and PostgreSQL.
///
/// Reads run on a pool of connections. Every write runs in one transaction: it is committed
/// when the closure returns and rolled back when it throws. With SQLite, writes of this process
/// are serialized on one connection (SQLite allows one writer at a time; waiting in Swift is
/// cheaper than spinning in SQLite's busy handler), and `BEGIN IMMEDIATE` takes the write lock
/// up front so another process (the CLI while the server runs) waits instead of failing.
public final class Database: Sendable {
    public enum Kind: String, Sendable { case sqlite, postgres }

    public let kind: Kind
    public let location: DatabaseLocation
    let backend: Backend
    let logger: Logger

    enum Backend: Sendable {
        case sqlite(SQLiteBackend)
        case postgres(PostgresBackend)
    }

    private init(kind: Kind, location: DatabaseLocation, backend: Backend, logger: Logger) {
        self.kind = kind
        self.location = location
        self.backend = backend
        self.logger = logger
    }

    /// Opens the database at `location`, creating an SQLite file (and its folder) if needed.
    public static func open(_ location: DatabaseLocation, logger: Logger) async throws -> Database {
        switch location {
        case .sqlite(let path):
            let backend = try await SQLiteBackend(path: path, logger: logger)
            return Database(kind: .sqlite, location: location, backend: .sqlite(backend), logger: logger)
        case .postgres(let url):
            let backend = try PostgresBackend(url: url, logger: logger)
            return Database(kind: .postgres, location: location, backend: .postgres(backend), logger: logger)
        }
    }

    /// Runs queries that only read. They see data committed before each statement starts.
    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let backend): try await backend.read(body)
        case .postgres(let backend): try await backend.read(body)
        }
    }

    /// Runs `body` in one transaction.
    public func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let backend): try await backend.write(body)
        case .postgres(let backend): try await backend.write(body)
        }
    }

    /// Whether the database answers a trivial query.
    public func ping() async -> Bool {
        do {
            return try await read { db in
                try await db.raw("SELECT 1 AS one").first(decodingColumn: "one", as: Int.self) == 1
            }
        } catch {
            logger.warning("database ping failed", metadata: ["error": "\(String(reflecting: error))"])
            return false
        }
    }

    /// Closes every connection. Call once, when the program ends.
    public func close() async {
        switch backend {
        case .sqlite(let backend): await backend.close()
        case .postgres(let backend): await backend.close()
        }
    }
}

/// Whether `error` is a violation of a unique constraint (a duplicate key), in either database.
public func isUniqueViolation(_ error: any Error) -> Bool {
    if let error = error as? SQLiteError {
        switch error.reason {
        case .constraintUniqueFailed, .constraintPrimaryKeyFailed: return true
        case .constraint: return error.message.contains("UNIQUE")
        default: return false
        }
    }
    if let error = error as? PSQLError {
        return error.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw
    }
    return false
}

/// Whether `error` is SQLite's "database is locked": another process held the lock longer than
/// the busy timeout, or SQLite refused to wait (it does when waiting could deadlock).
func isBusy(_ error: any Error) -> Bool {
    guard let error = error as? SQLiteError else { return false }
    switch error.reason {
    case .busy, .busyInRecovery, .busyInSnapshot, .busyTimeout, .locked: return true
    default: return false
    }
}

/// Runs `body`, again (up to `attempts` times, a moment later) while SQLite says the database is
/// locked: for what several processes starting at once do (switching to WAL, migrating).
func retryingWhileBusy<T: Sendable>(attempts: Int = 5, _ body: () async throws -> T) async throws -> T {
    for attempt in 1... {
        do {
            return try await body()
        } catch  where isBusy(error) && attempt < attempts {
            try await Task.sleep(for: .milliseconds(50 * attempt))
        }
    }
    fatalError("unreachable")
}

// MARK: - SQLite

/// Opens SQLite connections with the settings Campus relies on.
struct SQLiteSource: ConnectionPoolSource {
    let path: String
    let threadPool: NIOThreadPool

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        let promise = eventLoop.makePromise(of: SQLiteConnection.self)
        promise.completeWithTask {
            let connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop
            ).get()
            do {
                // busy_timeout replaces SQLiteNIO's busy handler, which would retry forever. A
                // 32 MiB page cache (the default is 2 MiB; pages are taken only as needed) keeps a
                // big import's transaction in memory until it commits.
                for pragma in [
                    "PRAGMA busy_timeout = 10000", "PRAGMA foreign_keys = ON", "PRAGMA synchronous = FULL",
                    "PRAGMA cache_size = -32768",
                ] {
                    _ = try await connection.query(pragma).get()
                }
            } catch {
                try? await connection.close().get()
                throw error
            }
            return connection
        }
        return promise.futureResult
    }
}

/// `@unchecked Sendable`: AsyncKit's pools are not marked Sendable, but every public method of
/// `EventLoopConnectionPool` hops to the pool's own event loop before touching its state.
final class SQLiteBackend: @unchecked Sendable {
    private let threadPool: NIOThreadPool
    /// Readers: two connections on each event loop, so a read needs no hop to another thread.
    private let readers: EventLoopGroupConnectionPool<SQLiteSource>
    private let writer: EventLoopConnectionPool<SQLiteSource>
    private let logger: Logger

    init(path: String, logger: Logger) async throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let threadPool = NIOThreadPool(numberOfThreads: 4)
        threadPool.start()
        let source = SQLiteSource(path: path, threadPool: threadPool)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        // WAL lets readers go on while one writer commits; it is a property of the file.
        let first = try await source.makeConnection(logger: logger, on: eventLoop).get()
        do {
            _ = try await retryingWhileBusy { try await first.query("PRAGMA journal_mode = WAL").get() }
            try await first.close().get()
        } catch {
            try? await first.close().get()
            throw error
        }
        self.threadPool = threadPool
        self.logger = logger
        self.readers = EventLoopGroupConnectionPool(
            source: source, maxConnectionsPerEventLoop: 2, requestTimeout: .seconds(30), pruneInterval: nil,
            logger: logger, on: MultiThreadedEventLoopGroup.singleton)
        self.writer = EventLoopConnectionPool(
            source: source, maxConnections: 1, requestTimeout: .seconds(120), logger: logger, on: eventLoop)
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let pool = readers.pool(for: MultiThreadedEventLoopGroup.singleton.any())
        let connection = try await pool.requestConnection().get()
        defer { pool.releaseConnection(connection) }
        return try await body(connection.sql())
    }

    func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let connection = try await writer.requestConnection().get()
        defer { writer.releaseConnection(connection) }
        let db = connection.sql()
        try await db.raw("BEGIN IMMEDIATE").run()
        do {
            let value = try await body(db)
            try await db.raw("COMMIT").run()
            return value
        } catch {
            do {
                try await db.raw("ROLLBACK").run()
            } catch {
                logger.error("rollback failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            throw error
        }
    }

    func close() async {
        try? await readers.shutdownAsync()
        try? await writer.close().get()
        try? await threadPool.shutdownGracefully()
    }
}

// MARK: - PostgreSQL

final class PostgresBackend: Sendable {
    let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let logger: Logger

    init(url: String, logger: Logger) throws {
        let configuration: SQLPostgresConfiguration
        do {
            configuration = try SQLPostgresConfiguration(url: url)
        } catch {
            throw DatabaseError.invalidPostgresURL("\(error)")
        }
        let core = configuration.coreConfiguration
        guard let host = core.host else {
            throw DatabaseError.invalidPostgresURL("it names no host")
        }
        let tls: PostgresClient.Configuration.TLS =
            switch (core.tls.isEnforced, core.tls.isAllowed) {
            case (true, _): .require(core.tls.sslContext?.configuration ?? .makeClientConfiguration())
            case (_, true): .prefer(core.tls.sslContext?.configuration ?? .makeClientConfiguration())
            default: .disable
            }
        var clientConfiguration = PostgresClient.Configuration(
            host: host, port: core.port ?? 5432, username: core.username, password: core.password,
            database: core.database, tls: tls)
        clientConfiguration.options.maximumConnections = 16
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.runTask = Task { await client.run() }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await body(connection.sql())
        }
    }

    func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            let db = connection.sql()
            try await db.raw("BEGIN").run()
            do {
                let value = try await body(db)
                try await db.raw("COMMIT").run()
                return value
            } catch {
                do {
                    try await db.raw("ROLLBACK").run()
                } catch {
                    logger.error("rollback failed", metadata: ["error": "\(String(reflecting: error))"])
                }
                throw error
            }
        }
    }

    func close() async {
        runTask.cancel()
        await runTask.value
    }
}

/// A `LIKE … ESCAPE '\'` pattern that finds `text` anywhere, with `%`, `_` and `\` in it taken
/// literally. Search keys are stored lowercased, so callers lowercase `text`.
func likePattern(_ text: String) -> String {
    "%"
        + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
        .replacingOccurrences(of: "_", with: "\\_") + "%"
}
