import Accounts
import Foundation
import Logging
import Prometheus
import Storage

extension Database {

    /// The server's secret (for CSRF tokens), made on first start and shared by every instance.
    func serverSecret() async throws -> String {
        if let secret = try await read({ db in try await SettingsStore(db).value(.serverSecret) }) {
            return secret
        }
        let candidate = Token.make() + Token.make()
        do {
            return try await write { db in
                let store = SettingsStore(db)
                if let existing = try await store.value(.serverSecret) { return existing }
                try await store.set(.serverSecret, to: candidate)
                return candidate
            }
        } catch  where isUniqueViolation(error) {
            // Another instance made it at the same moment.
            guard let secret = try await read({ db in try await SettingsStore(db).value(.serverSecret) }) else {
                throw error
            }
            return secret
        }
    }
}
