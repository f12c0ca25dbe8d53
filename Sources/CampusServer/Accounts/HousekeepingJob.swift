import Foundation

extension SharedJob {
    /// Periodic work of the accounts: delivering mail that could not go out at once and removing
    /// expired sessions, reset tokens, old failed logins and audit entries past their keeping
    /// time. One instance at a time, so that no mail goes out twice.
    static func housekeeping(outbox: Outbox, accounts: AccountService, audit: AuditService, interval: Duration)
        -> SharedJob
    {
        SharedJob(name: "housekeeping", interval: interval) {
            try await outbox.deliverPending()
            try await accounts.removeExpired()
            try await audit.removeOld()
        }
    }
}
