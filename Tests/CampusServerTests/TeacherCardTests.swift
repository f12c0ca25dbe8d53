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
            // The audit log has it once, with what changed.
            let audited = try await server.audit("?action=teacher-card.moderated", token: admin)
            #expect(audited.count == 1 && audited.first?.targetID == "\(annsAnswer.id)")

            // Taking an answer back.
            #expect(
                try await server.request(.delete, "/api/v1/me/teacher-cards/\(teacher)", token: ben).status
                    == .noContent)
            #expect(
                try await server.request(.get, "/api/v1/me/teacher-cards/\(teacher)", token: ben).status == .notFound)
            #expect(try await server.api().getTeacherCard(path: .init(urlId: teacher)).ok.body.json.answers == 1)
        }
    }

    /// Moderation sticks: a hidden description stays hidden whatever its author does (changes
    /// it, saves it as it was, takes the answer back and answers again) until an admin shows it.
    @Test(arguments: TestDatabases.kinds)
    func aHiddenDescriptionStaysHiddenUntilAnAdminShowsIt(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let (ann, _) = try await MyTimetableTests.cast(server)
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            let teacher = "i-kirinovich"
            let path = "/api/v1/me/teacher-cards/\(teacher)"
            func descriptions() async throws -> [String] {
                try await server.api().getTeacherCard(path: .init(urlId: teacher)).ok.body.json.descriptions
            }
            let first = try await server.request(.put, path, json: #"{"description":"Rude words"}"#, token: ann)
            let id = try #require((first.json["id"] as? NSNumber)?.int64Value)
            let moderation = "/api/v1/teacher-card-answers/\(id)/moderation"
            #expect(try await server.request(.put, moderation, json: #"{"hidden":true}"#, token: admin).status == .ok)
            #expect(try await descriptions().isEmpty)

            // A new text, the same text, attendance alone: still hidden, and the author is told.
            for body in [
                #"{"description":"Nice words now"}"#, #"{"description":"Nice words now"}"#,
                #"{"description":"Other words","attendance":"yes"}"#,
            ] {
                let saved = try await server.request(.put, path, json: body, token: ann)
                #expect(saved.status == .ok && saved.json["hidden"] as? Bool == true, "\(body): \(saved.text)")
                #expect(try await descriptions().isEmpty, "\(body)")
            }
            let card = try await server.api().getTeacherCard(path: .init(urlId: teacher)).ok.body.json
            #expect(card.answers == 1 && card.attendance.yes == 1)

            // Taking the answer back and answering again does not undo the hiding either.
            #expect(try await server.request(.delete, path, token: ann).status == .noContent)
            #expect(try await server.request(.get, path, token: ann).status == .notFound)
            #expect(try await server.api().getTeacherCard(path: .init(urlId: teacher)).ok.body.json.answers == 0)
            #expect(try await server.request(.delete, path, token: ann).status == .notFound)
            let emptyRow = try await server.request(.put, moderation, json: #"{"hidden":false}"#, token: admin)
            #expect(emptyRow.status == .notFound)
            let again = try await server.request(.put, path, json: #"{"description":"Rude words again"}"#, token: ann)
            #expect(again.status == .ok && again.json["hidden"] as? Bool == true, "\(again.text)")
            #expect(try await descriptions().isEmpty)

            // The author's page says so.
            let page = try await server.request(
                .get, "/timetable/teachers/\(teacher)",
                headers: [.accept: "text/html", .cookie: "campus_session=\(ann)"])
            #expect(page.text.contains(#"id="card-description-hidden""#))

            // An admin shows it: what it says now is public.
            let againID = try #require((again.json["id"] as? NSNumber)?.int64Value)
            let shown = try await server.request(
                .put, "/api/v1/teacher-card-answers/\(againID)/moderation", json: #"{"hidden":false}"#, token: admin)
            #expect(shown.status == .ok && shown.json["hidden"] as? Bool == false)
            #expect(try await descriptions() == ["Rude words again"])
            // From then on the author's changes show, until an admin hides them again.
            _ = try await server.request(.put, path, json: #"{"description":"Kind words"}"#, token: ann)
            #expect(try await descriptions() == ["Kind words"])
        }
    }
}
