import CampusTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import CampusServer

/// Icecast 2.4's admin and status answers (issue 42): what monitors and DJ software read.
@Suite struct RadioAdministrationTests {
    @Test func listClientsStatsAndStatusAnswerAsIcecastDoes() async throws {
        try await TestServer.run { server in
            try await server.addStation(mount: "campus.mp3", password: RadioTests.password)
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            let source = try RadioTests.source(port: server.port, mount: "campus.mp3", seconds: 120)
            defer { if source.isRunning { kill(source.processIdentifier, SIGKILL) } }
            try await RadioTests.waitOnAir(server, mount: "campus.mp3", title: "Кино — Группа крови")
            async let heard = RadioFallbackTests.listen("http://127.0.0.1:\(server.port)/radio/campus.mp3", seconds: 8)
            let source64 = Data("source:\(RadioTests.password)".utf8).base64EncodedString()
            let basic: HTTPFields = [.authorization: "Basic \(source64)"]
            var clients = ""
            try await RadioFallbackTests.eventually("the listener is listed") {
                let answer = try await server.request(
                    .get, "/admin/listclients?mount=/radio/campus.mp3", headers: basic)
                clients = answer.text
                return answer.status == .ok && clients.contains("<Listeners>1</Listeners>")
            }
            #expect(clients.contains("<source mount=\"/radio/campus.mp3\">") && clients.contains("<UserAgent>Lavf"))
            #expect(clients.contains("<IP>127.0.0.1</IP>") && clients.contains("<Connected>"), "\(clients)")
            let wrong: HTTPFields = [.authorization: "Basic \(Data("source:wrong-one".utf8).base64EncodedString())"]
            #expect(
                try await server.request(.get, "/admin/listclients?mount=/radio/campus.mp3", headers: wrong).status
                    == .unauthorized)
            #expect(
                try await server.request(.get, "/admin/listclients?mount=/radio/campus.mp3").status == .unauthorized)

            // A station's own stats with its source credentials; every station's for admins.
            let own = try await server.request(.get, "/admin/stats?mount=/radio/campus.mp3", headers: basic)
            #expect(own.status == .ok && own.headers[.contentType]?.hasPrefix("text/xml") == true)
            #expect(
                own.text.contains("<title>Кино — Группа крови</title>") && own.text.contains("<server_name>Campus FM"))
            #expect(try await server.request(.get, "/admin/stats").status == .unauthorized)
            #expect(try await server.request(.get, "/admin/stats", token: ann).status == .forbidden)
            let all = try await server.request(.get, "/admin/stats", token: admin)
            #expect(all.status == .ok && all.text.contains("<sources>1</sources>"), "\(all.text)")

            // The public status, as Icecast 2.4 writes it: one source is an object.
            let status = try await server.request(.get, "/status-json.xsl")
            let stats = status.json["icestats"] as? [String: Any] ?? [:]
            let one = stats["source"] as? [String: Any] ?? [:]
            #expect(stats["server_id"] as? String == "Campus", "\(status.text)")
            #expect(one["title"] as? String == "Кино — Группа крови" && one["server_name"] as? String == "Campus FM")
            #expect(one["listeners"] as? Int == 1 && one["listener_peak"] as? Int ?? 0 >= 1, "\(status.text)")
            #expect((one["listenurl"] as? String)?.hasSuffix("/radio/campus.mp3") == true)
            #expect(try await heard > 6)
            kill(source.processIdentifier, SIGKILL)
            _ = await RadioTests.finished(source)
            try await RadioFallbackTests.eventually("no source in the status") {
                let status = try await server.request(.get, "/status-json.xsl")
                return (status.json["icestats"] as? [String: Any])?["source"] == nil
            }
        }
    }
}
