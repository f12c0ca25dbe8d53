import Accounts
import CampusTestSupport
import Foundation
import SQLKit
import Testing

@testable import Storage

/// The account store (users, sessions, reset tokens, login failures, the outbox, avatars), on
/// SQLite and on PostgreSQL.
@Suite struct AccountStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func newUser(_ email: String, role: Role = .user) -> NewUser {
        NewUser(email: email, passwordHash: "hash", firstName: "Ann", lastName: "Lee", role: role)
    }

    @Test(arguments: TestDatabases.kinds)
    func emailsAreUniqueInAnyLetterCase(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let user = try await database.write { db in
                try await AccountStore(db).createUser(newUser("Ann@Example.org"), now: now)
            }
            #expect(user.email == "Ann@Example.org")
            #expect(user.role == .user)
            #expect(user.createdAt == now)
            await #expect(throws: StoreError.emailTaken) {
                try await database.write { db in
                    try await AccountStore(db).createUser(newUser("ann@EXAMPLE.org"), now: now)
                }
            }
            let found = try await database.read { db in try await AccountStore(db).credentials(email: "ANN@example.ORG")
            }
            #expect(found?.user.id == user.id)
            #expect(found?.passwordHash == "hash")
            #expect(try await database.read { db in try await AccountStore(db).countUsers() } == 1)
        }
    }

    /// A row holding a case Campus never writes (a role, a metric, a kind changed by hand past
    /// the table's check) is damaged: the readers' `decodeCase` throws rather than making it some
    /// default case (a user, points, a track).
    @Test(arguments: TestDatabases.kinds)
    func aCaseCampusNeverWritesIsADamagedRow(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let row = try #require(
                try await database.read { db in
                    try await db.raw("SELECT 'wizard' AS role, 'admin' AS other_role").first()
                })
            #expect(throws: StoreError.damaged("role: \"wizard\" is no Role")) {
                _ = try row.decodeCase(column: "role", as: Role.self)
            }
            #expect(try row.decodeCase(column: "other_role", as: Role.self) == .admin)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func profilesAndRolesChange(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let later = now.addingTimeInterval(60)
            let user = try await database.write { db in
                let store = AccountStore(db)
                let user = try await store.createUser(newUser("ann@example.org"), now: now)
                try await store.updateProfile(
                    userID: user.id, firstName: "Анна", lastName: "Ли", group: "151004", subgroup: 2, now: later)
                try await store.setRole(userID: user.id, role: .organizer, now: later)
                return try await store.user(id: user.id)
            }
            #expect(user?.firstName == "Анна")
            #expect(user?.group == "151004")
            #expect(user?.subgroup == 2)
            #expect(user?.role == .organizer)
            #expect(user?.updatedAt == later)
            #expect(try await database.read { db in try await AccountStore(db).count(role: .organizer) } == 1)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func sessionsExpireAndCanBeEndedTogether(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let (user, keep) = try await database.write { db in
                let store = AccountStore(db)
                let user = try await store.createUser(newUser("ann@example.org"), now: now)
                let keep = try await store.createSession(
                    userID: user.id, tokenHash: "a", kind: .api, now: now, expiresAt: now.addingTimeInterval(100),
                    userAgent: "test", address: "127.0.0.1")
                _ = try await store.createSession(
                    userID: user.id, tokenHash: "b", kind: .web, now: now, expiresAt: now.addingTimeInterval(100),
                    userAgent: nil, address: nil)
                return (user, keep)
            }
            let found = try await database.read { db in try await AccountStore(db).session(tokenHash: "a", now: now) }
            #expect(found?.user.id == user.id)
            #expect(found?.session == keep)
            let expired = try await database.read { db in
                try await AccountStore(db).session(tokenHash: "a", now: now.addingTimeInterval(100))
            }
            #expect(expired == nil)
            try await database.write { db in
                try await AccountStore(db).deleteSessions(userID: user.id, keeping: keep.id)
            }
            #expect(
                try await database.read { db in try await AccountStore(db).session(tokenHash: "b", now: now) } == nil)
            #expect(
                try await database.read { db in try await AccountStore(db).session(tokenHash: "a", now: now) } != nil)
            try await database.write { db in try await AccountStore(db).deleteSession(tokenHash: "a") }
            #expect(try await database.read { db in try await AccountStore(db).sessionCount(userID: user.id) } == 0)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func resetTokensWorkOnceAndOnlyInTime(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let user = try await database.write { db in
                let store = AccountStore(db)
                let user = try await store.createUser(newUser("ann@example.org"), now: now)
                try await store.createPasswordReset(
                    tokenHash: "first", userID: user.id, now: now, expiresAt: now.addingTimeInterval(3600))
                try await store.createPasswordReset(
                    tokenHash: "second", userID: user.id, now: now, expiresAt: now.addingTimeInterval(3600))
                return user
            }
            let late = try await database.write { db in
                try await AccountStore(db).consumePasswordReset(tokenHash: "first", now: now.addingTimeInterval(3600))
            }
            #expect(late == nil)
            let used = try await database.write { db in
                try await AccountStore(db).consumePasswordReset(tokenHash: "first", now: now.addingTimeInterval(10))
            }
            #expect(used == user.id)
            let again = try await database.write { db in
                try await AccountStore(db).consumePasswordReset(tokenHash: "first", now: now.addingTimeInterval(20))
            }
            #expect(again == nil)
            // Using one link ends the others.
            let other = try await database.write { db in
                try await AccountStore(db).consumePasswordReset(tokenHash: "second", now: now.addingTimeInterval(30))
            }
            #expect(other == nil)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func loginFailuresAreCountedPerAccountAndAddress(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            try await database.write { db in
                let store = AccountStore(db)
                try await store.recordLoginFailure(
                    accountKey: "ann", address: "10.0.0.1", at: now.addingTimeInterval(-2000))
                try await store.recordLoginFailure(
                    accountKey: "ann", address: "10.0.0.1", at: now.addingTimeInterval(-10))
                try await store.recordLoginFailure(
                    accountKey: "bob", address: "10.0.0.1", at: now.addingTimeInterval(-5))
                try await store.recordLoginFailure(
                    accountKey: "ann", address: "10.0.0.2", at: now.addingTimeInterval(-1))
            }
            let failures = try await database.read { db in
                try await AccountStore(db).loginFailures(
                    accountKey: "ann", address: "10.0.0.1", since: now.addingTimeInterval(-900))
            }
            #expect(failures.account.count == 2)
            #expect(failures.address.count == 2)
            try await database.write { db in try await AccountStore(db).clearLoginFailures(accountKey: "ann") }
            let after = try await database.read { db in
                try await AccountStore(db).loginFailures(
                    accountKey: "ann", address: "10.0.0.1", since: now.addingTimeInterval(-900))
            }
            #expect(after.account.isEmpty)
            #expect(after.address.count == 1)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func outboxClaimsDeliverAndForgetBodies(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let id = try await database.write { db in
                try await AccountStore(db).enqueueMail(
                    recipient: "ann@example.org", subject: "Hi", body: "secret link", now: now)
            }
            let pending = try await database.read { db in try await AccountStore(db).pendingMail(limit: 10) }
            #expect(pending.map(\.body) == ["secret link"])
            let first = try await database.write { db in
                try await AccountStore(db).claimMail(id: id, now: now, staleBefore: now.addingTimeInterval(-300))
            }
            let second = try await database.write { db in
                try await AccountStore(db).claimMail(id: id, now: now, staleBefore: now.addingTimeInterval(-300))
            }
            #expect(first && !second)
            try await database.write { db in try await AccountStore(db).markMailFailed(id: id, error: "smtp down") }
            #expect(
                try await database.read { db in try await AccountStore(db).pendingMail(limit: 10) }.first?.attempts == 1
            )
            try await database.write { db in try await AccountStore(db).markMailSent(id: id, now: now) }
            #expect(try await database.read { db in try await AccountStore(db).pendingMail(limit: 10) }.isEmpty)
            let body = try await database.read { db in
                try await db.raw("SELECT body FROM outbox WHERE id = \(bind: id)").first(
                    decodingColumn: "body", as: String.self)
            }
            #expect(body == "(delivered)")
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func deletingAnAccountDeletesWhatIsOnlyItsOwn(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let (ann, bob) = try await database.write { db in
                let store = AccountStore(db)
                let ann = try await store.createUser(newUser("ann@example.org"), now: now)
                let bob = try await store.createUser(newUser("bob@example.org"), now: now)
                for user in [ann, bob] {
                    _ = try await store.createSession(
                        userID: user.id, tokenHash: "t\(user.id)", kind: .api, now: now,
                        expiresAt: now.addingTimeInterval(100), userAgent: nil, address: nil)
                    try await store.createPasswordReset(
                        tokenHash: "r\(user.id)", userID: user.id, now: now, expiresAt: now.addingTimeInterval(100))
                    try await store.setAvatar(userID: user.id, contentType: "image/png", data: [1, 2, 3], now: now)
                }
                return (ann, bob)
            }
            try await database.write { db in try await AccountStore(db).deleteUser(id: ann.id) }
            for table in ["sessions", "password_resets", "avatars"] {
                let left = try await database.read { db in
                    try await db.raw("SELECT user_id FROM \(unsafeRaw: table)").all(
                        decodingColumn: "user_id", as: Int64.self)
                }
                #expect(left == [bob.id], "\(table)")
            }
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func avatarsKeepTheirBytes(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let user = try await database.write { db in
                let store = AccountStore(db)
                let user = try await store.createUser(newUser("ann@example.org"), now: now)
                try await store.setAvatar(userID: user.id, contentType: "image/png", data: [0], now: now)
                try await store.setAvatar(userID: user.id, contentType: "image/webp", data: bytes, now: now)
                return user
            }
            let avatar = try await database.read { db in try await AccountStore(db).avatar(userID: user.id) }
            #expect(avatar?.data == bytes)
            #expect(avatar?.contentType == "image/webp")
            #expect(
                try await database.read { db in try await AccountStore(db).user(id: user.id) }?.avatarUpdatedAt == now)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func searchTreatsWildcardsLiterally(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            try await database.write { db in
                let store = AccountStore(db)
                _ = try await store.createUser(newUser("ann_lee@example.org"), now: now)
                _ = try await store.createUser(newUser("annxlee@example.org"), now: now)
                _ = try await store.createUser(
                    NewUser(
                        email: "bob@example.org", passwordHash: "h", firstName: "Bob", lastName: "100%", role: .admin),
                    now: now)
            }
            let underscore = try await database.read { db in
                try await AccountStore(db).users(search: "ann_", role: nil, limit: 10, offset: 0)
            }
            #expect(underscore.users.map(\.email) == ["ann_lee@example.org"])
            let percent = try await database.read { db in
                try await AccountStore(db).users(search: "0%", role: nil, limit: 10, offset: 0)
            }
            #expect(percent.users.map(\.email) == ["bob@example.org"])
            let admins = try await database.read { db in
                try await AccountStore(db).users(search: nil, role: .admin, limit: 10, offset: 0)
            }
            #expect(admins.total == 1)
            let page = try await database.read { db in
                try await AccountStore(db).users(search: "EXAMPLE", role: nil, limit: 2, offset: 2)
            }
            #expect(page.total == 3)
            #expect(page.users.count == 1)
        }
    }
}
