import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import Synchronization

/// PostgreSQL through PostgresNIO's pool, with every wait bounded, so that an outage of the
/// database is answered 503 at once instead of holding requests (a 45-second restart held them
/// for 53 s: the pool queues leases while it cannot connect, for up to a minute):
///
/// - an operation waits at most ``connectionWait`` for a connection (``ConnectionLoan``);
///   connecting, TLS and signing in take at most ``connectTimeout``;
/// - a connection that fails, or an operation that has waited ``probeWhenWaiting`` for one, has
///   the database probed: a connection of its own, signed in and answering `SELECT 1` within
///   ``probeDeadline``. A database that answers is only busy, and the operation waits on; when it
///   does not answer (``probesBeforeDown`` times, ``probeInterval`` apart), the database is down:
///   the operations waiting and every later one fail at once with ``DatabaseUnavailable`` (503
///   with `Retry-After`), the connections still leased are closed (a statement waiting on a
///   server that stopped answering fails at once), and the probe runs every ``probeInterval``;
///   once it answers, a new pool replaces the old one (whose attempts to reconnect back off to
///   up to a minute) and operations go on;
/// - a statement that holds its connection ``suspectAfter`` has the database probed too (a
///   database that stopped answering leaves statements waiting for ever);
/// - ``ping()`` (readiness) answers within a second;
/// - a statement PostgresNIO lost with its closed connection is given up on
///   (``watched(_:deadline:watched:_:)``).
final class PostgresBackend: Sendable {
    /// The most an operation waits for a connection while the database answers (a busy one:
    /// every connection of the pool in use, or connecting slowly).
    static let connectionWait: Duration = .seconds(10)
    /// An operation that has waited this long for a connection has the database probed; when it
    /// does not answer, the operations waiting fail at once.
    static let probeWhenWaiting: Duration = .seconds(1)
    static let connectTimeout: Duration = .seconds(2)
    static let probeDeadline: Duration = .seconds(2)
    /// How long readiness (``ping()``) waits for the database.
    static let pingDeadline: Duration = .seconds(1)
    /// Probes that fail in a row before the database counts as down (a busy machine may be slow
    /// to answer one; going down closes every connection in use).
    static let probesBeforeDown = 3
    static let probeInterval: Duration = .milliseconds(250)
    static let suspectAfter: Duration = .seconds(5)

    private enum Health { case up, suspect, down }

    private struct State {
        var client: PostgresClient
        var run: Task<Void, Never>
        /// Runs of pools that were replaced, ended at ``close()``.
        var retired: [Task<Void, Never>] = []
        var health = Health.up
        var downSince: ContinuousClock.Instant?
        var probe: Task<Void, Never>?
        /// Every connection an operation holds, to close when the database stops answering.
        var leased: [ObjectIdentifier: PostgresConnection] = [:]
        /// The loans operations wait for, to end when the database stops answering.
        var waiting: [ObjectIdentifier: ConnectionLoan] = [:]
        var closed = false
    }

