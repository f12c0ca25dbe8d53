import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import CampusServer

/// Campus's own words are said in the reader's language: problem titles (their `type` stays for
/// clients), a 415's detail, and the names Campus gave seed 004's lesson types. Data stays as the
/// institution wrote it. (The Russian expectations need the catalogue's translations of the
/// messages these words are.)
@Suite struct CampusWordsTests {
    @Test func problemTitlesAreTranslatedAndTheirTypesStay() async throws {
        try await TestServer.run { server in
            let body = #"{"email":"nope","password":"x","firstName":"","lastName":"B"}"#
            let english = try await server.request(.post, "/api/v1/auth/register", json: body)
            let russian = try await server.request(
                .post, "/api/v1/auth/register", json: body, headers: [.acceptLanguage: "ru"])
            #expect(english.status == .unprocessableContent && russian.status == .unprocessableContent)
            #expect(english.json["title"] as? String == "Some fields are not valid")
            #expect(russian.json["type"] as? String == "/problems/invalid-fields")
            #expect(english.json["type"] as? String == "/problems/invalid-fields")
            let title = try #require(russian.json["title"] as? String)
            #expect(title != "Some fields are not valid" && title.unicodeScalars.contains { $0.value >= 0x400 })
            // Without Accept-Language, English.
            let notFound = try await server.request(.get, "/api/v1/groups/nobody")
            #expect(notFound.json["title"] as? String == "Not Found")
        }
    }

    @Test func aBodyOfTheWrongTypeIsSaidInWords() async throws {
        try await TestServer.run { server in
            let english = try await server.request(
                .post, "/api/v1/auth/login", json: "email=a",
                headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(english.status == .unsupportedMediaType)
            let detail = try #require(english.json["detail"] as? String)
            #expect(detail.hasPrefix("This operation reads application/json"), "\(detail)")
            #expect(detail.contains("application/x-www-form-urlencoded") && !detail.contains("Unexpected"))
            let russian = try await server.request(
                .post, "/api/v1/auth/login", json: "email=a",
                headers: [.contentType: "text/plain", .acceptLanguage: "ru"])
            #expect(russian.status == .unsupportedMediaType)
            let said = try #require(russian.json["detail"] as? String)
            #expect(!said.hasPrefix("This operation") && said.contains("application/json"), "\(said)")
        }
    }

    @Test func campusOwnLessonTypesAreInTheReadersLanguage() async throws {
        try await TestServer.run { server in
            let (ann, _) = try await MyTimetableTests.cast(server)
            let headers: HTTPFields = [.cookie: "\(CookieName.session)=\(ann)"]
            var russianHeaders = headers
            russianHeaders[.acceptLanguage] = "ru"
            let russian = try await LanguageTests.page(server, "/timetable/mine", russianHeaders)
            #expect(russian.contains(#"id="lesson-colours""#))
            for english in ["Lecture", "Practice", "Lab"] {
                #expect(!russian.contains(#"type-badge">\#(english)</span>"#), "\(english)")
            }
            // The institution's own types are its words, in every language.
            #expect(russian.contains(#"type-badge">ЛК</span> Лекция"#))
            var englishHeaders = headers
            englishHeaders[.acceptLanguage] = "en"
            let english = try await LanguageTests.page(server, "/timetable/mine", englishHeaders)
            #expect(english.contains(#"type-badge">Lecture</span> Lecture"#))
            #expect(english.contains(#"type-badge">ЛК</span> Лекция"#))
        }
    }
}
