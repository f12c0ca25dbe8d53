import Accounts
import Foundation
import Logging
import Storage

/// Demo data, so that a newcomer sees something at once: a demo institution and one account of
/// each role. Loading is idempotent: what exists already is left as it is. Later parts of Campus
/// add their demo data here.
public enum Demo {
    public struct Account: Sendable {
        public var email: String
        public var password: String
        public var firstName: String
        public var lastName: String
        public var role: Role
    }

    public static let institutionName = "Campus Demo University"

    /// The demo accounts (also listed in the README and on the login page of a demo server).
    public static let accounts: [Account] = [
        Account(
            email: "admin@campus.test", password: "campus-admin", firstName: "Alla", lastName: "Adminova", role: .admin),
        Account(
            email: "organizer@campus.test", password: "campus-organizer", firstName: "Oleg", lastName: "Orlov",
            role: .organizer),
        Account(
            email: "student@campus.test", password: "campus-student", firstName: "Sasha", lastName: "Studentova",
            role: .user),
    ]

    /// Loads the demo into `database`.
    public static func load(into database: Database, bcryptCost: UInt8, logger: Logger) async throws {
        let hasher = PasswordHasher(cost: bcryptCost)
        let now = Date()
        try await database.write { db in
            let store = AccountStore(db)
            if try await store.setting(Services.institutionNameKey) == nil {
                try await store.setSetting(Services.institutionNameKey, to: institutionName)
            }
        }
        for account in accounts {
            let exists = try await database.read { db in
                try await AccountStore(db).credentials(email: account.email) != nil
            }
            if exists { continue }
            let hash = try await hasher.hash(account.password)
            let user = try await database.write { db in
                let store = AccountStore(db)
                var user = try await store.createUser(
                    NewUser(
                        email: account.email, passwordHash: hash, firstName: account.firstName,
                        lastName: account.lastName, role: account.role), now: now)
                if account.role == .user {
                    try await store.updateProfile(
                        userID: user.id, firstName: user.firstName, lastName: user.lastName, group: "151004",
                        subgroup: 1, now: now)
                    user.group = "151004"
                }
                return user
            }
            logger.info("demo account created", metadata: ["email": "\(user.email)", "role": "\(user.role.rawValue)"])
        }
    }
}
