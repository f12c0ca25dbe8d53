import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit
import Synchronization

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
    /// The database was closed (the program is ending): nothing more is done with it.
    case closed

    public var description: String {
        switch self {
        case .unsupportedLocation(let value):
            "--database \"\(value)\" is neither a postgres:// URL nor an SQLite file path (ending in .sqlite or .db)."
        case .invalidPostgresURL(let reason): "The PostgreSQL URL is not usable: \(reason)"
        case .closed: "The database is closed."
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
    private let usage = Mutex(Usage())

    enum Backend: Sendable {
        case sqlite(SQLiteBackend)
        case postgres(PostgresBackend)
    }

    /// The operations under way, so that ``close()`` closes the connections only once none is
    /// left: a connection given back after its pool closed was left open (and trapped debug
    /// builds when a start failed: "SQLiteConnection was not closed before deinitializing").
    private struct Usage {
        var running = 0
        var closed = false
        /// Gave up waiting for the operations (``close()`` waits at most ``closeWait``).
        var gaveUp = false
        var idle: [CheckedContinuation<Void, Never>] = []
    }

    /// How long ``close()`` waits for the operations under way.
    static let closeWait: Duration = .seconds(10)

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
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try begin()
        defer { end() }
        switch backend {
        case .sqlite(let backend): return try await backend.read(body)
        case .postgres(let backend): return try await backend.read(body)
        }
    }

    /// Runs `body` in one transaction.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try begin()
        defer { end() }
        switch backend {
        case .sqlite(let backend): return try await backend.write(body)
        case .postgres(let backend): return try await backend.write(body)
        }
    }

    /// Whether the database answers a trivial query, within a second (PostgreSQL; at once while
    /// it is known to be down).
    public func ping() async -> Bool {
        switch backend {
        case .postgres(let backend):
            guard (try? begin()) != nil else { return false }
            defer { end() }
            return await backend.ping()
        case .sqlite:
            do {
                return try await read { db in
                    try await db.raw("SELECT 1 AS one").first(decodingColumn: "one", as: Int.self) == 1
                }
            } catch {
                logger.warning("database ping failed", metadata: ["error": "\(LoggedError.text(error))"])
                return false
            }
        }
    }

    /// Closes every connection, once the operations under way have ended (waiting at most
    /// ``closeWait``); later operations fail with ``DatabaseError/closed``. Call once, when the
    /// program ends (or its start fails).
    public func close() async {
        let running = usage.withLock { usage -> Int in
            usage.closed = true
            return usage.running
        }
        if running > 0 {
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(Self.closeWait)) {
                self.stopWaiting()
            }
            await withCheckedContinuation { (idle: CheckedContinuation<Void, Never>) in
                let now = usage.withLock { usage -> Bool in
                    if usage.running == 0 || usage.gaveUp { return true }
                    usage.idle.append(idle)
                    return false
                }
                if now { idle.resume() }
            }
            timer.cancel()
            let left = usage.withLock { $0.running }
            if left > 0 {
                logger.warning("the database is closed while operations still run", metadata: ["operations": "\(left)"])
            }
        }
        switch backend {
        case .sqlite(let backend): await backend.close()
        case .postgres(let backend): await backend.close()
        }
    }

    private func begin() throws {
        try usage.withLock { usage throws -> Void in
            if usage.closed { throw DatabaseError.closed }
            usage.running += 1
        }
    }

    private func end() {
        let idle = usage.withLock { usage -> [CheckedContinuation<Void, Never>] in
            usage.running -= 1
            guard usage.running == 0 else { return [] }
            let idle = usage.idle
            usage.idle = []
            return idle
        }
        for waiter in idle { waiter.resume() }
    }

    private func stopWaiting() {
        let idle = usage.withLock { usage -> [CheckedContinuation<Void, Never>] in
            usage.gaveUp = true
            let idle = usage.idle
            usage.idle = []
            return idle
        }
        for waiter in idle { waiter.resume() }
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

/// A `LIKE … ESCAPE '\'` pattern that finds `text` anywhere, with `%`, `_` and `\` in it taken
/// literally. Search keys are stored lowercased, so callers lowercase `text`.
func likePattern(_ text: String) -> String {
    "%"
        + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
        .replacingOccurrences(of: "_", with: "\\_") + "%"
}
