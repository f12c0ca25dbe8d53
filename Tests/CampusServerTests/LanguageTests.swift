import CampusAPI
import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CampusServer

/// Which language a page and a problem are in: the user's choice, the switcher's cookie, the
/// browser's Accept-Language, the institution's default.
@Suite struct LanguageTests {
    static func page(_ server: TestServer, _ path: String, _ headers: HTTPFields = [:]) async throws -> String {
        var headers = headers
        headers[.accept] = "text/html"
        return try await server.request(.get, path, headers: headers).text
    }

    static func csrf(_ html: String) -> String? {
        guard let range = html.range(of: #"name="_csrf" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func theBrowserDecidesForAVisitorAndTheInstitutionWithout() async throws {
        try await TestServer.run(configure: { $0.language = "uk" }) { server in
            let russian = try await Self.page(server, "/login", [.acceptLanguage: "ru-RU,ru;q=0.9,en;q=0.5"])
            #expect(russian.contains(#"<html lang="ru">"#))
            #expect(russian.contains("Войти") && !russian.contains(">Log in<"))
            let english = try await Self.page(server, "/login", [.acceptLanguage: "en-GB"])
            #expect(english.contains(#"<html lang="en">"#) && english.contains("Log in"))
            let institution = try await Self.page(server, "/login", [.acceptLanguage: "de"])
            #expect(institution.contains(#"<html lang="uk">"#))
            let response = try await server.request(.get, "/login", headers: [.acceptLanguage: "be"])
            #expect(response.headers[.contentLanguage] == "be")
        }
    }

    @Test func theSwitcherKeepsAVisitorsChoiceAndAUsersProfileWins() async throws {
        try await TestServer.run { server in
            // The switcher's form: the language and the page to come back to.
            let login = try await server.request(.get, "/login", headers: [.accept: "text/html"])
            let cookie = try #require(login.headers[.setCookie]).split(separator: ";")[0]
            let token = try #require(Self.csrf(login.text))
            let switched = try await server.request(
                .post, "/language", json: "_csrf=\(token)&language=bg&back=%2Flogin",
                headers: [.contentType: "application/x-www-form-urlencoded", .cookie: String(cookie)])
            #expect(switched.status == .seeOther && switched.headers[.location] == "/login")
            let chosen = try #require(switched.headers[values: .setCookie].first { $0.hasPrefix("campus_language=bg") })
            let page = try await Self.page(
                server, "/login", [.acceptLanguage: "ru", .cookie: "\(cookie); \(chosen.split(separator: ";")[0])"])
            #expect(page.contains(#"<html lang="bg">"#))

            // A user's choice (PATCH /api/v1/me) beats the browser; a code Campus does not speak is
            // refused, and "" lets the browser decide again.
            try await server.register("ann@example.org")
            let bearer = try await server.login("ann@example.org")
            let changed = try await server.request(.patch, "/api/v1/me", json: #"{"language":"be"}"#, token: bearer)
            #expect(changed.status == .ok && changed.json["language"] as? String == "be")
            let malformed = try await server.request(.patch, "/api/v1/me", json: #"{"language":"d e"}"#, token: bearer)
            #expect(malformed.status == .unprocessableContent)
            let session = try await server.request(
                .post, "/login", json: "_csrf=\(token)&email=ann%40example.org&password=correct+horse",
                headers: [.contentType: "application/x-www-form-urlencoded", .cookie: String(cookie)])
            let sessionCookie = try #require(
                session.headers[values: .setCookie].first { $0.hasPrefix(CookieName.session) })
            let profile = try await Self.page(
                server, "/profile", [.acceptLanguage: "ru", .cookie: String(sessionCookie.split(separator: ";")[0])])
            #expect(profile.contains(#"<html lang="be">"#))
            let cleared = try await server.request(.patch, "/api/v1/me", json: #"{"language":""}"#, token: bearer)
            #expect(cleared.status == .ok && cleared.json["language"] == nil)
        }
    }

    @Test func problemsFollowAcceptLanguageAndKeepTheirTypes() async throws {
        try await TestServer.run { server in
            let wrong = #"{"email":"nobody@example.org","password":"not the password"}"#
            let english = try await server.request(.post, "/api/v1/auth/login", json: wrong)
            let russian = try await server.request(
                .post, "/api/v1/auth/login", json: wrong, headers: [.acceptLanguage: "ru"])
            #expect(russian.status == .unauthorized)
            #expect(english.json["title"] as? String == "Unauthorized")
            #expect(russian.json["title"] as? String != "Unauthorized")
            #expect(russian.json["type"] as? String == english.json["type"] as? String)
            let detail = try #require(russian.json["detail"] as? String)
            #expect(english.json["detail"] as? String == "The email address or the password is wrong.")
            #expect(detail != english.json["detail"] as? String && detail.contains("парол"))
            // The 401 that says how to log in, too.
            let anonymous = try await server.request(.get, "/api/v1/me", headers: [.acceptLanguage: "ru"])
            #expect(anonymous.status == .unauthorized)
            #expect((anonymous.json["detail"] as? String)?.hasPrefix("Сначала войдите") == true)
        }
    }

    /// A 422's detail sums up its fields' details: in the asked language too, not only each field.
    @Test func invalidFieldsAreSummedUpInTheAskedLanguage() async throws {
        try await TestServer.run { server in
            let body = #"{"email":"nope","password":"x","firstName":"","lastName":"B"}"#
            let answer = try await server.request(
                .post, "/api/v1/auth/register", json: body, headers: [.acceptLanguage: "uk"])
            #expect(answer.status == .unprocessableContent)
            let errors = try #require(answer.json["errors"] as? [[String: Any]])
            let details = errors.compactMap { $0["detail"] as? String }
            #expect(details.count == 3 && details.allSatisfy { !$0.contains("must") && !$0.contains("needs") })
            #expect(answer.json["detail"] as? String == details.joined(separator: " "))
        }
    }

    /// A refusal made of two phrases (a tag's name inside a sentence about its length) is said
    /// whole in the asked language: a library scan's "not readable" line.
    @Test func aRefusalAndTheFieldItNamesAreTranslatedTogether() async throws {
        try await TestServer.run { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("campus-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try TestLibrary.tone(
                folder.appendingPathComponent("long.mp3"), seconds: 1, frequency: 440,
                codec: ["-c:a", "libmp3lame", "-b:a", "64k"], tags: ["title": String(repeating: "я", count: 501)])
            var said: [String: String] = [:]
            for language in ["en", "ru"] {
                let scan = try await server.request(
                    .post, "/api/v1/library/scan", json: #"{"folder":"\#(folder.path)"}"#, token: admin,
                    headers: [.acceptLanguage: language])
                #expect(scan.status == .ok)
                said[language] = (scan.json["failed"] as? [String])?.first
            }
            #expect(said["en"] == "long.mp3: The title tag has 501 characters; at most 500.")
            let russian = try #require(said["ru"])
            #expect(
                russian.hasPrefix("long.mp3: Тег title") && russian.contains("501") && !russian.contains("characters"))
        }
    }

    @Test func theDemoSpeaksRussianUnlessTold() async throws {
        try await TestServer.run(configure: { $0.demo = true }) { server in
            let home = try await Self.page(server, "/")
            #expect(home.contains(#"<html lang="ru">"#))
        }
        await #expect(throws: (any Error).self) {
            try await TestServer.run(configure: { $0.language = "de" }) { _ in }
        }
    }
}
