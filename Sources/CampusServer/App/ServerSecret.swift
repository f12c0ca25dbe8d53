import Accounts
import Foundation
import Logging
import Prometheus
import Storage

extension Database {
    static let secretKey = "server.secret"

    /// The server's secret (for CSRF tokens), made on first start and shared by every instance.
    func serverSecret() async throws -> String {
        if let secret = try await read({ db in try await AccountStore(db).setting(Self.secretKey) }) {
            return secret
        }
        let candidate = Token.make() + Token.make()
        do {
            return try await write { db in
                let store = AccountStore(db)
                if let existing = try await store.setting(Self.secretKey) { return existing }
                try await store.setSetting(Self.secretKey, to: candidate)
                return candidate
            }
        } catch  where isUniqueViolation(error) {
            // Another instance made it at the same moment.
            guard let secret = try await read({ db in try await AccountStore(db).setting(Self.secretKey) }) else {
                throw error
            }
            return secret
        }
    }
}
