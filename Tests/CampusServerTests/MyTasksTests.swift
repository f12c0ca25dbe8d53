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

/// Tasks with deadlines: their owner's alone, sorted by deadline, with photos checked by their
/// bytes, deadlines picked from the subject's next lessons, and a day's reminder in the feed.
@Suite struct MyTasksTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 300)
    /// Monday 2023-09-25, 10:00 in Minsk: a study week of the fixtures' term.
    static let mondayMorning = Date(timeIntervalSince1970: 1_695_625_200)

    static func upload(_ server: TestServer, task: Int64, _ bytes: [UInt8], as type: String, token: String)
        async throws -> TestResponse
    {
        try await server.http.execute(
            uri: "/api/v1/me/tasks/\(task)/images", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: type], body: ByteBuffer(bytes: bytes))
    }

    @Test(arguments: TestDatabases.kinds)
    func tasksAreTheirOwnersAlone(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind, clock: TestClock(Self.mondayMorning)) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let lab = try await server.api(token: ann).createTask(
                body: .json(
                    .init(
                        subject: " ОАиП ", text: "Lab 3\nwith the report",
                        deadline: Self.mondayMorning.addingTimeInterval(2 * 86400)))
            ).created.body.json
            #expect(lab.subject == "ОАиП" && lab.text == "Lab 3\nwith the report" && !lab.done && lab.images.isEmpty)
            let image = try await Self.upload(server, task: lab.id, Self.png, as: "image/png", token: ann)
            #expect(image.status == .created)
            let url = try #require(image.json["url"] as? String)
            #expect(url.hasPrefix("/api/v1/me/tasks/\(lab.id)/images/"))
            let fetched = try await server.request(.get, url, token: ann)
            #expect(fetched.status == .ok && Array(buffer: fetched.body) == Self.png)
            #expect(fetched.headers[.contentType] == "image/png")

            // Ben sees none of it and can do nothing to it: 404 for every operation.
            #expect(try await server.api(token: ben).listTasks().ok.body.json.items.isEmpty)
            let operations: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/api/v1/me/tasks/\(lab.id)", nil), (.patch, "/api/v1/me/tasks/\(lab.id)", #"{"done":true}"#),
                (.delete, "/api/v1/me/tasks/\(lab.id)", nil), (.get, url, nil), (.delete, url, nil),
            ]
            for (method, path, body) in operations {
                #expect(
                    try await server.request(method, path, json: body, token: ben).status == .notFound,
                    "\(method) \(path)")
            }
            let bensUpload = try await Self.upload(server, task: lab.id, Self.png, as: "image/png", token: ben)
            #expect(bensUpload.status == .notFound)
            #expect(try await server.request(.get, "/api/v1/me/tasks").status == .unauthorized)
            #expect(try await server.request(.get, url).status == .unauthorized)
            #expect(
                try await server.api(token: ann).getTask(path: .init(taskId: lab.id)).ok.body.json.images.count == 1)

            // The list: not done by deadline (none last), then done ones.
            let test = try await server.api(token: ann).createTask(
                body: .json(.init(subject: "Физика", deadline: Self.mondayMorning.addingTimeInterval(3600)))
            ).created.body.json
            let someday = try await server.api(token: ann).createTask(body: .json(.init(subject: "ИГ", text: "Read")))
                .created.body.json
            let old = try await server.api(token: ann).createTask(
                body: .json(
                    .init(subject: "Физика", deadline: Self.mondayMorning.addingTimeInterval(-86400), done: true))
            ).created.body.json
            let listed = try await server.api(token: ann).listTasks().ok.body.json.items.map(\.id)
            #expect(listed == [test.id, lab.id, someday.id, old.id])
            #expect(
                try await server.api(token: ann).listTasks(query: .init(done: true)).ok.body.json.items.map(\.id) == [
                    old.id
                ])

            // Changing: done, a deadline cleared, not both set and cleared.
            let done = try await server.api(token: ann).updateTask(
                path: .init(taskId: test.id), body: .json(.init(done: true))
            ).ok.body.json
            #expect(done.done && done.subject == "Физика" && done.deadline != nil)
            let cleared = try await server.api(token: ann).updateTask(
                path: .init(taskId: lab.id), body: .json(.init(clear: [.deadline]))
            ).ok.body.json
            #expect(cleared.deadline == nil && cleared.text == lab.text)
            let both = try await server.request(
                .patch, "/api/v1/me/tasks/\(lab.id)",
                json: #"{"deadline":"2023-10-01T09:00:00Z","clear":["deadline"]}"#,
                token: ann)
            #expect(both.status == .unprocessableContent && both.text.contains("deadline"))
            let blank = try await server.request(.post, "/api/v1/me/tasks", json: #"{"subject":"   "}"#, token: ann)
            #expect(blank.status == .unprocessableContent && blank.text.contains("subject"))

            // Photos are what their bytes are.
            let lie = try await Self.upload(server, task: lab.id, Self.png, as: "image/jpeg", token: ann)
            #expect(lie.status == .unprocessableContent && lie.text.contains("image/png"))
            let text = try await Self.upload(server, task: lab.id, Array("hello".utf8), as: "image/png", token: ann)
            #expect(text.status == .unprocessableContent)
            let huge = try await Self.upload(
                server, task: lab.id, Self.png + Array(repeating: 0, count: 9 << 20), as: "image/png", token: ann)
            #expect(huge.status == .contentTooLarge)

            // Deleting an image, then the task with the rest.
            #expect(try await server.request(.delete, url, token: ann).status == .noContent)
            #expect(try await server.request(.get, url, token: ann).status == .notFound)
            _ = try await Self.upload(server, task: lab.id, Self.png, as: "image/png", token: ann)
            #expect(try await server.request(.delete, "/api/v1/me/tasks/\(lab.id)", token: ann).status == .noContent)
            #expect(try await server.request(.get, "/api/v1/me/tasks/\(lab.id)", token: ann).status == .notFound)
        }
    }

    @Test func aDeadlineIsPickedFromTheSubjectsNextLessons() async throws {
        try await TestServer.run(clock: TestClock(Self.mondayMorning)) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let all = try await server.api(token: ann).listUpcomingLessons(query: .init(limit: 50)).ok.body.json.items
            let first = try #require(all.first)
            #expect(all.allSatisfy { $0.startsAt > Self.mondayMorning })
            #expect(all.map(\.startsAt) == all.map(\.startsAt).sorted())
            let subject = first.lesson.subject
            let choices = try await server.api(token: ann).listUpcomingLessons(
                query: .init(subject: subject.lowercased(), limit: 3)
            ).ok.body.json.items
            #expect(!choices.isEmpty && choices.count <= 3 && choices.allSatisfy { $0.lesson.subject == subject })
            // The first lesson of the subject is its start in the institution's zone (UTC+3).
            let lesson = try #require(choices.first)
            let parts = lesson.lesson.start.split(separator: ":").compactMap { Int($0) }
            let dayStart = try #require(
                ISO8601DateFormatter().date(from: "\(lesson.lesson.date)T00:00:00+03:00"))
            #expect(lesson.startsAt == dayStart.addingTimeInterval(Double(parts[0] * 3600 + parts[1] * 60)))
            let task = try await server.api(token: ann).createTask(
                body: .json(.init(subject: subject, text: "Report", deadline: lesson.startsAt))
            ).created.body.json
            #expect(task.deadline == lesson.startsAt)
            // Without a group there is no schedule to pick from.
            #expect(try await server.request(.get, "/api/v1/me/upcoming-lessons", token: ben).status == .notFound)
        }
    }

    @Test func theFeedRemindsOfDeadlinesADayBefore() async throws {
        try await TestServer.run(clock: TestClock(Self.mondayMorning)) { server in
            let (ann, _) = try await MyTimetableTests.cast(server)
            let due = Self.mondayMorning.addingTimeInterval(3 * 86400)
            let open = try await server.api(token: ann).createTask(
                body: .json(.init(subject: "ОАиП", text: "Lab 4; with tests", deadline: due))
            ).created.body.json
            let finished = try await server.api(token: ann).createTask(
                body: .json(.init(subject: "Физика", deadline: due, done: true))
            ).created.body.json
            let feed = try await server.api(token: ann).setMyCalendar(body: .json(.init(reminderMinutes: 10))).ok.body
                .json
            let path = try #require(URL(string: feed.url)).path
            let text = try await server.request(.get, path).text
            let event = try #require(
                text.components(separatedBy: "BEGIN:VEVENT").first { $0.contains("UID:task-\(open.id)@") })
            #expect(event.contains("DTSTART;TZID=Europe/Minsk:20230928T100000"))
            #expect(event.contains("SUMMARY:Due: ОАиП") && event.contains("DESCRIPTION:Lab 4\\; with tests"))
            #expect(event.contains("TRIGGER:-P1D"))
            #expect(!text.contains("UID:task-\(finished.id)@"))
        }
    }

    @Test func theTasksPageShowsCountdownsAndOverdueTasks() async throws {
        try await TestServer.run(clock: TestClock(Self.mondayMorning)) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            _ = try await server.api(token: ann).createTask(
                body: .json(.init(subject: "ОАиП", deadline: Self.mondayMorning.addingTimeInterval(2 * 3600 + 300)))
            ).created
            _ = try await server.api(token: ann).createTask(
                body: .json(.init(subject: "Физика", deadline: Self.mondayMorning.addingTimeInterval(-3 * 86400)))
            ).created
            func page(_ path: String, _ token: String) async throws -> String {
                try await server.request(
                    .get, path, headers: [.accept: "text/html", .cookie: "campus_session=\(token)"]
                ).text
            }
            let tasks = try await page("/timetable/mine/tasks", ann)
            #expect(tasks.contains("in 2 h 5 min") && tasks.contains("3 days overdue"))
            #expect(tasks.contains("class=\"task overdue\""))
            let home = try await page("/", ann)
            #expect(home.contains("id=\"glance-tasks\"") && home.contains("ОАиП"))
            #expect(!(try await page("/timetable/mine/tasks", ben)).contains("ОАиП"))
            // The new task's form offers the subject's next lessons as deadlines.
            let subject = try #require(
                try await server.api(token: ann).listUpcomingLessons(query: .init(limit: 1)).ok.body.json.items.first
            ).lesson.subject
            let form = try await page(
                "/timetable/mine/tasks/new?subject=\(subject.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
                ann)
            #expect(form.contains("name=\"deadlineAt\" value=\"2023-09-"))
        }
    }

    /// A deadline is the day it is in Minsk: one that is 1899 or 2201 there is outside the dates
    /// Campus works with, said as such (not as a text that is no date-time), whatever offset it
    /// was written with.
    @Test func deadlinesAreDaysWhereTheInstitutionIs() async throws {
        try await TestServer.run(clock: TestClock(Self.mondayMorning)) { server in
            let (ann, _) = try await MyTimetableTests.cast(server)
            for deadline in ["2200-12-31T23:59:59-14:00", "1900-01-01T00:00:00+14:00", "2200-12-31T21:00:00Z"] {
                let refused = try await server.request(
                    .post, "/api/v1/me/tasks", json: #"{"subject":"ОАиП","deadline":"\#(deadline)"}"#, token: ann)
                #expect(refused.status == .unprocessableContent, "\(deadline): \(refused.text)")
                let detail = refused.json["detail"] as? String ?? ""
                #expect(detail.contains("outside the dates Campus works with"), "\(deadline): \(detail)")
                #expect(!detail.contains("RFC 3339"), "\(deadline): \(detail)")
            }
            // The last second of 2200 in Minsk, written with any offset, is kept as that moment.
            for deadline in ["2200-12-31T20:59:59Z", "2200-12-31T06:59:59-14:00"] {
                let kept = try await server.request(
                    .post, "/api/v1/me/tasks", json: #"{"subject":"ОАиП","deadline":"\#(deadline)"}"#, token: ann)
                #expect(kept.status == .created, "\(deadline): \(kept.text)")
                #expect(kept.json["deadline"] as? String == "2200-12-31T20:59:59Z")
            }
            let malformed = try await server.request(
                .post, "/api/v1/me/tasks", json: #"{"subject":"ОАиП","deadline":"2200-12-31 23:59"}"#,
                token: ann)
            #expect(malformed.status == .unprocessableContent && malformed.text.contains("RFC 3339"))
        }
    }
}
