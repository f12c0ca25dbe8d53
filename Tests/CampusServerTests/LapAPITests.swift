import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// Laps and splits through the API and the page (issue 41), on SQLite and PostgreSQL: a result
/// entered as laps or splits, the best lap in the ranking, lap records, CSV, and a typed result
/// that replaces the laps. Who may: CompeteAuthorizationTests.
@Suite struct LapAPITests {
    static func laps(_ server: TestServer, _ id: Int64, _ user: Int64, _ json: String, _ token: String)
        async throws -> TestResponse
    {
        try await server.request(
            .put, "/api/v1/competitions/\(id)/participants/\(user)/laps", json: json, token: token)
    }

    @Test(arguments: TestDatabases.kinds) func aResultMadeOfLaps(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner, name: "Track 1500", metric: "time")
            let base = "/api/v1/competitions/\(id)"
            for token in [cast.ann, cast.ben] {
                _ = try await server.request(.post, "\(base)/participants/me", token: token)
            }
            // Ann's laps; Ben's splits as a timing clock shows them. Both finish in 4:30;
            // Ann's best lap is 1:25, Ben's 1:25 too (a shared record).
            let ann = try await Self.laps(server, id, cast.annID, #"{"laps": [95, 85.4, 90]}"#, cast.owner)
            #expect(ann.status == .ok, "\(ann.text)")
            #expect(ann.json["result"] as? Double == 270 && ann.json["laps"] as? [Double] == [95, 85, 90])
            #expect(ann.json["bestLapText"] as? String == "1:25")
            let ben = try await Self.laps(server, id, cast.benID, #"{"splits": [85, 180, 270]}"#, cast.owner)
            #expect(ben.status == .ok && ben.json["laps"] as? [Double] == [85, 95, 90], "\(ben.text)")

            let ranking = try await server.request(.get, "\(base)/ranking", token: cast.ben)
            let items = ranking.json["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["rank"] as? Int } == [1, 1])
            #expect(items.allSatisfy { $0["bestLap"] as? Double == 85 })

            let records = try await server.request(.get, "\(base)/laps", token: cast.ann)
            let best = records.json["best"] as? [String: Any]
            #expect(best?["valueText"] as? String == "1:25" && (best?["holders"] as? [Any])?.count == 2)
            let perLap = records.json["laps"] as? [[String: Any]] ?? []
            #expect(perLap.map { $0["lap"] as? Int } == [1, 2, 3])
            #expect(perLap.map { $0["value"] as? Double } == [85, 85, 90])
            #expect(((perLap[1]["holders"] as? [[String: Any]])?.first)?["name"] as? String == "Ann Runner")

            let csv = try await server.request(.get, "\(base)/results.csv", token: cast.owner)
            #expect(csv.text.split(separator: "\r\n").first?.hasSuffix(",laps,best_lap") == true)
            #expect(csv.text.contains(",95;85;90,85"), "\(csv.text)")

            // Splits that go back, a lap of nothing, laps and splits at once, points: 422.
            for json in [#"{"splits": [85, 80]}"#, #"{"laps": [0]}"#, #"{"laps": [60], "splits": [60]}"#, #"{}"#] {
                let refused = try await Self.laps(server, id, cast.annID, json, cast.owner)
                #expect(refused.status == .unprocessableContent, "\(json): \(refused.text)")
            }
            let points = try await server.createCompetition(cast.owner, name: "Quiz", metric: "points")
            _ = try await server.request(.post, "/api/v1/competitions/\(points)/participants/me", token: cast.ann)
            let noLaps = try await Self.laps(server, points, cast.annID, #"{"laps": [3]}"#, cast.owner)
            #expect(noLaps.status == .unprocessableContent)

            // A typed result replaces the laps: the result has one source.
            let typed = try await server.request(
                .put, "\(base)/participants/\(cast.annID)/result", json: #"{"value": 268}"#, token: cast.owner)
            #expect(typed.status == .ok && typed.json["laps"] == nil && typed.json["bestLap"] == nil)
            let after = try await server.request(.get, "\(base)/laps", token: cast.ann)
            #expect(((after.json["best"] as? [String: Any])?["holders"] as? [Any])?.count == 1)
        }
    }

    @Test func theOrganizerEntersLapsOnThePage() async throws {
        try await TestServer.run(.sqlite) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner, name: "Relay", metric: "distance")
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
            var owner = WebVisit(server, token: cast.owner, language: "ru")
            _ = try await owner.get("/compete/\(id)")
            let saved = try await owner.post(
                "/compete/\(id)/participants/\(cast.annID)/laps", [("laps", "2,5 2,75; 3")])
            #expect(saved.status == .seeOther)
            let page = try await owner.get("/compete/\(id)")
            #expect(page.text.contains("8,25 км"), "the sum is the result")
            #expect(page.text.contains(#"id="lap-records""#) && page.text.contains("3 км"))
            #expect(page.text.contains(#"value="2,5 2,75 3""#))
            // A lap that is not one comes back as a message.
            _ = try await owner.post("/compete/\(id)/participants/\(cast.annID)/laps", [("laps", "2,5 fast")])
            #expect(try await owner.get("/compete/\(id)").text.contains("fast"))
        }
    }
}
