import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Storage
import Testing

@testable import CampusServer

/// Sessions and accounts kept in memory: a signed-in request reads no database, and every change
/// to an account or a session is seen at once on the instance that made it and soon on every
/// other instance and process (PostgreSQL NOTIFY; SQLite's counter).
@Suite struct SessionMemoryTests {
    static func role(_ server: TestServer, _ token: String) async throws -> String? {
        let me = try await server.request(.get, "/api/v1/me", token: token)
        return me.status == .ok ? me.json["role"] as? String : "\(me.status.code)"
    }

    @Test(arguments: TestDatabases.kinds)
    func aKeptSessionNeedsNoReadAndEveryChangeIsSeenAtOnce(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            try await server.register("ann@example.org")
            try await server.register("bob@example.org")
            let admin = try await server.login("admin@example.org")
            let ann = try await server.login("ann@example.org")
            let annOnPhone = try await server.login("ann@example.org")
            let bob = try await server.login("bob@example.org")
            #expect(try await Self.role(server, bob) == "user")

            // Bob's session row goes behind the server's back (no change is told): the server
            // still knows him, so it did not read the database for him.
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            try await database.write { db in
                try await db.raw(
                    "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'bob@example.org')"
                )
                .run()
            }
            await database.close()
            #expect(try await Self.role(server, bob) == "user")

            // An admin changes Ann's role: her next request has it.
            #expect(try await Self.role(server, ann) == "user")
            #expect(try await Self.role(server, annOnPhone) == "user")
            let annID = try #require(try await server.request(.get, "/api/v1/me", token: ann).json["id"] as? Int)
            let changed = try await server.request(
                .put, "/api/v1/users/\(annID)/role", json: #"{"role":"organizer"}"#, token: admin)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try await Self.role(server, ann) == "organizer")

            // Her name too.
            let renamed = try await server.request(.patch, "/api/v1/me", json: #"{"firstName":"Anna"}"#, token: ann)
            #expect(renamed.status == .ok)
            #expect(
                try await server.request(.get, "/api/v1/me", token: annOnPhone).json["firstName"] as? String == "Anna")

            // A new password ends her other session at once, not this one.
            let password = try await server.request(
                .post, "/api/v1/me/password",
                json: #"{"currentPassword":"correct horse","newPassword":"battery staple 2026"}"#, token: ann)
            #expect(password.status == .noContent)
            #expect(try await Self.role(server, annOnPhone) == "401")
            #expect(try await Self.role(server, ann) == "organizer")

            // Logging out ends the token at once.
            #expect(try await server.request(.post, "/api/v1/auth/logout", token: ann).status == .noContent)
            #expect(try await Self.role(server, ann) == "401")

            // Deleting the account ends its sessions at once.
            let again = try await server.login("ann@example.org", password: "battery staple 2026")
            #expect(try await Self.role(server, again) == "organizer")
            let deleted = try await server.request(
                .delete, "/api/v1/me", json: #"{"password":"battery staple 2026"}"#, token: again)
            #expect(deleted.status == .noContent)
            #expect(try await Self.role(server, again) == "401")
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func otherInstancesAndTheCommandLineAreHeard(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { first in
            try await TestServer.run(location: first.databaseLocation) { second in
                try await first.register("admin@example.org")
                try await first.makeAdmin("admin@example.org")
                try await first.register("ann@example.org")
                let admin = try await first.login("admin@example.org")
                let ann = try await first.login("ann@example.org")
                // Both instances keep Ann's session.
                #expect(try await Self.role(first, ann) == "user")
                #expect(try await Self.role(second, ann) == "user")

                // The first changes her role: the second hears it.
                let annID = try #require(try await first.request(.get, "/api/v1/me", token: ann).json["id"] as? Int)
                _ = try await first.request(
                    .put, "/api/v1/users/\(annID)/role", json: #"{"role":"organizer"}"#, token: admin)
                try await RadioFallbackTests.eventually("the second instance sees the new role") {
                    try await Self.role(second, ann) == "organizer"
                }

                // The command line (another process) makes her an admin: both hear it.
                try await first.makeAdmin("ann@example.org")
                try await RadioFallbackTests.eventually("both instances see the role the CLI gave") {
                    let one = try await Self.role(first, ann)
                    let two = try await Self.role(second, ann)
                    return one == "admin" && two == "admin"
                }

                // She logs out on the first: the second no longer knows the token.
                #expect(try await first.request(.post, "/api/v1/auth/logout", token: ann).status == .noContent)
                try await RadioFallbackTests.eventually("the second instance ends the session") {
                    try await Self.role(second, ann) == "401"
                }
            }
        }
    }
}
