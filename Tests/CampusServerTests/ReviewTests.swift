import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

/// Honest results (issue 41) on SQLite and PostgreSQL: a participant's implausible track waits
/// for review instead of counting, organizers accept or reject it with a reason, the participant
/// appeals once, each step is in the audit log; who may decide, as a matrix; and the page.
@Suite struct ReviewTests {
    /// A run where participants upload their tracks; Ann has joined and Ben too.
    static func race(_ server: TestServer, _ cast: CompeteCast) async throws -> Int64 {
        let id = try await server.createCompetition(
            cast.owner, name: "Campus run", metric: "distance", extra: #","sport":"run","participantUploads":true"#)
        for token in [cast.ann, cast.ben] {
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: token)
        }
        return id
    }

    /// A track sent as `token` for `user`: the car ride of the fixtures averages 32 km/h.
    static func upload(
        _ server: TestServer, _ id: Int64, user: Int64, token: String, file: String = "gpx/around-visnjan-with-car.gpx"
    )
        async throws -> TestResponse
    {
        try await server.http.execute(
            uri: "/api/v1/competitions/\(id)/participants/\(user)/gpx", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/gpx+xml"],
            body: ByteBuffer(data: try Fixtures.data(file)))
    }

    static func decide(_ server: TestServer, _ id: Int64, _ user: Int64, _ json: String, _ token: String?)
        async throws -> TestResponse
    {
        try await server.request(
            .post, "/api/v1/competitions/\(id)/participants/\(user)/review", json: json, token: token)
    }

    @Test(arguments: TestDatabases.kinds) func aFlaggedResultWaitsIsDecidedAndAppealedOnce(_ kind: Database.Kind)
        async throws
    {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await Self.race(server, cast)
            let base = "/api/v1/competitions/\(id)"
            // A walk counts at once; a car ride does not.
            let walk = try await Self.upload(
                server, id, user: cast.benID, token: cast.ben, file: "gpx/cerknicko-jezero.gpx")
            #expect(walk.status == .ok && walk.json["review"] == nil && walk.json["result"] != nil, "\(walk.text)")
            let ride = try await Self.upload(server, id, user: cast.annID, token: cast.ann)
            #expect(ride.status == .ok, "\(ride.text)")
            #expect(ride.json["result"] == nil)
            let review = ride.json["review"] as? [String: Any]
            #expect(review?["status"] as? String == "pending" && review?["flags"] as? [String] == ["too-fast"])
            #expect((review?["value"] as? Double ?? 0) > 2.7, "the participant sees what they sent")

            // The public ranking says it is under review, without the value; it has no rank.
            let ranking = try await server.request(.get, "\(base)/ranking", token: cast.ben)
            let ann = (ranking.json["items"] as? [[String: Any]])?.first {
                ($0["participant"] as? [String: Any])?["id"] as? Int == Int(cast.annID)
            }
            #expect(ann?["rank"] == nil && (ann?["review"] as? [String: Any])?["status"] as? String == "pending")
            #expect((ann?["review"] as? [String: Any])?["value"] == nil)
            let records = try await server.request(.get, "\(base)/records", token: cast.ben)
            #expect(!records.text.contains("Ann Runner"), "a result under review is no record")

            // The queue; a rejection needs a reason; the participant reads it and appeals once.
            let queue = try await server.request(.get, "\(base)/reviews", token: cast.owner)
            let items = (try? JSONSerialization.jsonObject(with: Data(queue.text.utf8))) as? [Any]
            #expect(items?.count == 1, "\(queue.text)")
            #expect(
                try await Self.decide(server, id, cast.annID, #"{"decision":"reject"}"#, cast.owner).status
                    == .unprocessableContent)
            let rejected = try await Self.decide(
                server, id, cast.annID, #"{"decision":"reject","reason":"That was a car."}"#, cast.owner)
            #expect(
                rejected.status == .ok
                    && (rejected.json["review"] as? [String: Any])?["note"] as? String == "That was a car.")
            #expect(
                try await Self.decide(server, id, cast.annID, #"{"decision":"accept"}"#, cast.owner).status == .conflict
            )
            let appeal = try await server.request(
                .post, "\(base)/participants/me/appeal", json: #"{"text":"It was a bicycle, not a car."}"#,
                token: cast.ann)
            #expect(
                appeal.status == .ok && (appeal.json["review"] as? [String: Any])?["status"] as? String == "appealed")
            let again = try await server.request(
                .post, "\(base)/participants/me/appeal", json: #"{"text":"Please."}"#, token: cast.ann)
            #expect(again.status == .conflict)
            // Ben has nothing to appeal; the accepted appeal counts.
            #expect(
                try await server.request(
                    .post, "\(base)/participants/me/appeal", json: #"{"text":"x"}"#, token: cast.ben
                ).status == .conflict)
            let accepted = try await Self.decide(server, id, cast.annID, #"{"decision":"accept"}"#, cast.owner)
            #expect(
                accepted.status == .ok && accepted.json["rank"] as? Int == 2, "after Ben's 4.6 km: \(accepted.text)")
            let counts = try await server.auditCounts(token: cast.admin)
            #expect(counts["result.rejected"] == 1 && counts["result.appealed"] == 1 && counts["result.accepted"] == 1)

