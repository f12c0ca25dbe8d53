import AsyncHTTPClient
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

/// The people of a competition test: an organizer who owns it, another organizer, two
/// participants and an admin, each with a bearer token.
struct CompeteCast: Sendable {
    var owner: String
    var otherOrganizer: String
    var ann: String
    var ben: String
    var admin: String
    var annID: Int64
    var benID: Int64
    var ownerID: Int64
    var adminID: Int64

    static func make(_ server: TestServer) async throws -> CompeteCast {
        let owner = try await server.register(
            "owner@example.org", firstName: "Olga", lastName: "Owner", organizer: true)
        try await server.register("other@example.org", firstName: "Oleg", lastName: "Other", organizer: true)
        let ann = try await server.register("ann@example.org", firstName: "Ann", lastName: "Runner")
        let ben = try await server.register("ben@example.org", firstName: "Ben", lastName: "Walker")
        let admin = try await server.register("admin@example.org", firstName: "Ada", lastName: "Admin")
        try await server.makeAdmin("admin@example.org")
        return CompeteCast(
            owner: try await server.login("owner@example.org"),
            otherOrganizer: try await server.login("other@example.org"),
            ann: try await server.login("ann@example.org"), ben: try await server.login("ben@example.org"),
            admin: try await server.login("admin@example.org"), annID: ann.id, benID: ben.id, ownerID: owner.id,
            adminID: admin.id)
    }
}

extension TestServer {
    /// Creates a competition as `token` and returns its id.
    func createCompetition(
        _ token: String, name: String = "Campus 10K", metric: String = "time", extra: String = ""
    ) async throws -> Int64 {
        let response = try await request(
            .post, "/api/v1/competitions",
            json: #"{"name":"\#(name)","description":"Two laps of the park","metric":"\#(metric)"\#(extra)}"#,
            token: token)
        #expect(response.status == .created, "\(response.text)")
        return (response.json["id"] as? NSNumber)?.int64Value ?? 0
    }

