import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// Saved compound schedules: each student's own, with their own lessons and calendar feed.
@Suite struct MySchedulesTests {
    @Test(arguments: TestDatabases.kinds)
    func savedSchedulesAreTheirOwnersAlone(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind, configure: { $0.baseURL = "https://campus.example.org" }) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let saved = try await server.api(token: ann).createSavedSchedule(
                body: .json(.init(name: " Both ", groups: ["151004", "010101", "151004"]))
            ).created.body.json
            #expect(saved.name == "Both" && saved.groups == ["151004", "010101"])
            #expect(saved.calendarUrl.hasPrefix("https://campus.example.org/api/v1/calendars/"))

            // Its lessons are the compound schedule's.
            let week = (from: "2023-09-25", to: "2023-10-01")
            let lessons = try await server.api(token: ann).getSavedScheduleLessons(
                path: .init(scheduleId: saved.id), query: .init(from: week.from, to: week.to)
            ).ok.body.json
            let compound = try await server.api().getCompoundSchedule(
                body: .json(.init(groups: ["151004", "010101"], from: week.from, to: week.to))
            ).ok.body.json
            #expect(lessons.days.flatMap(\.lessons).map(\.lessonId) == compound.days.flatMap(\.lessons).map(\.lessonId))
            #expect(!lessons.days.flatMap(\.lessons).isEmpty)

            // Its feed needs no login; Ben finds nothing of it.
            let path = String(saved.calendarUrl.dropFirst("https://campus.example.org".count))
            let feed = try await server.request(.get, path)
            #expect(feed.status == .ok && feed.text.contains("X-WR-CALNAME:Both"))
            #expect(try await server.api(token: ben).listSavedSchedules().ok.body.json.items.isEmpty)
            for (method, suffix, body) in [
                (HTTPRequest.Method.get, "", nil), (.get, "/lessons", nil),
                (.put, "", #"{"name":"Mine","groups":["151004"]}"#), (.delete, "", nil),
            ] {
                let answer = try await server.request(
                    method, "/api/v1/me/schedules/\(saved.id)\(suffix)", json: body as String?, token: ben)
                #expect(answer.status == .notFound, "\(method) \(suffix)")
            }

            // What is wrong is said; replacing and deleting (the feed then 404s).
            let empty = try await server.request(.post, "/api/v1/me/schedules", json: #"{"name":"x"}"#, token: ann)
            #expect(empty.status == .unprocessableContent)
            let unknown = try await server.request(
                .post, "/api/v1/me/schedules", json: #"{"name":"x","groups":["999999"]}"#, token: ann)
            #expect(unknown.status == .unprocessableContent && unknown.text.contains("999999"))
            let replaced = try await server.api(token: ann).replaceSavedSchedule(
                path: .init(scheduleId: saved.id), body: .json(.init(name: "Teacher", teachers: ["i-kirinovich"]))
            ).ok.body.json
            #expect(
                replaced.groups.isEmpty && replaced.teachers == ["i-kirinovich"]
                    && replaced.calendarUrl == saved.calendarUrl)
            #expect(
                try await server.request(.delete, "/api/v1/me/schedules/\(saved.id)", token: ann).status == .noContent)
            #expect(try await server.request(.get, path).status == .notFound)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aSavedScheduleKeptInMyScheduleJoinsIt(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let week = (from: "2023-09-25", to: "2023-10-01")
            func mine(_ token: String) async throws -> Set<Int64> {
                Set(
                    try await server.api(token: token).getMySchedule(query: .init(from: week.from, to: week.to)).ok
                        .body.json.days.flatMap(\.lessons).map(\.lessonId))
            }
            let before = try await mine(ann)
            let saved = try await server.api(token: ann).createSavedSchedule(
                body: .json(.init(name: "Kirinovich", teachers: ["i-kirinovich"]))
            ).created.body.json
            #expect(!saved.inMySchedule)
            #expect(try await mine(ann) == before)
            let teacher = Set(
                try await server.api().getTeacherSchedule(
                    path: .init(urlId: "i-kirinovich"), query: .init(from: week.from, to: week.to)
                ).ok.body.json.days.flatMap(\.lessons).map(\.lessonId))
            #expect(!teacher.subtracting(before).isEmpty)
            // Kept in it: my group (my subgroup of it) and every lesson of the teacher.
            let kept = try await server.api(token: ann).replaceSavedSchedule(
                path: .init(scheduleId: saved.id),
                body: .json(.init(name: "Kirinovich", teachers: ["i-kirinovich"], inMySchedule: true))
            ).ok.body.json
            #expect(kept.inMySchedule)
            #expect(try await mine(ann) == before.union(teacher))
            // A replace that does not say keeps it; the page of my schedule shows it.
            let renamed = try await server.api(token: ann).replaceSavedSchedule(
                path: .init(scheduleId: saved.id), body: .json(.init(name: "K.", teachers: ["i-kirinovich"]))
            ).ok.body.json
            #expect(renamed.inMySchedule)
            let page = try await server.request(
                .get, "/timetable?week=\(week.from)", headers: [.accept: "text/html", .cookie: "campus_session=\(ann)"]
            ).text
            #expect(page.contains("id=\"schedule-title\">My schedule") && page.contains("K."))
            #expect(page.contains("id=\"find-schedule\""))
            let directory = try await server.request(
                .get, "/timetable?find=1", headers: [.accept: "text/html", .cookie: "campus_session=\(ann)"]
            ).text
            #expect(directory.contains("id=\"timetable-search\""))

            // Ben, without a group, has a schedule of his own once he keeps one in it; Ann's is not his.
            #expect(try await server.request(.get, "/api/v1/me/schedule", token: ben).status == .notFound)
            _ = try await server.api(token: ben).createSavedSchedule(
                body: .json(.init(name: "Room", teachers: ["i-kirinovich"], inMySchedule: true))
            ).created
            #expect(try await mine(ben) == teacher)
        }
    }
}
