import Accounts
import CampusTestSupport
import Foundation
import Testing

@testable import Storage

/// OpenID Connect sign-in's rows (issue 40), on both databases: a started sign-in comes back
/// once, a provider's person links to one account, a link offer holds for its time and is taken
/// once, and a session signed in at the provider says so and keeps its ID token.
@Suite struct SignOnStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: TestDatabases.kinds)
    func aStartedSignInComesBackOnce(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let start = SignOnStore.Start(
                state: "state-1", nonce: "nonce", verifier: "verifier", browser: "browser", next: "/timetable",
                createdAt: now)
            try await database.write { db in try await SignOnStore(db).save(start) }
            let first = try await database.write { db in try await SignOnStore(db).takeStart(state: "state-1") }
            let second = try await database.write { db in try await SignOnStore(db).takeStart(state: "state-1") }
            #expect(first == start)
            #expect(second == nil)
            // Started sign-ins that never came back go with housekeeping.
            try await database.write { [now] db in
                try await SignOnStore(db).save(
                    SignOnStore.Start(
                        state: "old", nonce: "n", verifier: "v", browser: "b", next: "/", createdAt: now - 700))
                try await SignOnStore(db).removeStale(before: now - 600)
            }
            let old = try await database.write { db in try await SignOnStore(db).takeStart(state: "old") }
            #expect(old == nil)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aPersonLinksToOneAccountAndAnOfferIsTakenOnce(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let ann = try await database.write { [now] db in
                try await AccountStore(db).createUser(
                    NewUser(
                        email: "ann@uni.example", passwordHash: "!", firstName: "Ann", lastName: "Lee", role: .user),
                    now: now)
            }
            try await database.write { [now] db in
                try await SignOnStore(db).link(issuer: "https://id.example", subject: "u-1", userID: ann.id, now: now)
            }
            let found = try await database.read { db in
                try await SignOnStore(db).linkedUser(issuer: "https://id.example", subject: "u-1")
            }
            let elsewhere = try await database.read { db in
                try await SignOnStore(db).linkedUser(issuer: "https://other.example", subject: "u-1")
            }
            let linked = try await database.read { db in try await SignOnStore(db).isLinked(userID: ann.id) }
            #expect(found == ann.id)
            #expect(elsewhere == nil)
            #expect(linked)
            // The same person twice is refused by the database.
            await #expect(throws: (any Error).self) {
                try await database.write { [now] db in
                    try await SignOnStore(db).link(
                        issuer: "https://id.example", subject: "u-1", userID: ann.id, now: now)
                }
            }

            let offer = SignOnStore.Offer(
                issuer: "https://id.example", subject: "u-2", userID: ann.id, idToken: "a.b.c", next: "/profile",
                createdAt: now)
            try await database.write { db in try await SignOnStore(db).save(offer, tokenHash: "hash") }
            // Too old is as good as gone; a look does not take it; taking it does, once.
            let tooOld = try await database.read { [now] db in
                try await SignOnStore(db).offer(tokenHash: "hash", since: now + 1, taking: false)
            }
            #expect(tooOld == nil)
            let seen = try await database.read { [now] db in
                try await SignOnStore(db).offer(tokenHash: "hash", since: now - 600, taking: false)
            }
            #expect(seen == offer)
            let taken = try await database.write { [now] db in
                try await SignOnStore(db).offer(tokenHash: "hash", since: now - 600, taking: true)
            }
            let again = try await database.write { [now] db in
                try await SignOnStore(db).offer(tokenHash: "hash", since: now - 600, taking: true)
            }
            #expect(taken == offer)
            #expect(again == nil)

            // Deleting the account removes its links.
            try await database.write { db in try await AccountStore(db).deleteUser(id: ann.id) }
            let afterDeletion = try await database.read { db in
                try await SignOnStore(db).linkedUser(issuer: "https://id.example", subject: "u-1")
            }
            #expect(afterDeletion == nil)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aSessionSignedInAtTheProviderSaysSoAndKeepsItsToken(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            try await database.write { [now] db in
                let store = AccountStore(db)
                let ann = try await store.createUser(
                    NewUser(
                        email: "ann@uni.example", passwordHash: "!", firstName: "Ann", lastName: "Lee", role: .user),
                    now: now)
                let made = try await store.createSession(
                    userID: ann.id, tokenHash: "provider", kind: .web, now: now, expiresAt: now + 3600, userAgent: nil,
                    address: nil, idToken: "header.payload.signature")
                #expect(made.atProvider)
                _ = try await store.createSession(
                    userID: ann.id, tokenHash: "password", kind: .web, now: now, expiresAt: now + 3600,
                    userAgent: nil, address: nil)
            }
            let (provider, password) = try await database.read { [now] db in
                (
                    try await AccountStore(db).session(tokenHash: "provider", now: now),
                    try await AccountStore(db).session(tokenHash: "password", now: now)
                )
            }
            #expect(provider?.session.atProvider == true)
            #expect(password?.session.atProvider == false)
            let tokens = try await database.read { db in
                (
                    try await SignOnStore(db).idToken(sessionTokenHash: "provider"),
                    try await SignOnStore(db).idToken(sessionTokenHash: "password")
                )
            }
            #expect(tokens.0 == "header.payload.signature")
            #expect(tokens.1 == nil)
        }
    }
}
