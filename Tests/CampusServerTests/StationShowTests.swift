import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing

@testable import CampusServer

/// A station's show schedule and its DJs (issue 42): each host's own source credentials work in
/// their show's time only, the broadcast becomes an episode of the show's programme, and the
/// schedule is public, also as a calendar feed.
@Suite(.serialized) struct StationShowTests {
    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    @Test func aDJBroadcastsInTheirShowOnlyAndTheShowIsRecorded() async throws {
        let library = try RadioFallbackTests.programmeLibrary()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("campus-data-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: data)
        }
        try await TestServer.run(configure: { $0.dataDirectory = data.path }) { server in
            let (admin, programme) = try await RadioFallbackTests.scanProgramme(library, on: server)
            let dana = try await server.register("dana@example.org", firstName: "Dana", lastName: "Host").id
            let ann = try await server.register("ann@example.org").id
            try await server.register("bob@example.org")
            let danaToken = try await server.login("dana@example.org")
            let annToken = try await server.login("ann@example.org")
            let bob = try await server.login("bob@example.org")
            _ = try await server.request(
                .post, "/api/v1/stations",
                json: #"{"name":"Campus FM","mount":"studio","sourcePassword":"\#(RadioTests.password)"}"#, token: admin
            )
            let now = server.clock.now
            let morning =
                #"{"title":"Morning","hosts":[\#(dana)],"startsAt":"\#(Self.iso(now - 600))","endsAt":"\#(Self.iso(now + 3000))","programmeId":\#(programme)}"#
            let evening =
                #"{"title":"Evening","hosts":[\#(ann)],"startsAt":"\#(Self.iso(now + 10800))","endsAt":"\#(Self.iso(now + 14400))"}"#
            let path = "/api/v1/stations/studio/shows"
            #expect(try await server.request(.post, path, json: morning).status == .unauthorized)
            #expect(try await server.request(.post, path, json: morning, token: bob).status == .forbidden)
            let added = try await server.request(.post, path, json: morning, token: admin)
            #expect(added.status == .created && added.json["onAir"] as? Bool == true, "\(added.text)")
            #expect(try await server.request(.post, path, json: evening, token: admin).status == .created)
            let bad: [(String, String)] = [
                (#"{"title":"X","hosts":[999999],"weekdays":[1],"from":"08:00","to":"09:00"}"#, "hosts"),
                (#"{"title":"X","hosts":[\#(ann)],"weekdays":[],"from":"08:00","to":"09:00"}"#, "weekdays"),
                (
                    #"{"title":"X","hosts":[\#(ann)],"startsAt":"\#(Self.iso(now))","endsAt":"\#(Self.iso(now - 60))"}"#,
                    "endsAt"
                ),
                (#"{"title":"X","hosts":[\#(ann)],"weekdays":[1]}"#, "from"),
            ]
            for (json, field) in bad {
                let refused = try await server.request(.post, path, json: json, token: admin)
                #expect(
                    refused.status == .unprocessableContent && refused.text.contains(field), "\(json): \(refused.text)")
            }

            // Credentials: each host their own; nobody else.
            let credentials = "/api/v1/stations/studio/dj-credentials"
            #expect(try await server.request(.post, credentials).status == .unauthorized)
            #expect(try await server.request(.post, credentials, token: bob).status == .forbidden)
            let danas = try await server.request(.post, credentials, token: danaToken)
            #expect(danas.status == .created && danas.json["user"] as? String == "dj-\(dana)", "\(danas.text)")
            let anns = try await server.request(.post, credentials, token: annToken)
            let danaPassword = danas.json["password"] as? String ?? ""
            let annPassword = anns.json["password"] as? String ?? ""

            // Ann's show is not on: refused. A wrong password: refused. Dana's show is on: live.
            let early = try RadioTests.source(
                port: server.port, mount: "studio", user: "dj-\(ann)", password: annPassword, seconds: 1)
            let refused = await RadioTests.finished(early)
            #expect(refused.status != 0 && refused.error.contains("403"), "\(refused.error)")
            let wrong = try RadioTests.source(
                port: server.port, mount: "studio", user: "dj-\(dana)", password: "wrong-password", seconds: 1)
            #expect(await RadioTests.finished(wrong).error.contains("401"))
            let source = try RadioTests.source(
                port: server.port, mount: "studio", user: "dj-\(dana)", password: danaPassword, seconds: 4)
            try await RadioFallbackTests.eventually("Dana is on the air") {
                try await server.request(.get, "/api/v1/stations/studio").json["live"] as? Bool == true
            }
            // Dana's title updates through the admin API with her own credentials.
            let basic = Data("dj-\(dana):\(danaPassword)".utf8).base64EncodedString()
            let title = try await server.request(
                .get, "/admin/metadata?mount=/radio/studio&mode=updinfo&song=Dana%20-%20Good%20morning",
                headers: [.authorization: "Basic \(basic)"])
            #expect(title.status == .ok)
            #expect(await RadioTests.finished(source).status == 0)
            // Her broadcast is an episode of the show's programme.
            try await RadioFallbackTests.eventually("the show is an episode") {
                let detail = try await server.request(.get, "/api/v1/programmes/\(programme)", token: admin)
                let items = detail.json["items"] as? [[String: Any]] ?? []
                return items.count == 2 && (items.first?["title"] as? String)?.hasSuffix("Dana - Good morning") == true
            }

            // The schedule, public; and as a calendar.
            let shows = try await server.request(.get, path)
            let items = shows.json["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["title"] as? String } == ["Morning", "Evening"])
            #expect(((items.first?["hosts"] as? [[String: Any]])?.first?["name"] as? String) == "Dana Host")
            let feed = try await server.request(.get, "/api/v1/stations/studio/shows.ics")
            #expect(feed.status == .ok && feed.headers[.contentType]?.hasPrefix("text/calendar") == true)
            #expect(feed.text.contains("SUMMARY:Morning") && feed.text.contains("BEGIN:VTIMEZONE"), "\(feed.text)")
            // An admin removes a show; a student may not.
            let id = (added.json["id"] as? NSNumber)?.int64Value ?? 0
            #expect(try await server.request(.delete, "\(path)/\(id)", token: bob).status == .forbidden)
            #expect(try await server.request(.delete, "\(path)/\(id)", token: admin).status == .noContent)
            #expect(try await server.request(.delete, "\(path)/\(id)", token: admin).status == .notFound)
        }
    }

    @Test func adminsScheduleShowsOnThePageAndHostsGetTheirCredentialsThere() async throws {
        try await TestServer.run { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            try await server.register("dana@example.org", firstName: "Dana", lastName: "Host")
            try await server.register("bob@example.org")
            let dana = try await server.login("dana@example.org")
            let bob = try await server.login("bob@example.org")
            _ = try await server.request(
                .post, "/api/v1/stations",
                json: #"{"name":"Campus FM","mount":"studio","sourcePassword":"\#(RadioTests.password)"}"#, token: admin
            )
            var visit = WebVisit(server, token: admin, language: "bg")
            _ = try await visit.get("/listen/radio/studio")
            let unknown = try await visit.post(
                "/listen/radio/studio/shows",
                [
                    ("title", "Нощна смяна"), ("hosts", "nobody@example.org"), ("days[]", "5"), ("from", "23:00"),
                    ("to", "01:00"),
                ])
            #expect(unknown.status == .unprocessableContent && unknown.text.contains("nobody@example.org"))
            let added = try await visit.post(
                "/listen/radio/studio/shows",
                [
                    ("title", "Нощна смяна"), ("hosts", "dana@example.org"), ("days[]", "5"), ("from", "23:00"),
                    ("to", "01:00"),
                ])
            #expect(added.status == .seeOther, "\(added.text)")
            var host = WebVisit(server, token: dana, language: "ru")
            let page = try await host.get("/listen/radio/studio")
            #expect(
                page.text.contains("Нощна смяна") && page.text.contains("23:00–01:00")
                    && page.text.contains("Dana Host"))
            let credentials = try await host.post("/listen/radio/studio/dj", [])
            #expect(credentials.status == .ok && credentials.text.contains("id=\"dj-user\">dj-"), "\(credentials.text)")
            var listener = WebVisit(server, token: bob)
            let seen = try await listener.get("/listen/radio/studio")
            #expect(seen.text.contains("Нощна смяна") && !seen.text.contains("id=\"dj\""))
            #expect(!seen.text.contains("id=\"add-show\""))
            #expect(try await listener.post("/listen/radio/studio/dj", []).status == .forbidden)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func onlyAdminsReadListenerStatistics(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            try await server.register("bob@example.org")
            let bob = try await server.login("bob@example.org")
            _ = try await server.request(
                .post, "/api/v1/stations",
                json: #"{"name":"Campus FM","mount":"studio","sourcePassword":"\#(RadioTests.password)"}"#, token: admin
            )
            let path = "/api/v1/stations/studio/statistics?days=7"
            #expect(try await server.request(.get, path).status == .unauthorized)
            #expect(try await server.request(.get, path, token: bob).status == .forbidden)
            let answer = try await server.request(.get, path, token: admin)
            #expect(answer.status == .ok && (answer.json["days"] as? [Any])?.count == 7, "\(answer.text)")
            #expect(
                try await server.request(.get, "/api/v1/stations/nowhere/statistics", token: admin).status == .notFound)
            var visit = WebVisit(server, token: admin, language: "ru")
            let page = try await visit.get("/listen/radio/studio")
            #expect(page.text.contains("listener-chart") && page.text.contains("id=\"listener-days\""))
            var listener = WebVisit(server, token: bob)
            #expect(!(try await listener.get("/listen/radio/studio")).text.contains("listener-chart"))
        }
    }
}
