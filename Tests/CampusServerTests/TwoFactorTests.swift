import Accounts
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdOTP
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// Issue 40's two-factor sign-in through the API: enrolment, a login that needs the code, a code
/// counted once, recovery codes used once, wrong codes throttled like passwords, turning it off,
/// and a role that acts only with it on. (Tests/e2e/test_two_factor.py checks the codes against
/// pyotp and the QR code against zxing-cpp.)
@Suite struct TwoFactorTests {
    /// The code an authenticator app shows at `date` for the account's stored secret.
    static func code(_ server: TestServer, email: String, at date: Date) async throws -> String {
        let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
        defer { Task { await database.close() } }
        let secret = try await database.read { db -> String? in
            guard let user = try await AccountStore(db).credentials(email: email)?.user else { return nil }
            return try await AccountStore(db).twoFactorSecret(userID: user.id)?.secret
        }
        return String(format: "%06d", TOTP(secret: try #require(secret)).compute(date: date))
    }

    static func login(_ server: TestServer, _ email: String, code: String? = nil) async throws -> TestResponse {
        let body =
            code.map { #"{"email":"\#(email)","password":"correct horse","code":"\#($0)"}"# }
            ?? #"{"email":"\#(email)","password":"correct horse"}"#
        return try await server.request(.post, "/api/v1/auth/login", json: body)
    }

    @Test(arguments: TestDatabases.kinds)
    func enrolSignInWithACodeOnceAndRecover(_ kind: Database.Kind) async throws {
        let clock = TestClock()
        try await TestServer.run(kind, clock: clock) { server in
            try await server.register("ann@example.org")
            let token = try await server.login("ann@example.org")
            var status = try await server.request(.get, "/api/v1/me/two-factor", token: token)
            #expect(status.json["enabled"] as? Bool == false)

            // Enrolment: an otpauth address for the app, and the secret as base32.
            let started = try await server.request(.post, "/api/v1/me/two-factor", token: token)
            #expect(started.status == .created, "\(started.text)")
            let url = try #require(started.json["url"] as? String)
            #expect(url.hasPrefix("otpauth://totp/Campus:ann@example.org?secret="))
            #expect((started.json["secret"] as? String)?.count ?? 0 >= 32)
            // Until a first code confirms it, a login needs none; a wrong first code is refused.
            #expect(try await Self.login(server, "ann@example.org").status == .ok)
            let wrong = try await server.request(
                .put, "/api/v1/me/two-factor", json: #"{"code":"000000"}"#, token: token)
            #expect(wrong.status == .forbidden)
            let first = try await Self.code(server, email: "ann@example.org", at: clock.now)
            let confirmed = try await server.request(
                .put, "/api/v1/me/two-factor", json: #"{"code":"\#(first)"}"#, token: token)
            #expect(confirmed.status == .ok, "\(confirmed.text)")
            let recovery = try #require(confirmed.json["recoveryCodes"] as? [String])
            #expect(recovery.count == 10 && Set(recovery).count == 10)
            status = try await server.request(.get, "/api/v1/me/two-factor", token: token)
            #expect(status.json["enabled"] as? Bool == true && status.json["recoveryCodesLeft"] as? Int == 10)

            // A login now needs the code: without it 401 of its own type.
            let without = try await Self.login(server, "ann@example.org")
            #expect(without.status == .unauthorized)
            #expect((without.json["type"] as? String)?.hasSuffix("/problems/two-factor-required") == true)
            // The code used to confirm counts once; the next one signs in, once.
            #expect(try await Self.login(server, "ann@example.org", code: first).status == .unauthorized)
            clock.advance(by: 30)
            let next = try await Self.code(server, email: "ann@example.org", at: clock.now)
            #expect(try await Self.login(server, "ann@example.org", code: next).status == .ok)
            #expect(try await Self.login(server, "ann@example.org", code: next).status == .unauthorized)
            // A code from a minute ago is too old; a recovery code works once, typed any way.
            clock.advance(by: 90)
            let old = try await Self.code(server, email: "ann@example.org", at: clock.now.addingTimeInterval(-60))
            #expect(try await Self.login(server, "ann@example.org", code: old).status == .unauthorized)
            let spaced = recovery[0].uppercased().replacingOccurrences(of: "-", with: " ")
            #expect(try await Self.login(server, "ann@example.org", code: spaced).status == .ok)
            #expect(try await Self.login(server, "ann@example.org", code: recovery[0]).status == .unauthorized)

            // Five wrong codes in a row (the used recovery code above, four here) block the
            // account, also for a right code, as wrong passwords do.
            for _ in 0..<4 { _ = try await Self.login(server, "ann@example.org", code: "123456") }
            let blocked = try await Self.login(server, "ann@example.org", code: recovery[1])
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] != nil)
            clock.advance(by: 16 * 60)

            // Off: the password and a code; then a login needs none.
            let code = try await Self.code(server, email: "ann@example.org", at: clock.now)
            let refused = try await server.request(
                .delete, "/api/v1/me/two-factor", json: #"{"password":"wrong horse","code":"\#(code)"}"#,
                token: token)
            #expect(refused.status == .forbidden)
            let off = try await server.request(
                .delete, "/api/v1/me/two-factor", json: #"{"password":"correct horse","code":"\#(code)"}"#,
                token: token)
            #expect(off.status == .noContent, "\(off.text)")
            #expect(try await Self.login(server, "ann@example.org").status == .ok)
        }
    }

    /// `--require-2fa-for admin`: an admin without two-factor sign-in acts as a plain account
    /// (403 on the audit log, a banner on every page) until it turns it on.
    @Test func aRoleThatNeedsTwoFactorWaitsForIt() async throws {
        let clock = TestClock()
        try await TestServer.run(.sqlite, clock: clock, configure: { $0.twoFactorRoles = [.admin] }) { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let token = try await server.login("admin@example.org")
            #expect(try await server.request(.get, "/api/v1/audit", token: token).status == .forbidden)
            let page = try await server.request(
                .get, "/profile", headers: [.accept: "text/html", .cookie: "campus_session=\(token)"])
            #expect(page.text.contains(#"id="two-factor-needed""#))

            _ = try await server.request(.post, "/api/v1/me/two-factor", token: token)
            let code = try await Self.code(server, email: "admin@example.org", at: clock.now)
            #expect(
                try await server.request(.put, "/api/v1/me/two-factor", json: #"{"code":"\#(code)"}"#, token: token)
                    .status == .ok)
            #expect(try await server.request(.get, "/api/v1/audit", token: token).status == .ok)
            let after = try await server.request(
                .get, "/profile", headers: [.accept: "text/html", .cookie: "campus_session=\(token)"])
            #expect(!after.text.contains(#"id="two-factor-needed""#))

            // `campus user reset-2fa`: off again, and the role waits again; the log keeps it.
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            let reset = try await Administration(
                database: database, configuration: TestServer.configuration(server.databaseLocation),
                logger: TestDatabases.logger
            ).resetTwoFactor(email: "admin@example.org")
            await database.close()
            #expect(reset?.email == "admin@example.org")
            #expect(try await Self.login(server, "admin@example.org").status == .ok)
            // The reset came from another process: the server hears of it by the accounts' change
            // counter, read every 50 ms on SQLite (on a busy machine, a little later).
            try await RadioFallbackTests.eventually("the reset reaches the server's sessions") {
                try await server.request(.get, "/api/v1/audit", token: token).status == .forbidden
            }
        }
    }
}
