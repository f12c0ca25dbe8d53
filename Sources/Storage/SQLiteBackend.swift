import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization

/// Opens SQLite connections with the settings Campus relies on.
struct SQLiteSource: ConnectionPoolSource {
    let path: String
    let threadPool: NIOThreadPool
    /// Every connection opened, so that the thread pool (which closing a connection needs) goes
    /// only once they are all closed.
    let connections = OpenConnections()

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        let promise = eventLoop.makePromise(of: SQLiteConnection.self)
        connections.opening()
        promise.completeWithTask {
            let connection: SQLiteConnection
            do {
                connection = try await SQLiteConnection.open(
                    storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop
                ).get()
                connections.opened(connection)
            } catch {
                connections.opened(nil)
                throw error
            }
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
    private let source: SQLiteSource
    private let logger: Logger

    init(path: String, logger: Logger) async throws {
        // Never below notice: SQLiteKit logs every statement with its values at debug.
        let logger = logger.forDatabaseLibraries
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let threadPool = NIOThreadPool(numberOfThreads: 4)
        threadPool.start()
        let source = SQLiteSource(path: path, threadPool: threadPool)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        // WAL lets readers go on while one writer commits; it is a property of the file.
        do {
            let first = try await source.makeConnection(logger: logger, on: eventLoop).get()
            do {
                _ = try await retryingWhileBusy { try await first.query("PRAGMA journal_mode = WAL").get() }
                try await first.close().get()
            } catch {
                try? await first.close().get()
                throw error
            }
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
        self.threadPool = threadPool
        self.source = source
        self.logger = logger
        self.readers = EventLoopGroupConnectionPool(
            source: source, maxConnectionsPerEventLoop: 2, requestTimeout: .seconds(30), pruneInterval: nil,
            logger: logger, on: MultiThreadedEventLoopGroup.singleton)
        self.writer = EventLoopConnectionPool(
            source: source, maxConnections: 1, requestTimeout: .seconds(120), logger: logger, on: eventLoop)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let pool = readers.pool(for: MultiThreadedEventLoopGroup.singleton.any())
        let connection = try await pool.requestConnection().get()
        defer { pool.releaseConnection(connection) }
        return try await body(connection.sql(queryLogLevel: nil))
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let connection = try await writer.requestConnection().get()
        defer { writer.releaseConnection(connection) }
        let db = connection.sql(queryLogLevel: nil)
        try await db.raw("BEGIN IMMEDIATE").run()
        do {
            let value = try await body(db)
            try await db.raw("COMMIT").run()
            return value
        } catch {
            do {
                // Also when the task was cancelled (the server stopping): a cancelled ROLLBACK
                // would give the pool a connection still in the transaction.
                try await Task { try await db.raw("ROLLBACK").run() }.value
            } catch {
                logger.error("rollback failed", metadata: ["error": "\(LoggedError.text(error))"])
            }
            throw error
        }
    }

    /// Closes the pools, then the threads SQLite works on. ``Database/close()`` calls it once no
    /// operation is left: a connection given back to a pool that is closed is closed on those
    /// threads, so they must outlive every connection (one left open would trap in debug builds:
    /// "SQLiteConnection was not closed before deinitializing").
    func close() async {
        try? await readers.shutdownAsync()
        try? await writer.close().get()
        // A connection still opening when the pools shut down is closed by AsyncKit once it is
        // open, without waiting; its close needs the thread pool (after it, SQLiteNIO traps in
        // debug builds: "not closed before deinitializing"; a port in use at start met it 1 time
        // in 6). So the thread pool goes once every connection is closed (at most 10 s).
        await source.connections.waitUntilAllClosed()
        try? await threadPool.shutdownGracefully()
    }
}

/// The connections a ``SQLiteSource`` opened (held weakly) and those it is opening.
final class OpenConnections: Sendable {
    private struct Weak: @unchecked Sendable {
        weak var connection: SQLiteConnection?
    }

    private let state = Mutex<(opening: Int, opened: [Weak])>((0, []))

    func opening() { state.withLock { $0.opening += 1 } }

    /// One connection has opened (nil: its opening failed).
    func opened(_ connection: SQLiteConnection?) {
        state.withLock { state in
            state.opening -= 1
            state.opened.removeAll { $0.connection?.isClosed ?? true }
            if let connection { state.opened.append(Weak(connection: connection)) }
        }
    }

    func waitUntilAllClosed() async {
        for _ in 0..<1000 {
            let open = state.withLock { state in
                state.opening > 0 || state.opened.contains { !($0.connection?.isClosed ?? true) }
            }
            guard open else { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
