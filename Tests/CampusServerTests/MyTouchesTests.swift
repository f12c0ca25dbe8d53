import CampusAPI
import CampusClient
import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// A user's nicknames for groups and colours for lesson types: shown to them alone.
@Suite struct MyTouchesTests {
    @Test(arguments: TestDatabases.kinds)
    func nicknamesAndColoursAreTheUsersAlone(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let nickname = try await server.api(token: ann).setNickname(
                path: .init(name: "151004"), body: .json(.init(nickname: "  Мы "))
            ).ok.body.json
            #expect(nickname.nickname == "Мы")
            let colour = try await server.api(token: ann).setLessonColour(
                path: .init(typeId: "ЛК"), body: .json(.init(colour: "#AA00FF"))
            ).ok.body.json
            #expect(colour.colour == "#aa00ff")
            #expect(try await server.api(token: ann).listNicknames().ok.body.json.items.map(\.nickname) == ["Мы"])
            #expect(
                try await server.api(token: ann).listLessonColours().ok.body.json.items.map(\.colour) == ["#aa00ff"])

            // Ben has none, and removing Ann's is 404 for him.
            #expect(try await server.api(token: ben).listNicknames().ok.body.json.items.isEmpty)
            #expect(try await server.api(token: ben).listLessonColours().ok.body.json.items.isEmpty)
            let encodedType = "ЛК".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
            #expect(try await server.request(.delete, "/api/v1/me/nicknames/151004", token: ben).status == .notFound)
            #expect(
                try await server.request(.delete, "/api/v1/me/lesson-colours/\(encodedType)", token: ben).status
                    == .notFound)

            // What the timetable lacks, and what is no colour, is said.
            let unknown = try await server.request(
                .put, "/api/v1/me/nicknames/999999", json: #"{"nickname":"x"}"#, token: ann)
            #expect(unknown.status == .notFound)
            let noType = try await server.request(
                .put, "/api/v1/me/lesson-colours/XX", json: ##"{"colour":"#000000"}"##, token: ann)
            #expect(noType.status == .notFound)
            let notAColour = try await server.request(
                .put, "/api/v1/me/lesson-colours/\(encodedType)", json: #"{"colour":"red"}"#, token: ann)
            #expect(notAColour.status == .unprocessableContent)

            // The pages: Ann's style sheet colours lectures her way, Ben's is empty; the group's page
            // and a teacher's lessons name 151004 by Ann's nickname for her only.
            func get(_ path: String, _ token: String) async throws -> String {
                try await server.request(
                    .get, path, headers: [.accept: "text/html", .cookie: "campus_session=\(token)"]
                ).text
            }
            #expect(try await get("/timetable/mine/lesson-types.css", ann).contains("--type-colour: #aa00ff;"))
            #expect(try await get("/timetable/mine/lesson-types.css", ben).isEmpty)
            #expect(try await get("/timetable/groups/151004?week=2023-09-25", ann).contains("Group 151004 · Мы"))
            #expect(!(try await get("/timetable/groups/151004?week=2023-09-25", ben).contains("Мы")))
            let teacher = try await server.api().getGroupSchedule(
                path: .init(name: "151004"), query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json.days.flatMap(\.lessons).flatMap(\.teachers).first
            let urlID = try #require(teacher?.urlId)
            #expect(try await get("/timetable/teachers/\(urlID)?week=2023-09-25", ann).contains("Мы (151004)"))

            // Removing.
            #expect(try await server.request(.delete, "/api/v1/me/nicknames/151004", token: ann).status == .noContent)
            #expect(
                try await server.request(.delete, "/api/v1/me/lesson-colours/\(encodedType)", token: ann).status
                    == .noContent)
            #expect(try await server.api(token: ann).listNicknames().ok.body.json.items.isEmpty)
        }
    }
}

/// A teacher's page shows their photo (from the institution's photo host, which the content
/// security policy allows) and e-mail.
@Suite struct TeacherPageTests {
    @Test func aTeachersPhotoAndEmail() async throws {
        try await TestServer.run { server in
            try await server.importFixtures()
            let page = try await server.request(
                .get, "/timetable/teachers/i-kirinovich", headers: [.accept: "text/html"])
            #expect(page.text.contains(#"src="https://iis.bsuir.by/api/v1/employees/photo/"#))
            let policy = page.headers[HTTPField.Name("Content-Security-Policy")!] ?? ""
            #expect(policy.contains("img-src 'self' data: https://iis.bsuir.by;"))
        }
    }

    @Test func onlyOriginsAreAllowedAsImageHosts() {
        #expect(SecurityHeadersMiddleware.isOrigin("https://iis.bsuir.by"))
        #expect(SecurityHeadersMiddleware.isOrigin("https://photos.example.org:8443"))
        #expect(!SecurityHeadersMiddleware.isOrigin("http://iis.bsuir.by"))
        #expect(!SecurityHeadersMiddleware.isOrigin("https://a.org; script-src *"))
        #expect(!SecurityHeadersMiddleware.isOrigin("https://a.org/path"))
    }
}
