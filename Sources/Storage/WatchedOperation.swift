import NIOCore
import PostgresKit
import Synchronization

extension PostgresBackend {
    /// How often a running operation's connection is looked at.
    static let watchInterval: Duration = .seconds(1)

    /// Runs `body` on `connection` in a task of its own, watched every ``watchInterval``:
    ///
    /// - with a `deadline`, the connection is closed then (and `body` fails);
    /// - when `watched` (and without a deadline), every ``suspectAfter`` it runs has the database
    ///   probed;
    /// - once the connection has been seen closed twice in a row and `body` still runs, the
    ///   operation stops waiting for it (``DatabaseUnavailable``) and leaves its task behind.
    ///
    /// Why the last: PostgresNIO 1.33 writes a statement to its channel with
    /// `channel.write(_, promise: nil)`, so a statement written just as the connection closes (a
    /// restart of PostgreSQL, `pg_terminate_backend`) never has its promise completed, and the
    /// operation would wait for ever (1 run in 25 of `connectionsEndedByTheServerComeBackWithinASecond`
    /// under load). A closed connection fails the statements it knows at once, so a statement
    /// still waiting a second later is one of those.
    func watched<T: Sendable>(
        _ connection: PostgresConnection, deadline: Duration?, watched: Bool,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let outcome = OperationOutcome<T>()
        let task = Task {
            do {
                outcome.finish(.success(try await body(connection)))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        let closing = deadline.map { deadline in
            connection.eventLoop.scheduleTask(in: TimeAmount(deadline)) {
                let _: EventLoopFuture<Void> = connection.close()
                self.suspect("no answer within \(deadline)")
            }
        }
        let ticksToSuspect = Int(Self.suspectAfter / Self.watchInterval)
        let watch = connection.eventLoop.scheduleRepeatedTask(
            initialDelay: TimeAmount(Self.watchInterval), delay: TimeAmount(Self.watchInterval)
        ) { _ in
            let (ticks, closedTicks) = outcome.tick(connectionClosed: connection.isClosed)
            if closedTicks >= 2 {
                outcome.finish(.failure(DatabaseUnavailable("a statement was lost with its closed connection")))
            } else if watched, deadline == nil, ticks % ticksToSuspect == 0 {
                self.suspect("a statement has run for \(Self.suspectAfter) or more")
            }
        }
        defer {
            watch.cancel()
            closing?.cancel()
        }
        return try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            task.cancel()
        }
    }
}

/// What an operation ended with, given to the one who waits for it once, whichever comes first:
/// the operation's own end or the watch's giving up on it.
final class OperationOutcome<T: Sendable>: Sendable {
    private enum State {
        case running
        case waiting(CheckedContinuation<T, any Error>)
        case ended(Result<T, any Error>)
        case taken
    }

    private let state = Mutex<State>(.running)
    /// Ticks of the watch, and those in a row that found the connection closed.
    private let ticks = Mutex<(all: Int, closed: Int)>((0, 0))

    func finish(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state {
            case .running:
                state = .ended(result)
                return nil
            case .waiting(let waiter):
                state = .taken
                return waiter
            case .ended, .taken:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<T, any Error>) in
            let ready = state.withLock { state -> Result<T, any Error>? in
                switch state {
                case .running:
                    state = .waiting(waiter)
                    return nil
                case .ended(let result):
                    state = .taken
                    return result
                case .waiting, .taken:
                    return .failure(CancellationError())
                }
            }
            if let ready { waiter.resume(with: ready) }
        }
    }

    /// Counts a tick of the watch; returns the ticks so far and those in a row with the connection
    /// closed.
    func tick(connectionClosed: Bool) -> (all: Int, closed: Int) {
        ticks.withLock { ticks in
            ticks.all += 1
            ticks.closed = connectionClosed ? ticks.closed + 1 : 0
            return ticks
        }
    }
}
