import NIOCore
import PostgresKit
import Synchronization

/// A connection of PostgresNIO's pool, leased by a task of its own and lent to the operation that
/// asked for it. PostgresNIO ends the wait for a lease only when the waiting task is cancelled
/// (while PostgreSQL cannot be reached, its pool queues leases for a minute); leasing in a child
/// task lets the operation stop waiting at its deadline, while its statements still run in its
/// own task.
///
/// The lender calls ``lend(_:)`` with the leased connection and is held there until the borrower
/// gives it back (``giveBack()``); ``borrow(within:on:)`` waits for it, at most `within`. Once the
/// borrower has given up (``end(_:)``: the deadline, a cancellation, or the lease failing), a
/// connection lent later goes straight back to the pool.
final class ConnectionLoan: Sendable {
    private enum State {
        case open
        case borrowerWaiting(CheckedContinuation<PostgresConnection, any Error>)
        case offered(PostgresConnection, CheckedContinuation<Void, Never>)
        case lent(CheckedContinuation<Void, Never>)
        case ended(any Error)
        case returned
    }

    private enum LendAction {
        case hold
        case handOver(CheckedContinuation<PostgresConnection, any Error>)
        case giveBackAtOnce
    }

    private enum BorrowAction {
        case wait
        case take(PostgresConnection)
        case fail(any Error)
    }

    private let state = Mutex<State>(.open)

    /// Lends `connection` (the lender's task holds the lease meanwhile) and returns once it is
    /// given back, or at once when nobody waits for it any more.
    func lend(_ connection: PostgresConnection) async {
        await withCheckedContinuation { (back: CheckedContinuation<Void, Never>) in
            let action = state.withLock { state -> LendAction in
                switch state {
                case .open:
                    state = .offered(connection, back)
                    return .hold
                case .borrowerWaiting(let borrower):
                    state = .lent(back)
                    return .handOver(borrower)
                case .offered, .lent, .ended, .returned:
                    return .giveBackAtOnce
                }
            }
            switch action {
            case .hold: break
            case .handOver(let borrower): borrower.resume(returning: connection)
            case .giveBackAtOnce: back.resume()
            }
        }
    }

    /// The lent connection, waiting at most `wait` for it (then ``DatabaseUnavailable``).
    func borrow(within wait: Duration, on eventLoop: any EventLoop) async throws -> PostgresConnection {
        let timer = eventLoop.scheduleTask(in: TimeAmount(wait)) {
            self.end(DatabaseUnavailable("no connection came within \(wait)"))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (borrower: CheckedContinuation<PostgresConnection, any Error>) in
                let action = state.withLock { state -> BorrowAction in
                    switch state {
                    case .open:
                        state = .borrowerWaiting(borrower)
                        return .wait
                    case .offered(let connection, let back):
                        state = .lent(back)
                        return .take(connection)
                    case .ended(let error):
                        return .fail(error)
                    case .borrowerWaiting, .lent, .returned:
                        return .fail(CancellationError())
                    }
                }
                switch action {
                case .wait: break
                case .take(let connection): borrower.resume(returning: connection)
                case .fail(let error): borrower.resume(throwing: error)
                }
            }
        } onCancel: {
            self.end(CancellationError())
        }
    }

    /// The borrower stops waiting (or the lease failed): a waiting borrower gets `error`.
    func end(_ error: any Error) {
        let borrower = state.withLock { state -> CheckedContinuation<PostgresConnection, any Error>? in
            switch state {
            case .open:
                state = .ended(error)
                return nil
            case .borrowerWaiting(let borrower):
                state = .ended(error)
                return borrower
            case .offered, .lent, .ended, .returned:
                return nil
            }
        }
        borrower?.resume(throwing: error)
    }

    /// The borrower is done with the connection: the lender's task gives it back to the pool.
    func giveBack() {
        let back = state.withLock { state -> CheckedContinuation<Void, Never>? in
            switch state {
            case .lent(let back), .offered(_, let back):
                state = .returned
                return back
            case .open, .borrowerWaiting, .ended, .returned:
                state = .returned
                return nil
            }
        }
        back?.resume()
    }
}

/// The pool could not give a connection (its lease failed before the operation began).
struct NoConnection: Error {
    var underlying: any Error
}