    private let clientConfiguration: PostgresClient.Configuration
    private let probeConfiguration: PostgresConnection.Configuration
    /// Campus's own words (outages and recoveries), and the libraries' logger (never below notice).
    private let logger: Logger
    private let libraryLogger: Logger
    private let state: Mutex<State>

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
        clientConfiguration.options.connectTimeout = Self.connectTimeout
        var probeConfiguration = core
        probeConfiguration.options.connectTimeout = TimeAmount(Self.probeDeadline)
        self.clientConfiguration = clientConfiguration
        self.probeConfiguration = probeConfiguration
        let libraryLogger = logger.forDatabaseLibraries
        self.logger = logger
        self.libraryLogger = libraryLogger
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: libraryLogger)
        self.state = Mutex(State(client: client, run: Task { await client.run() }))
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withConnection(wait: Self.connectionWait) { connection in
            try await body(connection.sql(queryLogLevel: nil))
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withConnection(wait: Self.connectionWait) { connection in
            let db = connection.sql(queryLogLevel: nil)
            try await db.raw("BEGIN").run()
            do {
                let value = try await body(db)
                try await db.raw("COMMIT").run()
                return value
            } catch {
                // A connection that is gone took its transaction with it.
                if !connection.isClosed {
                    do {
                        // Also when the task was cancelled (``SQLiteBackend/write(_:)``).
                        try await Task { try await db.raw("ROLLBACK").run() }.value
                    } catch {
                        self.logger.error("rollback failed", metadata: ["error": "\(LoggedError.text(error))"])
                    }
                }
                throw error
            }
        }
    }

    /// Whether the database answers `SELECT 1` within a second (false at once while it is down).
    func ping() async -> Bool {
        do {
            return try await withConnection(wait: Self.pingDeadline, deadline: Self.pingDeadline) { connection in
                try await connection.sql(queryLogLevel: nil).raw("SELECT 1 AS one")
                    .first(decodingColumn: "one", as: Int.self) == 1
            }
        } catch {
            return false
        }
    }

    /// Runs `body` with a connection of the pool, waiting at most `wait` for one. With a
    /// `deadline`, a `body` still running then has its connection closed (and fails); otherwise,
    /// when `watched`, one running ``suspectAfter`` has the database probed.
    func withConnection<T: Sendable>(
        wait: Duration, deadline: Duration? = nil, watched: Bool = true,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let client = try state.withLock { state throws -> PostgresClient in
            if state.closed { throw DatabaseError.closed }
            if state.health == .down { throw DatabaseUnavailable("it is down and probed until it answers") }
            return state.client
        }
        let loan = ConnectionLoan()
        let loanKey = ObjectIdentifier(loan)
        state.withLock { $0.waiting[loanKey] = loan }
        do {
            return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
                group.addTask {
                    do {
                        try await client.withConnection { connection in await loan.lend(connection) }
                    } catch {
                        loan.end(NoConnection(underlying: error))
                    }
                }
                let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
                let probe = eventLoop.scheduleTask(in: TimeAmount(min(wait, Self.probeWhenWaiting))) {
                    self.suspect("an operation waited \(min(wait, Self.probeWhenWaiting)) for a connection")
                }
                let connection: PostgresConnection
                do {
                    connection = try await loan.borrow(within: wait, on: eventLoop)
                } catch {
                    probe.cancel()
                    state.withLock { _ = $0.waiting.removeValue(forKey: loanKey) }
                    throw error
                }
                probe.cancel()
                let key = ObjectIdentifier(connection)
                state.withLock { state in
                    state.waiting.removeValue(forKey: loanKey)
                    state.leased[key] = connection
                }
                defer {
                    state.withLock { _ = $0.leased.removeValue(forKey: key) }
                    loan.giveBack()
                }
                return try await self.watched(connection, deadline: deadline, watched: watched, body)
            }
        } catch {
            throw failure(error)
        }
    }

    /// What an operation's error means: a connection that failed or did not come is the
    /// database's unavailability (and has it probed); anything else is the statement's own.
    private func failure(_ error: any Error) -> any Error {
        switch error {
        case let error as DatabaseUnavailable:
            suspect(error.reason)
            return error
        case let error as NoConnection:
            if error.underlying is CancellationError { return error.underlying }
            suspect("the pool gave no connection")
            return DatabaseUnavailable("the pool gave no connection")
        case let error as PSQLError where PostgresFailure.isConnectionFailure(error):
            suspect("a connection failed (\(error.code))")
            return DatabaseUnavailable("a connection failed (\(error.code))")
        default:
            return error
        }
    }

    // MARK: Health

    /// Something went wrong with a connection: the database is probed once (operations go on
    /// meanwhile); if it does not answer, it is down.
    func suspect(_ reason: String) {
        state.withLock { state in
            guard !state.closed, state.health == .up else { return }
            state.health = .suspect
            state.probe = Task { await self.checkSuspicion(reason) }
        }
    }

    private func checkSuspicion(_ reason: String) async {
        // Several times, a moment apart, before the database counts as down (which closes the
        // connections in use): a probe that came too slowly once is no outage.
        for attempt in 0..<Self.probesBeforeDown {
            if attempt > 0 { try? await Task.sleep(for: Self.probeInterval) }
            if Task.isCancelled { return }
            if await probeOnce() {
                state.withLock { state in
                    if state.health == .suspect { state.health = .up }
                }
                return
            }
        }
        goDown(reason)
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.probeInterval)
            if Task.isCancelled { return }
            if await probeOnce() {
                await replacePool()
                return
            }
        }
    }

    private func goDown(_ reason: String) {
        let (leased, waiting) = state.withLock { state -> ([PostgresConnection], [ConnectionLoan]) in
            state.health = .down
            state.downSince = ContinuousClock.now
            return (Array(state.leased.values), Array(state.waiting.values))
        }
        // Operations waiting for a connection fail now, not at the end of their wait.
        for loan in waiting { loan.end(DatabaseUnavailable("it stopped answering")) }
        logger.warning(
            "the database cannot be reached; requests are answered 503 until it answers again",
            metadata: ["reason": "\(reason)"])
        // A statement waiting on a server that stopped answering would wait for ever.
        for connection in leased {
            let _: EventLoopFuture<Void> = connection.close()
        }
    }

    /// A connection of its own, signed in and answering `SELECT 1`, all within ``probeDeadline``.
    private func probeOnce() async -> Bool {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: probeConfiguration, id: 0, logger: libraryLogger)
        } catch {
            return false
        }
        let timer = connection.eventLoop.scheduleTask(in: TimeAmount(Self.probeDeadline)) {
            let _: EventLoopFuture<Void> = connection.close()
        }
        let answered: Bool
        do {
            try await connection.sql(queryLogLevel: nil).raw("SELECT 1").run()
            answered = true
        } catch {
            answered = false
        }
        timer.cancel()
        // Closed before it goes (PostgresNIO traps on a connection left open), also when the
        // deadline closed it already.
        try? await connection.close()
        return answered
    }

    /// The database answers again: a new pool (the old one's attempts to reconnect have backed
    /// off, up to a minute apart, and it may refuse leases for a while), and operations go on.
    private func replacePool() async {
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: libraryLogger)
        let run = Task { await client.run() }
        // Let the pool start running before anyone leases from it.
        try? await Task.sleep(for: .milliseconds(10))
        let (old, since) = state.withLock { state -> (Task<Void, Never>?, ContinuousClock.Instant?) in
            guard !state.closed else { return (run, nil) }
            let old = state.run
            state.retired.append(old)
            state.client = client
            state.run = run
            state.health = .up
            state.probe = nil
            let since = state.downSince
            state.downSince = nil
            return (old, since)
        }
        old?.cancel()
        if let since {
            logger.notice(
                "the database answers again", metadata: ["down_for": "\(ContinuousClock.now - since)"])
        }
    }

    func close() async {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.closed = true
            return [state.run] + state.retired + (state.probe.map { [$0] } ?? [])
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}
