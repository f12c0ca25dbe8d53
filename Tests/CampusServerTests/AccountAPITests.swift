import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

@Suite struct AccountAPITests {
    @Test(arguments: TestDatabases.kinds)
    func registerLogInEditAndLogOut(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let created = try await server.register("Ann@Example.org", organizer: true)
            #expect(created.email == "Ann@Example.org")
            #expect(created.role == .organizer)
            #expect(created.subgroup == 0)

            let token = try await server.login("ann@EXAMPLE.org")
            let me = try await server.api(token: token).getMe().ok.body.json
            #expect(me.id == created.id)

            let changed = try await server.api(token: token).updateMe(
                body: .json(.init(firstName: "  Анна ", group: "151004", subgroup: 2))
            ).ok.body.json
            #expect(changed.firstName == "Анна")
            #expect(changed.lastName == "Lee")
            #expect(changed.group == "151004")
            #expect(changed.subgroup == 2)

            let cleared = try await server.api(token: token).updateMe(body: .json(.init(group: ""))).ok.body.json
            #expect(cleared.group == nil)
            #expect(cleared.subgroup == 2)

            _ = try await server.api(token: token).logout().noContent
            let after = try await server.request(.get, "/api/v1/me", token: token)
            #expect(after.status == .unauthorized)
            #expect(after.headers[.contentType] == "application/problem+json")
        }
    }

    @Test func emailsAreUniqueInAnyCase() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let response = try await server.request(
                .post, "/api/v1/auth/register",
                json: #"{"email":"ANN@example.org","password":"12345678","firstName":"A","lastName":"B"}"#)
            #expect(response.status == .conflict)
            #expect((response.json["detail"] as? String)?.contains("exists already") == true)
        }
    }

    @Test func invalidFieldsAreNamed() async throws {
        try await TestServer.run { server in
            let response = try await server.request(
                .post, "/api/v1/auth/register",
                json: #"{"email":"not-an-email","password":"short","firstName":"  ","lastName":"Lee"}"#)
            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.contentType] == "application/problem+json")
            let fields = (response.json["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["email", "firstName", "password"])
        }
    }

    @Test func malformedAndMistypedBodiesAreClientErrors() async throws {
        try await TestServer.run { server in
            let malformed = try await server.request(.post, "/api/v1/auth/login", json: #"{"email": "#)
            #expect(malformed.status == .badRequest)
            #expect(malformed.json["status"] as? Int == 400)
            #expect((malformed.json["detail"] as? String)?.contains("not valid JSON") == true)

            let mistyped = try await server.request(
                .post, "/api/v1/auth/login", json: #"{"email": 5, "password": "x"}"#)
            #expect(mistyped.status == .unprocessableContent)
            #expect((mistyped.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "email")

            let missing = try await server.request(.post, "/api/v1/auth/login", json: #"{"email": "a@b.org"}"#)
            #expect(missing.status == .unprocessableContent)
            #expect((missing.json["detail"] as? String)?.contains("password is required") == true)

            let wrongType = try await server.request(
                .post, "/api/v1/auth/login", json: "email=a",
                headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(wrongType.status == .unsupportedMediaType)
        }
    }

    @Test func oversizedBodiesAreRefused() async throws {
        try await TestServer.run { server in
            let big = #"{"email":""# + String(repeating: "a", count: 2 << 20) + #"","password":"x"}"#
            let response = try await server.request(.post, "/api/v1/auth/login", json: big)
            #expect(response.status == .contentTooLarge)
            #expect((response.json["detail"] as? String)?.contains("1 MiB") == true)
        }
    }

    @Test func unknownRoutesAndMethods() async throws {
        try await TestServer.run { server in
            let missing = try await server.request(.get, "/api/v1/nothing-here")
            #expect(missing.status == .notFound)
            #expect(missing.headers[.contentType] == "application/problem+json")
            let wrongMethod = try await server.request(.delete, "/api/v1/auth/login")
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "POST")
            #expect(wrongMethod.headers[.contentType] == "application/problem+json")
            #expect((wrongMethod.json["detail"] as? String)?.contains("answers POST, not DELETE") == true)
            // A page's path too, and an unknown path with a refused method is still 404.
            let page = try await server.request(.delete, "/login")
            #expect(page.status == .methodNotAllowed)
            #expect(page.headers[.allow] == "GET, HEAD, POST")
            let nowhere = try await server.request(.delete, "/nothing-here")
            #expect(nowhere.status == .notFound)
            let wrongMethodWithParameter = try await server.request(.post, "/api/v1/users/5")
            #expect(wrongMethodWithParameter.status == .methodNotAllowed)
            for name in ["TRACE", "OPTIONS", "QUERY"] {
                let method = try #require(HTTPRequest.Method(name))
                let refused = try await server.request(method, "/api/v1/institution")
                #expect(refused.status == .methodNotAllowed, "\(name)")
                #expect(refused.headers[.allow] == "GET, HEAD", "\(name)")
            }
        }
    }

    @Test func fiveFailedLoginsLockTheAccountForAWhile() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            for _ in 0..<5 {
                let failed = try await server.request(
                    .post, "/api/v1/auth/login", json: #"{"email":"ann@example.org","password":"wrong password"}"#)
                #expect(failed.status == .unauthorized)
            }
            // Even the right password waits now.
            let blocked = try await server.request(
                .post, "/api/v1/auth/login", json: #"{"email":"Ann@example.org","password":"correct horse"}"#)
            #expect(blocked.status == .tooManyRequests)
            let retryAfter = Int(blocked.headers[.retryAfter] ?? "")
            #expect(retryAfter == 900)
            server.clock.advance(by: 901)
            _ = try await server.login("ann@example.org")
        }
    }

    @Test func fiveFailedLoginsFromOneAddressLockIt() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            for index in 0..<5 {
                _ = try await server.request(
                    .post, "/api/v1/auth/login",
                    json: #"{"email":"nobody\#(index)@example.org","password":"guess1234"}"#)
            }
            let blocked = try await server.request(
                .post, "/api/v1/auth/login", json: #"{"email":"ann@example.org","password":"correct horse"}"#)
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] != nil)
        }
    }

    @Test func aSuccessfulLoginForgetsEarlierFailuresOfTheAccount() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            for _ in 0..<3 {
                _ = try await server.request(
                    .post, "/api/v1/auth/login", json: #"{"email":"ann@example.org","password":"wrong password"}"#)
            }
            _ = try await server.login("ann@example.org")
            server.clock.advance(by: 1)
            // Three failures were cleared by the login, so three more do not lock the account.
            // (The address still counts them, so the account check is what is tested here.)
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            let failures = try await database.read { db in
                try await AccountStore(db).loginFailures(
                    accountKey: "ann@example.org", address: "-", since: server.clock.now.addingTimeInterval(-900))
            }
            await database.close()
            #expect(failures.account.isEmpty)
        }
    }

    @Test func passwordResetWorksOnceAndEndsSessions() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let oldToken = try await server.login("ann@example.org")

            let answer = try await server.api().requestPasswordReset(body: .json(.init(email: "ANN@example.org")))
            #expect(try answer.accepted.body.json.message.contains("If an account"))
            let mail = try await server.mail.waitFor(count: 1)
            #expect(mail.to == "ann@example.org")
            let link = try #require(mail.body.split(separator: "\n").first { $0.contains("/password/reset?token=") })
            let resetToken = String(link.split(separator: "=").last!)

            // Unknown addresses get the same answer and no mail.
            _ = try await server.api().requestPasswordReset(body: .json(.init(email: "nobody@example.org"))).accepted

            _ = try await server.api().resetPassword(body: .json(.init(token: resetToken, password: "new password")))
                .noContent
            #expect(try await server.request(.get, "/api/v1/me", token: oldToken).status == .unauthorized)
            let again = try await server.request(
                .post, "/api/v1/auth/password-reset/confirm",
                json: #"{"token":"\#(resetToken)","password":"other password"}"#)
            #expect(again.status == .forbidden)
            #expect(
                try await server.request(
                    .post, "/api/v1/auth/login", json: #"{"email":"ann@example.org","password":"correct horse"}"#
                ).status == .unauthorized)
            _ = try await server.login("ann@example.org", password: "new password")
            #expect(server.mail.all.count == 1)
        }
    }

    @Test func atMostThreeResetMailsGoOutPerHour() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            for _ in 0..<5 {
                _ = try await server.api().requestPasswordReset(body: .json(.init(email: "ann@example.org"))).accepted
            }
            _ = try await server.mail.waitFor(count: 3)
            try await Task.sleep(for: .milliseconds(200))
            #expect(server.mail.all.count == 3)
            server.clock.advance(by: 3601)
            _ = try await server.api().requestPasswordReset(body: .json(.init(email: "ann@example.org"))).accepted
            _ = try await server.mail.waitFor(count: 4)
        }
    }

    @Test func resetLinksExpireAfterOneHour() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            _ = try await server.api().requestPasswordReset(body: .json(.init(email: "ann@example.org")))
            let mail = try await server.mail.waitFor(count: 1)
            let resetToken = String(
                mail.body.split(separator: "\n").first { $0.contains("token=") }!.split(separator: "=").last!)
            server.clock.advance(by: 3601)
            let late = try await server.request(
                .post, "/api/v1/auth/password-reset/confirm",
                json: #"{"token":"\#(resetToken)","password":"new password"}"#)
            #expect(late.status == .forbidden)
            #expect((late.json["detail"] as? String)?.contains("older than one hour") == true)
        }
    }

    @Test func changingThePasswordEndsOtherSessions() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let phone = try await server.login("ann@example.org")
            let laptop = try await server.login("ann@example.org")
            let wrong = try await server.request(
                .post, "/api/v1/me/password", json: #"{"currentPassword":"nope","newPassword":"new password"}"#,
                token: laptop)
            #expect(wrong.status == .forbidden)
            _ = try await server.api(token: laptop).changePassword(
                body: .json(.init(currentPassword: "correct horse", newPassword: "new password"))
            ).noContent
            #expect(try await server.request(.get, "/api/v1/me", token: laptop).status == .ok)
            #expect(try await server.request(.get, "/api/v1/me", token: phone).status == .unauthorized)
        }
    }

    @Test func deletingTheAccountNeedsThePassword() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let token = try await server.login("ann@example.org")
            let wrong = try await server.request(.delete, "/api/v1/me", json: #"{"password":"nope"}"#, token: token)
            #expect(wrong.status == .forbidden)
            _ = try await server.api(token: token).deleteMe(body: .json(.init(password: "correct horse"))).noContent
            #expect(try await server.request(.get, "/api/v1/me", token: token).status == .unauthorized)
            // The address is free again.
            try await server.register("ann@example.org")
        }
    }

    @Test func theLastAdminStays() async throws {
        try await TestServer.run { server in
            let admin = try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let token = try await server.login("admin@example.org")
            let delete = try await server.request(
                .delete, "/api/v1/me", json: #"{"password":"correct horse"}"#, token: token)
            #expect(delete.status == .conflict)
            let demote = try await server.request(
                .put, "/api/v1/users/\(admin.id)/role", json: #"{"role":"user"}"#, token: token)
            #expect(demote.status == .conflict)
        }
    }

    @Test func adminsManageRolesAndOthersCannot() async throws {
        try await TestServer.run { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let bob = try await server.register("bob@example.org", firstName: "Bob")
            let carol = try await server.register("carol@example.org", firstName: "Carol")
            let adminToken = try await server.login("admin@example.org")
            let bobToken = try await server.login("bob@example.org")

            #expect(try await server.request(.get, "/api/v1/users").status == .unauthorized)
            #expect(try await server.request(.get, "/api/v1/users", token: bobToken).status == .forbidden)
            #expect(
                try await server.request(
                    .put, "/api/v1/users/\(carol.id)/role", json: #"{"role":"admin"}"#, token: bobToken
                )
                .status == .forbidden)
            #expect(try await server.request(.get, "/api/v1/users/\(carol.id)", token: bobToken).status == .notFound)
            #expect(try await server.request(.get, "/api/v1/users/\(bob.id)", token: bobToken).status == .ok)

            let page = try await server.api(token: adminToken).listUsers(query: .init(q: "bob")).ok.body.json
            #expect(page.items.map(\.email) == ["bob@example.org"])
            #expect(page.total == 1)
            let promoted = try await server.api(token: adminToken).setUserRole(
                path: .init(userId: bob.id), body: .json(.init(role: .organizer))
            ).ok.body.json
            #expect(promoted.role == .organizer)
            #expect(try await server.api(token: bobToken).getMe().ok.body.json.role == .organizer)

            let badPage = try await server.request(.get, "/api/v1/users?limit=0", token: adminToken)
            #expect(badPage.status == .unprocessableContent)
            let missing = try await server.request(
                .put, "/api/v1/users/99999/role", json: #"{"role":"user"}"#, token: adminToken)
            #expect(missing.status == .notFound)
            let badRole = try await server.request(
                .put, "/api/v1/users/\(bob.id)/role", json: #"{"role":"king"}"#, token: adminToken)
            #expect(badRole.status.code >= 400 && badRole.status.code < 500)
        }
    }

    @Test func avatarsAreCheckedStoredAndServed() async throws {
        try await TestServer.run { server in
            let ann = try await server.register("ann@example.org")
            let token = try await server.login("ann@example.org")
            let png = TestServer.avatarPNG
            let put = try await server.putAvatar(token: token)
            #expect(put.status == .ok)
            let url = try #require(put.json["avatarUrl"] as? String)
            #expect(url.hasPrefix("/api/v1/users/\(ann.id)/avatar"))

            let get = try await server.request(.get, url, token: token)
            #expect(get.status == .ok)
            #expect(get.headers[.contentType] == "image/png")
            #expect(Array(buffer: get.body) == png)
            #expect(try await server.request(.get, url).status == .unauthorized)

            let lie = try await server.http.execute(
                uri: "/api/v1/me/avatar", method: .put,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/jpeg"], body: ByteBuffer(bytes: png))
            #expect(lie.status == .unprocessableContent)
            let notImage = try await server.http.execute(
                uri: "/api/v1/me/avatar", method: .put,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/png"],
                body: ByteBuffer(string: "hello"))
            #expect(notImage.status == .unprocessableContent)
            let huge = try await server.http.execute(
                uri: "/api/v1/me/avatar", method: .put,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/png"],
                body: ByteBuffer(bytes: png + Array(repeating: 0, count: 3 << 20)))
            #expect(huge.status == .contentTooLarge)

            _ = try await server.api(token: token).deleteAvatar().noContent
            #expect(try await server.request(.get, url, token: token).status == .notFound)
            #expect(try await server.api(token: token).getMe().ok.body.json.avatarUrl == nil)
        }
    }

    @Test func badBearerHeadersAreUnauthorized() async throws {
        try await TestServer.run { server in
            let basic = try await server.request(.get, "/api/v1/me", headers: [.authorization: "Basic abc"])
            #expect(basic.status == .unauthorized)
            // A proxy's Basic auth in front of Campus does not get in the way of public routes.
            #expect(try await server.request(.get, "/health", headers: [.authorization: "Basic abc"]).status == .ok)
            let unknown = try await server.request(.get, "/api/v1/me", token: "no-such-token")
            #expect(unknown.status == .unauthorized)
            #expect(unknown.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
        }
    }

    @Test func sessionsLastThirtyDaysFromLastUse() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let token = try await server.login("ann@example.org")
            server.clock.advance(by: 20 * 86400)
            #expect(try await server.request(.get, "/api/v1/me", token: token).status == .ok)
            server.clock.advance(by: 20 * 86400)
            #expect(try await server.request(.get, "/api/v1/me", token: token).status == .ok)
            server.clock.advance(by: 31 * 86400)
            #expect(try await server.request(.get, "/api/v1/me", token: token).status == .unauthorized)
        }
    }
}