    func ranking(_ id: Int64, token: String) async throws -> [[String: Any]] {
        let response = try await request(.get, "/api/v1/competitions/\(id)/ranking", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return response.json["items"] as? [[String: Any]] ?? []
    }
}

@Suite struct CompeteAPITests {
    @Test(arguments: TestDatabases.kinds)
    func organizerAndParticipantsRunACompetition(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            // The generated client works for the whole flow.
            let created = try await server.api(token: cast.owner).createCompetition(
                body: .json(.init(name: "  Campus 10K ", description: "Two laps", metric: .time))
            ).created.body.json
            #expect(created.name == "Campus 10K")
            #expect(created.active)
            #expect(created.unit == "s")
            #expect(created.canManage)
            #expect(created.seriesId == created.id)
            let id = created.id

            // Ann and Ben join; a second join is a conflict.
            let joined = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
            #expect(joined.status == .created)
            #expect(joined.json["rank"] == nil)
            #expect(
                try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann).status
                    == .conflict)
            #expect(
                try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ben).status
                    == .created)
            let seen = try await server.api(token: cast.ann).getCompetition(path: .init(competitionId: id)).ok.body.json
            #expect(seen.joined)
            #expect(!seen.canManage)
            #expect(seen.participants == 2)

            // Without results nobody is ranked; a result ranks its holder first, the other follows.
            var ranking = try await server.ranking(id, token: cast.ann)
            #expect(ranking.map { $0["rank"] == nil } == [true, true])
            let result = try await server.request(
                .put, "/api/v1/competitions/\(id)/participants/\(cast.benID)/result", json: #"{"value": 2999.6}"#,
                token: cast.owner)
            #expect(result.status == .ok, "\(result.text)")
            #expect(result.json["result"] as? Double == 3000)
            #expect(result.json["resultText"] as? String == "50:00")
            #expect(result.json["rank"] as? Int == 1)
            ranking = try await server.ranking(id, token: cast.ann)
            #expect(
                ranking.map { ($0["participant"] as? [String: Any])?["name"] as? String } == [
                    "Ben Walker", "Ann Runner",
                ])
            #expect(ranking.map { $0["rank"] as? Int } == [1, nil])

            // Bad results are named; a time of 0 is no result.
            for bad in [#"{"value": -1}"#, #"{"value": 0}"#, #"{"value": 1e12}"#, #"{"value": "fast"}"#, #"{}"#] {
                let response = try await server.request(
                    .put, "/api/v1/competitions/\(id)/participants/\(cast.annID)/result", json: bad, token: cast.owner)
                #expect(response.status == .unprocessableContent, "\(bad): \(response.text)")
                #expect(response.headers[.contentType] == "application/problem+json")
            }

            // Ties share a rank.
            _ = try await server.request(
                .put, "/api/v1/competitions/\(id)/participants/\(cast.annID)/result", json: #"{"value": 3000}"#,
                token: cast.owner)
            ranking = try await server.ranking(id, token: cast.ben)
            #expect(ranking.map { $0["rank"] as? Int } == [1, 1])

            // Deactivated: ranking visible, no joining, leaving or result changes.
            let deactivated = try await server.api(token: cast.owner).deactivateCompetition(
                path: .init(competitionId: id)
            ).ok.body.json
            #expect(!deactivated.active)
            #expect(try await server.ranking(id, token: cast.ann).count == 2)
            let other = try await server.login("other@example.org")
            let late = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: other)
            #expect(late.status == .conflict)
            #expect(late.json["type"] as? String == "/problems/competition-inactive")
            #expect(
                try await server.request(.delete, "/api/v1/competitions/\(id)/participants/me", token: cast.ann).status
                    == .conflict)
            let frozen = try await server.request(
                .put, "/api/v1/competitions/\(id)/participants/\(cast.annID)/result", json: #"{"value": 10}"#,
                token: cast.owner)
            #expect(frozen.status == .conflict)
            #expect((frozen.json["detail"] as? String)?.contains("deactivated") == true)
            #expect(
                try await server.request(
                    .patch, "/api/v1/competitions/\(id)", json: #"{"name":"x"}"#, token: cast.owner
                ).status == .conflict)

            // History: previous, with rank; reactivation keeps entries.
            let history = try await server.api(token: cast.ann).getMyCompetitions().ok.body.json
            #expect(history.joined.isEmpty)
            #expect(history.previous.map(\.competition.id) == [id])
            #expect(history.previous.first?.rank == 1)
            #expect(history.previous.first?.resultText == "50:00")
            _ = try await server.api(token: cast.owner).activateCompetition(path: .init(competitionId: id)).ok
            #expect(try await server.api(token: cast.ann).getMyCompetitions().ok.body.json.joined.count == 1)

            // Leaving removes the entry and its result; rejoining starts without one.
            #expect(
                try await server.request(.delete, "/api/v1/competitions/\(id)/participants/me", token: cast.ann).status
                    == .noContent)
            #expect(
                try await server.request(.delete, "/api/v1/competitions/\(id)/participants/me", token: cast.ann).status
                    == .conflict)
            #expect(
                try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann).status
                    == .created)
            ranking = try await server.ranking(id, token: cast.ann)
            #expect(ranking.map { $0["rank"] as? Int } == [1, nil])

            // Kick: Ben is gone, and may join again.
            #expect(
                try await server.request(
                    .delete, "/api/v1/competitions/\(id)/participants/\(cast.benID)", token: cast.owner
                ).status == .noContent)
            #expect(
                try await server.request(
                    .delete, "/api/v1/competitions/\(id)/participants/\(cast.benID)", token: cast.owner
                ).status == .conflict)
            #expect(try await server.ranking(id, token: cast.owner).count == 1)

            // Edit while active; the metric cannot change under existing results.
            let edited = try await server.request(
                .patch, "/api/v1/competitions/\(id)",
                json: #"{"name":"Campus 10K 2026","startsAt":"2026-11-22T09:00:00Z","endsAt":"2026-11-22T12:00:00Z"}"#,
                token: cast.owner)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(edited.json["name"] as? String == "Campus 10K 2026")
            #expect(edited.json["startsAt"] as? String == "2026-11-22T09:00:00Z")
            let backwards = try await server.request(
                .patch, "/api/v1/competitions/\(id)", json: #"{"endsAt":"2026-11-21T12:00:00Z"}"#, token: cast.owner)
            #expect(backwards.status == .unprocessableContent)
            let cleared = try await server.request(
                .patch, "/api/v1/competitions/\(id)", json: #"{"clear":["startsAt","endsAt"]}"#, token: cast.owner)
            #expect(cleared.json["startsAt"] == nil)

            // Search and lists.
            let search = try await server.api(token: cast.ben).listCompetitions(query: .init(q: "10k 2026")).ok.body
                .json
            #expect(search.items.map(\.id) == [id])
            #expect(
                try await server.api(token: cast.ben).listCompetitions(query: .init(q: "marathon")).ok.body.json.total
                    == 0)
        }
    }

    @Test func reuseKeepsTheSeriesAndRecordsCountEveryRun() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let first = try await server.createCompetition(cast.owner, name: "Park run", metric: "distance")
            for (token, user, km) in [(cast.ann, cast.annID, 5.2), (cast.ben, cast.benID, 7.5)] {
                _ = try await server.request(.post, "/api/v1/competitions/\(first)/participants/me", token: token)
                _ = try await server.request(
                    .put, "/api/v1/competitions/\(first)/participants/\(user)/result", json: #"{"value": \#(km)}"#,
                    token: cast.owner)
            }
            let reused = try await server.request(.post, "/api/v1/competitions/\(first)/reuse", token: cast.owner)
            #expect(reused.status == .created, "\(reused.text)")
            #expect(reused.json["name"] as? String == "Park run")
            let second = (reused.json["id"] as? NSNumber)!.int64Value
            _ = try await server.request(
                .patch, "/api/v1/competitions/\(second)", json: #"{"name":"Park run II"}"#, token: cast.owner)
            #expect((reused.json["templateId"] as? NSNumber)?.int64Value == first)
            #expect((reused.json["seriesId"] as? NSNumber)?.int64Value == first)
            #expect(reused.json["participants"] as? Int == 0)
            #expect(reused.json["description"] as? String == "Two laps of the park")
            #expect(reused.json["metric"] as? String == "distance")
            _ = try await server.request(.post, "/api/v1/competitions/\(second)/participants/me", token: cast.ann)
            _ = try await server.request(
                .put, "/api/v1/competitions/\(second)/participants/\(cast.annID)/result", json: #"{"value": 8.25}"#,
                token: cast.owner)
            // Reusing the reuse stays in the same series.
            let third = try await server.request(.post, "/api/v1/competitions/\(second)/reuse", token: cast.owner)
            #expect((third.json["seriesId"] as? NSNumber)?.int64Value == first, "\(third.status) \(third.text)")
            // Only its organizer (or an admin) reuses a competition.
            let notMine = try await server.request(
                .post, "/api/v1/competitions/\(first)/reuse", token: cast.otherOrganizer)
            #expect(notMine.status == .forbidden, "\(notMine.text)")

            let records = try await server.api(token: cast.ben).getCompetitionRecords(path: .init(competitionId: first))
                .ok.body.json
            #expect(records.competition?.value == 7.5)
            #expect(records.competition?.holders.map(\.participant.name) == ["Ben Walker"])
            #expect(records.series?.value == 8.25)
            #expect(records.series?.holders.map(\.competitionId) == [second])
            #expect(records.runs == 2)
            let all = try await server.api(token: cast.ben).getRecords().ok.body.json
            #expect(all.allTime.map(\.value) == [8.25])
            #expect(all.series.first?.name == "Park run II")

            let stats = try await server.api(token: cast.ann).getMyStats().ok.body.json
            #expect(abs(stats.totalKilometres - 13.45) < 1e-9)
            #expect(stats.competitions == 2)
            #expect(stats.personalBests.map(\.value) == [8.25])
            #expect(stats.results.map(\.value) == [5.2, 8.25])
            // Kept records are written once per change of the rankings, with a tag for that.
            let recordsPath = "/api/v1/competitions/\(first)/records"
            let tagged = try await server.request(.get, recordsPath, token: cast.ben)
            let tag = try #require(tagged.headers[.eTag])
            #expect(
                try await server.request(.get, recordsPath, token: cast.ben, headers: [.ifNoneMatch: tag]).status
                    == .notModified)
            // Kept records follow a changed ranking: Ben's better result is both records now.
            _ = try await server.request(
                .put, "/api/v1/competitions/\(first)/participants/\(cast.benID)/result", json: #"{"value": 9}"#,
                token: cast.owner)
            let better = try await server.api(token: cast.ben).getCompetitionRecords(path: .init(competitionId: first))
                .ok.body.json
            #expect(better.competition?.value == 9 && better.series?.value == 9)
            #expect(better.series?.holders.map(\.competitionId) == [first])
            #expect(try await server.request(.get, recordsPath, token: cast.ben).headers[.eTag] != tag)

            // Deleting a competition removes its entries from everyone's history and stats.
            #expect(
                try await server.request(.delete, "/api/v1/competitions/\(second)", token: cast.owner).status
                    == .noContent)
            #expect(
                try await server.request(.get, "/api/v1/competitions/\(second)", token: cast.owner).status == .notFound)
            let after = try await server.api(token: cast.ann).getMyStats().ok.body.json
            #expect(after.competitions == 1)
            #expect(after.totalKilometres == 5.2)
            // The third run keeps its series though its template went.
            let thirdID = (third.json["id"] as? NSNumber)!.int64Value
            let thirdNow = try await server.request(.get, "/api/v1/competitions/\(thirdID)", token: cast.owner)
            #expect(thirdNow.json["templateId"] == nil)
            #expect((thirdNow.json["seriesId"] as? NSNumber)?.int64Value == first)
        }
    }

    @Test func onlyOrganizersCreateAndInputIsChecked() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let refused = try await server.request(
                .post, "/api/v1/competitions", json: #"{"name":"Mine","metric":"time"}"#, token: cast.ann)
            #expect(refused.status == .forbidden)
            let anonymous = try await server.request(
                .post, "/api/v1/competitions", json: #"{"name":"Mine","metric":"time"}"#)
            #expect(anonymous.status == .unauthorized)
            let invalid = try await server.request(
                .post, "/api/v1/competitions", json: #"{"name":"   ","metric":"time","unit":"km"}"#, token: cast.owner)
            #expect(invalid.status == .unprocessableContent)
            let fields = (invalid.json["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["name", "unit"])
            let metric = try await server.request(
                .post, "/api/v1/competitions", json: #"{"name":"x","metric":"speed"}"#, token: cast.owner)
            #expect(metric.status == .unprocessableContent || metric.status == .badRequest)
            let long = try await server.request(
                .post, "/api/v1/competitions",
                json: #"{"name":"\#(String(repeating: "n", count: 101))","metric":"points"}"#, token: cast.owner)
            #expect(long.status == .unprocessableContent)
            let points = try await server.request(
                .post, "/api/v1/competitions", json: #"{"name":"Quiz","metric":"points","unit":"goals"}"#,
                token: cast.owner)
            #expect(points.json["unit"] as? String == "goals")
            #expect(try await server.request(.get, "/api/v1/competitions/99999", token: cast.owner).status == .notFound)
        }
    }
}
