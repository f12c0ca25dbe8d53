import Foundation
import Logging
import PostgresKit
import SQLiteKit

/// The database cannot be reached just now: no connection came within the wait, the connection
/// was lost, or the database is known to be down (and is probed until it answers again). What
/// was asked is not done; the client may try again in a moment (503 with `Retry-After`).
public struct DatabaseUnavailable: Error, Sendable, CustomStringConvertible {
    /// Why, for the log: never a value of the query.
    public var reason: String
    /// Seconds after which asking again is worth it.
    public var retryAfter: Int

    public init(_ reason: String, retryAfter: Int = 2) {
        self.reason = reason
        self.retryAfter = retryAfter
    }

    public var description: String { "the database cannot be reached: \(reason)" }

    /// `error` as a database that cannot be reached, when it is one: ours, a wait for a connection
    /// that ran out (SQLite's pool), SQLite's "database is locked" after its busy timeout, or a
    /// PostgreSQL connection that failed or was closed (``PostgresBackend`` turns those into
    /// ours; this catches what reaches the server another way).
    public static func of(_ error: any Error) -> DatabaseUnavailable? {
        if let error = error as? DatabaseUnavailable { return error }
        if error is ConnectionPoolError { return DatabaseUnavailable("no connection of the pool came in time") }
        if isBusy(error) { return DatabaseUnavailable("the database is locked by another process") }
        if let error = error as? PSQLError, PostgresFailure.isConnectionFailure(error) {
            return DatabaseUnavailable("the connection failed (\(error.code))")
        }
        return nil
    }
}

/// How PostgreSQL errors are told apart: a connection that failed is the database's
/// unavailability; anything else is the statement's.
enum PostgresFailure {
    /// Whether `error` says the connection failed or the server is not taking work: connecting,
    /// a connection closed by either side, a pool that was shut down, and the server's SQLSTATE
    /// classes 08 (connection exception), 53 (insufficient resources: too many connections) and
    /// 57P (the server shuts down, crashed or is starting).
    static func isConnectionFailure(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler:
            return true
        case .server:
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P")
        default:
            return false
        }
    }
}

extension Logger {
    /// This logger for the database's libraries (PostgresNIO, PostgresKit, SQLiteNIO, AsyncKit's
    /// pools): never below `notice`, whatever the server's level. At debug and trace they log
    /// every statement with its values and every message on the wire, rows included: session
    /// tokens' hashes, app passwords, source passwords.
    public var forDatabaseLibraries: Logger {
        var logger = self
        logger.logLevel = Swift.max(logger.logLevel, .notice)
        return logger
    }
}
