import Accounts
import Foundation
import InputRules
import Storage

/// The audit log as admins read it (issue 40), and its keeping time. The entries themselves are
/// written by the services whose actions they record, in those actions' transactions
/// (``AuditStore/record(_:)``).
struct AuditService: Sendable {
    let database: Database
    /// How long an entry is kept.
    let kept: Duration
    let now: @Sendable () -> Date

    /// The entries that match, newest first: admins only.
    func entries(_ filter: AuditFilter, limit: Int, offset: Int, by actor: Account) async throws -> (
        entries: [AuditEntry], total: Int
    ) {
        guard actor.role == .admin else { throw Refusal.notAllowed("Only admins read the audit log.") }
        return try await database.read { db in
            try await AuditStore(db).entries(filter, limit: limit, offset: offset)
        }
    }

    /// Removes the entries older than the keeping time (housekeeping).
    func removeOld() async throws {
        let before = now().addingTimeInterval(-TimeInterval(kept.components.seconds))
        try await database.write { db in try await AuditStore(db).removeEntries(before: before) }
    }
}