            // The organizer's own upload is trusted: no review.
            let trusted = try await Self.upload(server, id, user: cast.benID, token: cast.owner)
            #expect(trusted.json["review"] == nil && trusted.json["result"] != nil)
        }
    }

    enum Who: String, CaseIterable, CustomStringConvertible {
        case anonymous, participant, otherParticipant, outsider, coOrganizer, owner, admin
        var description: String { rawValue }
    }

    @Test(arguments: TestDatabases.kinds) func whoMayDecide(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let cora = try await server.register("cora@example.org", firstName: "Cora", lastName: "Helper")
            let tokens: [Who: String] = [
                .participant: cast.ann, .otherParticipant: cast.ben, .outsider: cast.otherOrganizer,
                .coOrganizer: try await server.login("cora@example.org"), .owner: cast.owner, .admin: cast.admin,
            ]
            let expected: [Who: (queue: Int, decide: Int)] = [
                .anonymous: (401, 401), .participant: (403, 403), .otherParticipant: (403, 403),
                .outsider: (403, 403), .coOrganizer: (200, 200), .owner: (200, 200), .admin: (200, 200),
            ]
            for who in Who.allCases {
                let id = try await Self.race(server, cast)
                _ = try await server.request(
                    .put, "/api/v1/competitions/\(id)/organizers/\(cora.id)", token: cast.owner)
                _ = try await Self.upload(server, id, user: cast.annID, token: cast.ann)
                let queue = try await server.request(.get, "/api/v1/competitions/\(id)/reviews", token: tokens[who])
                #expect(Int(queue.status.code) == expected[who]?.queue, "queue as \(who) on \(kind): \(queue.text)")
                let decide = try await Self.decide(server, id, cast.annID, #"{"decision":"accept"}"#, tokens[who])
                #expect(Int(decide.status.code) == expected[who]?.decide, "decide as \(who) on \(kind): \(decide.text)")
            }
        }
    }

    @Test func thePageShowsTheQueueAndTheAppeal() async throws {
        try await TestServer.run(.sqlite) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await Self.race(server, cast)
            _ = try await Self.upload(server, id, user: cast.annID, token: cast.ann)
            var owner = WebVisit(server, token: cast.owner, language: "ru")
            let queue = try await owner.get("/compete/\(id)")
            #expect(queue.text.contains(#"id="reviews""#) && queue.text.contains("быстрее, чем позволяет вид спорта"))
            let rejected = try await owner.post(
                "/compete/\(id)/participants/\(cast.annID)/review",
                [("decision", "reject"), ("reason", "Это была машина")])
            #expect(rejected.status == .seeOther)
            var ann = WebVisit(server, token: cast.ann, language: "ru")
            let page = try await ann.get("/compete/\(id)")
            #expect(page.text.contains(#"id="my-review""#) && page.text.contains("Это была машина"))
            #expect(page.text.contains(#"id="appeal-form""#))
            _ = try await ann.post("/compete/\(id)/appeal", [("text", "Это был велосипед")])
            let after = try await ann.get("/compete/\(id)")
            #expect(!after.text.contains(#"id="appeal-form""#) && after.text.contains(#"id="my-review""#))
            #expect(try await owner.get("/compete/\(id)").text.contains("Это был велосипед"))
        }
    }
}
