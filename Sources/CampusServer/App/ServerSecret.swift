import Accounts
import Foundation
import Logging
import Prometheus
import Storage

extension Database {

    /// The server's secret (for CSRF tokens), made on first start and shared by every instance.
    func serverSecret() async throws -> String {
        try await keptSetting(.serverSecret) { Token.make() + Token.make() }
    }

    /// The Web Push key pair (VAPID), made on first start and shared by every instance.
    func pushKey() async throws -> VAPIDKey {
        let kept = try await keptSetting(.pushKey) { VAPIDKey(privateKey: .init()).kept }
        guard let key = VAPIDKey(kept: kept) else { throw StoreError.damaged("push.vapid_key is no P-256 key") }
        return key
    }

    /// A setting made once, by whichever instance first needs it, and read by all.
    private func keptSetting(_ key: SettingKey, make: () -> String) async throws -> String {
        if let value = try await read({ db in try await SettingsStore(db).value(key) }) {
            return value
        }
        let candidate = make()
        do {
            return try await write { db in
                let store = SettingsStore(db)
                if let existing = try await store.value(key) { return existing }
                try await store.set(key, to: candidate)
                return candidate
            }
        } catch  where isUniqueViolation(error) {
            // Another instance made it at the same moment.
            guard let value = try await read({ db in try await SettingsStore(db).value(key) }) else {
                throw error
            }
            return value
        }
    }
}
