import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Logging
import Storage
import Testing
import Yams

@testable import CampusServer

@Suite struct SystemTests {
    @Test(arguments: TestDatabases.kinds)
    func healthReadinessAndMetrics(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            #expect(try await server.api().getHealth().ok.body.json.status == .ok)
            let ready = try await server.api().getReadiness().ok.body.json
            #expect(ready.status == .ready)
            #expect(ready.database?.rawValue == kind.rawValue)
            let metrics = try await server.request(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.text.contains("hb_requests"))
        }
    }

    @Test func everyRequestIsLoggedOnceWithItsStatus() async throws {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "test") { _ in handler }
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        defer { Task { await cleanup() } }
        try await TestServer.run(location: location, logger: logger) { server in
            _ = try await server.request(.get, "/health")
            _ = try await server.request(.get, "/api/v1/me?token=secret")
            _ = try await server.request(.post, "/nowhere")
        }
        let lines = handler.entries.filter { $0.message == "request" }
        #expect(lines.map { $0.metadata["status"]?.description } == ["200", "401", "404"])
        #expect(lines.map { $0.metadata["path"]?.description } == ["/health", "/api/v1/me", "/nowhere"])
        #expect(lines.allSatisfy { $0.metadata["duration_ms"] != nil && $0.metadata["hb.request.id"] != nil })
        #expect(!lines.contains { $0.metadata.description.contains("secret") })
    }

    @Test func theOpenAPIDocumentIsServedAsFileJSONAndPage() async throws {
        try await TestServer.run { server in
            let yaml = try await server.request(.get, "/openapi.yaml")
            #expect(yaml.status == .ok)
            #expect(yaml.text == (try CampusAPIDocument.yaml()))
            let parsed = try Yams.load(yaml: yaml.text) as? [String: Any]
            #expect(parsed?["openapi"] as? String == "3.1.0")
            let json = try await server.request(.get, "/openapi.json")
            #expect((json.json["paths"] as? [String: Any])?["/api/v1/auth/login"] != nil)
            let docs = try await server.request(.get, "/api", headers: [.accept: "text/html"])
            #expect(docs.status == .ok)
            #expect(docs.text.contains("/api/v1/auth/register"))
            #expect(docs.text.contains("op-login"))
        }
    }

    @Test func institutionHasAName() async throws {
        try await TestServer.run(configure: { $0.demo = true }) { server in
            let institution = try await server.api().getInstitution().ok.body.json
            #expect(institution.name == Demo.institutionName)
            #expect(institution.timeZone == "Europe/Minsk")
        }
    }

    /// The demo's autumn terms move on by whole study cycles once they are over: on the test
    /// clock's Friday in January the demo student's week has lessons, each in its study week.
    @Test func theDemoWeekHasLessonsAfterTheAutumnTerm() async throws {
        try await TestServer.run(configure: { $0.demo = true }) { server in
            let week = try await server.request(.get, "/api/v1/groups/151004/schedule")
            #expect(week.status == .ok)
            let days = week.json["days"] as? [[String: Any]] ?? []
            #expect(days.first?["date"] as? String == "2027-01-11")
            #expect(days.contains { !($0["lessons"] as? [Any] ?? []).isEmpty })
            #expect(days.allSatisfy { ($0["week"] as? Int) == 4 })
        }
    }

    @Test func dataSurvivesARestart() async throws {
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        defer { Task { await cleanup() } }
        _ = try await TestServer.run(location: location) { server in
            try await server.register("ann@example.org")
        }
        try await TestServer.run(location: location) { server in
            _ = try await server.login("ann@example.org")
        }
    }

    @Test func demoAccountsLogIn() async throws {
        try await TestServer.run(configure: { $0.demo = true }) { server in
            for account in Demo.accounts {
                let token = try await server.login(account.email, password: account.password)
                let me = try await server.api(token: token).getMe().ok.body.json
                #expect(me.role.rawValue == account.role.rawValue)
            }
        }
    }
}
