import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing

@testable import CampusServer

/// What a profile and a new account may say: a language Campus speaks, a subgroup the group
/// has, a name a reader sees; and a new account is signed in at once.
@Suite struct ProfileRulesTests {
    @Test func aLanguageIsOneCampusSpeaks() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            for code in ["xx", "de", "eng"] {
                let refused = try await server.request(
                    .patch, "/api/v1/me", json: #"{"language":"\#(code)"}"#, token: ann)
                #expect(refused.status == .unprocessableContent, "\(code)")
                #expect((refused.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "language")
                #expect((refused.json["detail"] as? String)?.contains("en, be, bg, ru, uk") == true, "\(refused.text)")
            }
            let me = try await server.request(.get, "/api/v1/me", token: ann)
            #expect(me.json["language"] == nil)
            for code in ["uk", "en", ""] {
                let kept = try await server.request(.patch, "/api/v1/me", json: #"{"language":"\#(code)"}"#, token: ann)
                #expect(kept.status == .ok, "\(code): \(kept.text)")
            }
        }
    }

    @Test func aSubgroupIsOneTheGroupHas() async throws {
        try await TestServer.run { server in
            try await server.importFixtures()
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            // Group 151004's lessons are for subgroups 1 and 2 (and the whole group).
            let nine = try await server.request(
                .patch, "/api/v1/me", json: #"{"group":"151004","subgroup":9}"#, token: ann)
            #expect(nine.status == .unprocessableContent, "\(nine.text)")
            #expect((nine.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "subgroup")
            #expect((nine.json["detail"] as? String)?.contains("1, 2") == true, "\(nine.text)")
            let two = try await server.request(
                .patch, "/api/v1/me", json: #"{"group":"151004","subgroup":2}"#, token: ann)
            #expect(two.status == .ok && two.json["subgroup"] as? Int == 2)
            // A subgroup alone is checked against the group the profile has.
            let three = try await server.request(.patch, "/api/v1/me", json: #"{"subgroup":3}"#, token: ann)
            #expect(three.status == .unprocessableContent)
            let whole = try await server.request(.patch, "/api/v1/me", json: #"{"subgroup":0}"#, token: ann)
            #expect(whole.status == .ok && whole.json["subgroup"] as? Int == 0)
        }
    }

    @Test func aNameOfInvisibleCharactersIsNoName() async throws {
        try await TestServer.run { server in
            for name in ["\\u200b", "\\ufeff", "\\u200b\\ufeff", "\\u2060\\u00ad", " \\u200b "] {
                let registration = try await server.request(
                    .post, "/api/v1/auth/register",
                    json: #"{"email":"x@example.org","password":"correct horse","firstName":"\#(name)","lastName":"L"}"#
                )
                #expect(registration.status == .unprocessableContent, "\(name): \(registration.text)")
            }
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            let renamed = try await server.request(
                .patch, "/api/v1/me", json: #"{"lastName":"\u200b\ufeff\u200b"}"#, token: ann)
            #expect(renamed.status == .unprocessableContent, "\(renamed.text)")
            let trimmed = try await server.request(
                .patch, "/api/v1/me", json: #"{"lastName":"\ufeffLi\u200b"}"#, token: ann)
            #expect(trimmed.json["lastName"] as? String == "Li", "\(trimmed.text)")
        }
    }

    /// Registering on the web signs the new user in and takes them where they were going.
    @Test func registeringSignsIn() async throws {
        try await TestServer.run { server in
            var visit = WebVisit(server)
            // A page for signed-in users sends the visitor to log in, and from there to register.
            let asked = try await visit.get("/timetable/mine")
            #expect(asked.status == .seeOther || asked.status == .found, "\(asked.status)")
            let login = try await visit.get("/login?next=%2Ftimetable%2Fmine")
            #expect(login.text.contains(#"href="/register?next=/timetable/mine""#), "\(login.text)")
            let form = try await visit.get("/register?next=%2Ftimetable%2Fmine")
            #expect(form.text.contains(#"name="next" value="/timetable/mine""#))
            let registered = try await visit.post(
                "/register",
                [
                    ("firstName", "Мария"), ("lastName", "Kowalska"), ("email", "maria@example.org"),
                    ("password", "a good long password"), ("confirmation", "a good long password"),
                    ("next", "/timetable/mine"),
                ])
            #expect(registered.status == .seeOther, "\(registered.text)")
            #expect(registered.headers[.location] == "/timetable/mine")
            #expect(visit.cookie(CookieName.session) != nil)
            let mine = try await visit.get("/timetable/mine")
            #expect(mine.status == .ok && mine.text.contains("Your account is ready, Мария"), "\(mine.status)")
            // The session is a real one: the API knows it too.
            let session = visit.cookie(CookieName.session) ?? ""
            let me = try await server.request(
                .get, "/api/v1/me", headers: [.cookie: "\(CookieName.session)=\(session)"])
            #expect(me.json["email"] as? String == "maria@example.org")

            // Another site is no place to go after registering.
            var other = WebVisit(server)
            _ = try await other.get("/register")
            let elsewhere = try await other.post(
                "/register",
                [
                    ("firstName", "Ben"), ("lastName", "Lee"), ("email", "ben@example.org"),
                    ("password", "a good long password"), ("confirmation", "a good long password"),
                    ("next", "/\\evil.example"),
                ])
            #expect(elsewhere.headers[.location] == "/")
        }
    }
}
