import Foundation
import Logging
import ServiceLifecycle
import Storage

/// Periodic work of a running server: delivering mail that could not go out at once and removing
/// expired sessions, reset tokens and old failed logins.
struct HousekeepingService: NamedService {
    let outbox: Outbox
    let accounts: AccountService
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await outbox.deliverPending()
                try await accounts.removeExpired()
            } catch {
                // Stopping (a start that failed cancels every service) is no failure to report.
                if error is CancellationError || Task.isCancelled { break }
                logger.warning("housekeeping failed", metadata: ["error": "\(ErrorLog.text(error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
