import CampusAPI
import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing

@testable import CampusServer

/// The installed app's offline part: what its service worker keeps of a student's own pages
/// (theirs alone, nothing for a visitor) and the worker itself, which names this version's shell.
@Suite struct OfflinePagesTests {
    @Test func aStudentsOwnPagesAreKeptAndAVisitorHasNone() async throws {
        try await TestServer.run { server in
            var stranger = WebVisit(server)
            let visitor = try await stranger.get("/offline/pages")
            #expect(visitor.status == .ok && visitor.headers[.cacheControl] == "no-store")
            let none = try JSONDecoder().decode(OfflinePages.Kept.self, from: Data(visitor.text.utf8))
            #expect(none.pages.isEmpty && none.schedules.isEmpty)

            let (ann, ben) = try await MyTimetableTests.cast(server)
            let lab = try await server.api(token: ann).createTask(body: .json(.init(subject: "ОАиП", text: "Lab 3")))
                .created.body.json
            let done = try await server.api(token: ann).createTask(body: .json(.init(subject: "ОАиП", text: "Lab 2")))
                .created.body.json
            #expect(
                try await server.request(.patch, "/api/v1/me/tasks/\(done.id)", json: #"{"done":true}"#, token: ann)
                    .status == .ok)
            #expect(try await server.request(.put, "/api/v1/me/favorites/group/010101", token: ann).status == .ok)

            var annVisit = WebVisit(server, token: ann)
            let answer = try await annVisit.get("/offline/pages")
            #expect(answer.headers[.cacheControl] == "no-store")
            let kept = try JSONDecoder().decode(OfflinePages.Kept.self, from: Data(answer.text.utf8))
            #expect(kept.pages.contains("/today") && kept.pages.contains("/timetable/mine/tasks"))
            // Open tasks only.
            #expect(kept.pages.contains("/timetable/mine/tasks/\(lab.id)"))
            #expect(!kept.pages.contains("/timetable/mine/tasks/\(done.id)"))
            // My timetable: this week, the next two and the exams; a favorite: this week and the next.
            let mine = try #require(kept.schedules.first { $0.path == "/timetable" })
            #expect(mine.weeks == 2 && mine.exams)
            let favorite = try #require(kept.schedules.first { $0.path == "/timetable/groups/010101" })
            #expect(favorite.weeks == 1 && !favorite.exams)
            #expect(kept.notesFrom.contains("/timetable"))

            // Ben, without a group, tasks or favorites, keeps no one's schedule.
            var benVisit = WebVisit(server, token: ben)
            let benAnswer = try await benVisit.get("/offline/pages")
            let his = try JSONDecoder().decode(OfflinePages.Kept.self, from: Data(benAnswer.text.utf8))
            #expect(his.schedules.isEmpty && !his.pages.contains { $0.contains("/tasks/") })
        }
    }

    @Test func theWorkerNamesThisVersionsShellAndIsAskedForEachVisit() async throws {
        try await TestServer.run { server in
            let worker = try await server.request(.get, "/service-worker.js")
            #expect(worker.status == .ok)
            #expect(worker.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(worker.headers[.cacheControl] == "no-cache")
            for route in [SiteRoutes.styleSheet, SiteRoutes.script, SiteRoutes.offlineScript, SiteRoutes.playerScript] {
                let link = StaticFiles.link(route)
                #expect(link.contains("?v=") && worker.text.contains("\"\(link)\""), "\(link)")
            }
            #expect(worker.text.contains("self.addEventListener(\"fetch\""))
            // What it shows offline for a page it did not keep.
            var bulgarian = WebVisit(server, language: "bg")
            let offline = try await bulgarian.get("/offline")
            #expect(offline.status == .ok && offline.text.contains("id=\"offline-page\""))
            #expect(offline.text.contains("Нямате мрежа"))
        }
    }

    /// The outbox sends each note and task with an Idempotency-Key, the first time and again: a
    /// post whose answer was lost and that comes again is answered where it went, not done twice.
    @Test(arguments: TestDatabases.kinds)
    func aFormSentTwiceWithItsKeyIsDoneOnce(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let week = try await server.api(token: ann).getMySchedule(
                query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json
            let lesson = try #require(week.days.flatMap(\.lessons).first)
            var visit = WebVisit(server, token: ann)
            _ = try await visit.get("/timetable/lessons/\(lesson.lessonId)/notes")
            let path = "/timetable/lessons/\(lesson.lessonId)/notes"
            let key: HTTPFields = [.idempotencyKey: "0d9c7a52-3f7e-4c55-9a57-0b8f0c1e2d3a"]
            let first = try await visit.post(path, [("text", "Калькулятор")], headers: key)
            let again = try await visit.post(path, [("text", "Калькулятор")], headers: key)
            #expect(first.status == .seeOther && again.status == .seeOther)
            #expect(again.headers[.location] == first.headers[.location])
            func notes(_ token: String) async throws -> Int {
                try await server.api(token: token).listNotes(query: .init()).ok.body.json.items
                    .filter { $0.text == "Калькулятор" }.count
            }
            #expect(try await notes(ann) == 1)
            // Another key (or none) is another post.
            _ = try await visit.post(path, [("text", "Калькулятор")], headers: [.idempotencyKey: "second-key"])
            _ = try await visit.post(path, [("text", "Калькулятор")])
            #expect(try await notes(ann) == 3)
            // A key is one user's: Ben's post with Ann's key is his own, and done.
            var his = WebVisit(server, token: ben)
            _ = try await his.get("/timetable/mine")
            _ = try await server.api(token: ben).updateMe(body: .json(.init(group: "151004"))).ok
            _ = try await his.post(path, [("text", "Калькулятор")], headers: key)
            #expect(try await notes(ben) == 1)
            // A key that is not letters, digits and hyphens is refused.
            let bad = try await visit.post(path, [("text", "x")], headers: [.idempotencyKey: "two keys!"])
            #expect(bad.status == .badRequest, "\(bad.status)")
        }
    }
}
