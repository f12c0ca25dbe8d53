import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Storage
import Testing

@testable import CampusServer

/// Players' failed sign-ins (issue 35): 1,000 unknown API keys were each a database write (every
/// other write slowed from 31 ms to 140–190 ms) and were never throttled, and they put the address
/// into the sign-in page's throttle, so that the right password then got 429. Now each kind of
/// player credential waits alone, in memory, and never makes the sign-in page or another kind wait.
@Suite struct SubsonicSignInTests {
    typealias Subsonic = ListenServerSuites.SubsonicTests

    static func ping(_ server: TestServer, _ query: String) async throws -> TestResponse {
        try await server.request(.get, "/rest/ping?f=json&\(query)")
    }

    static func status(_ response: TestResponse) -> String? {
        Subsonic.answer(response)["status"] as? String
    }

    static func message(_ response: TestResponse) -> String {
        (Subsonic.answer(response)["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    /// Rows of the sign-in page's throttle (`login_failures`), whoever wrote them.
    static func loginFailureRows(_ server: TestServer) async throws -> Int {
        let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
        let count = try await database.read { db in
            try await db.raw("SELECT COUNT(*) AS n FROM login_failures").first(decodingColumn: "n", as: Int.self)
        }
        await database.close()
        return count ?? -1
    }

    @Test func unknownAPIKeysWaitInMemoryAndLockOutNothingElse() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            let credentials = try await Subsonic.credentials(server, ann)
            // Five unknown keys are unknown; one sent again (a player left with a revoked key) is
            // answered from memory and counts once…
            for index in 0..<5 {
                #expect(Subsonic.errorCode(try await Self.ping(server, "apiKey=wrong-\(index)")) == 44)
                #expect(Subsonic.errorCode(try await Self.ping(server, "apiKey=wrong-0")) == 44)
            }
            // …and a sixth makes API keys from this address wait.
            let waiting = try await Self.ping(server, "apiKey=wrong-5")
            #expect(Subsonic.errorCode(waiting) == 40)
            #expect(Self.message(waiting).contains("Too many"), "\(waiting.text)")
            // Nothing else waits: the sign-in page, the API's login, app passwords.
            let login = try await server.request(
                .post, "/api/v1/auth/login", json: #"{"email":"ann@example.org","password":"correct horse"}"#)
            #expect(login.status == .ok, "\(login.text)")
            let password = try await Self.ping(server, "u=ann@example.org&p=\(credentials.password)")
            #expect(Self.status(password) == "ok", "\(password.text)")
            // No failure was written to the database.
            #expect(try await Self.loginFailureRows(server) == 0)
            // Once the window has passed, keys are looked up again.
            server.clock.advance(by: 901)
            #expect(Subsonic.errorCode(try await Self.ping(server, "apiKey=wrong-6")) == 44)
            #expect(Self.status(try await Self.ping(server, "apiKey=\(credentials.key)")) == "ok")
        }
    }

    @Test func failedLoginsAndAppPasswordsEachWaitAlone() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            let credentials = try await Subsonic.credentials(server, ann)
            // Five wrong passwords on the sign-in page: the page waits…
            for _ in 0..<5 {
                let failed = try await server.request(
                    .post, "/api/v1/auth/login", json: #"{"email":"ann@example.org","password":"wrong password"}"#)
                #expect(failed.status == .unauthorized)
            }
            let blocked = try await server.request(
                .post, "/api/v1/auth/login", json: #"{"email":"ann@example.org","password":"correct horse"}"#)
            #expect(blocked.status == .tooManyRequests)
            // …players do not: an app password or a key is no password a person chose.
            let password = try await Self.ping(server, "u=ann@example.org&p=\(credentials.password)")
            #expect(Self.status(password) == "ok", "\(password.text)")
            #expect(Self.status(try await Self.ping(server, "apiKey=\(credentials.key)")) == "ok")
            // Five wrong app passwords (one sent again counts once), then app passwords from here wait…
            for index in 0..<5 {
                #expect(Subsonic.errorCode(try await Self.ping(server, "u=ben@example.org&p=wrong-\(index)")) == 40)
                let again = try await Self.ping(server, "u=ben@example.org&p=wrong-0")
                #expect(Subsonic.errorCode(again) == 40 && !Self.message(again).contains("Too many"))
            }
            let waiting = try await Self.ping(server, "u=ann@example.org&p=wrong-5")
            #expect(Subsonic.errorCode(waiting) == 40)
            #expect(Self.message(waiting).contains("Too many"), "\(waiting.text)")
            // …but not API keys; and only the sign-in page's five failures are in the database.
            let key = try await server.request(.post, "/api/v1/me/api-keys", json: #"{"name":"Tempo"}"#, token: ann)
            let newKey = try #require(key.json["key"] as? String)
            #expect(Self.status(try await Self.ping(server, "apiKey=\(newKey)")) == "ok")
            #expect(try await Self.loginFailureRows(server) == 5)
        }
    }
}
