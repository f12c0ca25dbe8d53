import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
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
}
