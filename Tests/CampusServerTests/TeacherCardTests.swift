import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// Teachers' cards by students: one answer per user and teacher, counted together; admins hide
/// descriptions.
@Suite struct TeacherCardTests {
    @Test(arguments: TestDatabases.kinds)
    func answersAreCountedAndEachUsersOwn(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            let teacher = "i-kirinovich"
            _ = try await server.api(token: ann).answerTeacherCard(
                path: .init(urlId: teacher), body: .json(.init(description: "Kind", attendance: .no))
            ).ok
            // A second answer replaces the first.
            let annsAnswer = try await server.api(token: ann).answerTeacherCard(
                path: .init(urlId: teacher),
                body: .json(.init(description: " Strict but fair ", attendance: .yes, automaticPass: true))
            ).ok.body.json
            #expect(annsAnswer.description == "Strict but fair" && annsAnswer.attendance == .yes)
            _ = try await server.api(token: ben).answerTeacherCard(
                path: .init(urlId: teacher), body: .json(.init(attendance: .yes, automaticPass: false))
            ).ok
            let card = try await server.api().getTeacherCard(path: .init(urlId: teacher)).ok.body.json
            #expect(card.answers == 2 && card.attendance.yes == 2 && card.attendance.no == 0)
            #expect(card.majorityAttendance == .yes && card.majorityAutomaticPass == nil)
            #expect(card.descriptions == ["Strict but fair"])

            // Each user's own answer: Ben reads his, not Ann's; an empty answer is refused.
            #expect(
                try await server.api(token: ben).getMyTeacherCardAnswer(path: .init(urlId: teacher)).ok.body.json
                    .description == nil)
            let empty = try await server.request(.put, "/api/v1/me/teacher-cards/\(teacher)", json: "{}", token: ann)
            #expect(empty.status == .unprocessableContent)
            #expect(
                try await server.request(
                    .put, "/api/v1/me/teacher-cards/nobody", json: #"{"attendance":"yes"}"#, token: ann
                )
                .status == .notFound)

            // Moderation: students may not, admins hide a description (the answer still counts).
            let path = "/api/v1/teacher-card-answers/\(annsAnswer.id)/moderation"
            #expect(try await server.request(.put, path, json: #"{"hidden":true}"#, token: ben).status == .forbidden)
            #expect(try await server.request(.put, path, json: #"{"hidden":true}"#, token: admin).status == .ok)
            let moderated = try await server.api().getTeacherCard(path: .init(urlId: teacher)).ok.body.json
            #expect(moderated.descriptions.isEmpty && moderated.answers == 2)

            // Taking an answer back.
            #expect(
                try await server.request(.delete, "/api/v1/me/teacher-cards/\(teacher)", token: ben).status
                    == .noContent)
            #expect(
                try await server.request(.get, "/api/v1/me/teacher-cards/\(teacher)", token: ben).status == .notFound)
            #expect(try await server.api().getTeacherCard(path: .init(urlId: teacher)).ok.body.json.answers == 1)
        }
    }
}
