import Accounts
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

/// Challenges through the API and the page (issue 41), on SQLite and PostgreSQL: activities add
/// up, who may log, list and delete them, a faculty-only challenge, and no cap on participants.
@Suite struct ChallengeAPITests {
    static func log(_ server: TestServer, _ id: Int64, _ user: Int64, _ json: String, _ token: String?)
        async throws -> TestResponse
    {
        try await server.request(
            .post, "/api/v1/competitions/\(id)/participants/\(user)/activities", json: json, token: token)
    }

    @Test(arguments: TestDatabases.kinds) func activitiesAddUp(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let start = server.clock.now.addingTimeInterval(-86_400 * 7).formatted(.iso8601)
            let id = try await server.createCompetition(
                cast.owner, name: "December walks", metric: "distance",
                extra: #","kind":"challenge","startsAt":"\#(start)","participantUploads":true"#)
            let base = "/api/v1/competitions/\(id)"
            for token in [cast.ann, cast.ben] {
                _ = try await server.request(.post, "\(base)/participants/me", token: token)
            }
            var annActivities: [Int64] = []
            for value in [3.5, 4.25, 2] {
                let logged = try await Self.log(
                    server, id, cast.annID, #"{"value": \#(value), "note": "Park"}"#, cast.ann)
                #expect(logged.status == .created, "\(logged.text)")
                annActivities.append(((logged.json["activity"] as? [String: Any])?["id"] as? NSNumber)?.int64Value ?? 0)
            }
            let ben = try await Self.log(server, id, cast.benID, #"{"value": 12}"#, cast.ben)
            #expect((ben.json["entry"] as? [String: Any])?["result"] as? Double == 12)
            var ranking = try await server.ranking(id, token: cast.ann)
            #expect(ranking.map { $0["result"] as? Double } == [12, 9.75])

            // Who logs, lists and deletes.
            #expect(try await Self.log(server, id, cast.annID, #"{"value": 1}"#, cast.ben).status == .forbidden)
            #expect(try await Self.log(server, id, cast.annID, #"{"value": 1}"#, nil).status == .unauthorized)
            let list = "\(base)/participants/\(cast.annID)/activities"
            #expect(try await server.request(.get, list, token: cast.ben).status == .forbidden)
            #expect(try await server.request(.get, list, token: cast.owner).status == .ok)
            #expect(try await server.request(.get, list, token: cast.admin).status == .ok)
            #expect(try await server.request(.get, list, token: cast.otherOrganizer).status == .forbidden)
            #expect(try await server.request(.get, list).status == .unauthorized)
            let own = try await server.request(.get, list, token: cast.ann)
            #expect(own.text.contains("\"note\":\"Park\""), "\(own.text)")
            let first = "\(base)/activities/\(annActivities[0])"
            #expect(try await server.request(.delete, first, token: cast.ben).status == .forbidden)
            let deleted = try await server.request(.delete, first, token: cast.ann)
            #expect(deleted.status == .ok && deleted.json["result"] as? Double == 6.25, "\(deleted.text)")
            #expect(try await server.request(.delete, first, token: cast.ann).status == .notFound)
            for activity in annActivities.dropFirst() {
                #expect(
                    try await server.request(.delete, "\(base)/activities/\(activity)", token: cast.owner).status == .ok
                )
            }
            ranking = try await server.ranking(id, token: cast.ann)
            #expect(ranking.map { $0["result"] as? Double } == [12, nil], "no activities, no result")

            // Before the start, in the future, too much: 422; a race takes no activities and a
            // challenge no typed results or laps: 409.
            let early = server.clock.now.addingTimeInterval(-86_400 * 8).formatted(.iso8601)
            let late = server.clock.now.addingTimeInterval(3600).formatted(.iso8601)
            for json in [#"{"value": 3, "at": "\#(early)"}"#, #"{"value": 3, "at": "\#(late)"}"#, #"{"value": 5000}"#] {
                #expect(
                    try await Self.log(server, id, cast.annID, json, cast.ann).status == .unprocessableContent,
                    "\(json)")
            }
            let result = try await server.request(
                .put, "\(base)/participants/\(cast.annID)/result", json: #"{"value": 3}"#, token: cast.owner)
            #expect(result.status == .conflict)
            let laps = try await server.request(
                .put, "\(base)/participants/\(cast.annID)/laps", json: #"{"laps": [3]}"#, token: cast.owner)
            #expect(laps.status == .conflict)
            let race = try await server.createCompetition(cast.owner, name: "A race", metric: "distance")
            _ = try await server.request(.post, "/api/v1/competitions/\(race)/participants/me", token: cast.ann)
            #expect(try await Self.log(server, race, cast.annID, #"{"value": 1}"#, cast.ann).status == .conflict)

            // A track in a challenge is one more activity.
            let track = try await server.http.execute(
                uri: "\(base)/participants/\(cast.annID)/gpx", method: .post,
                headers: [.authorization: "Bearer \(cast.ann)", .contentType: "application/gpx+xml"],
                body: ByteBuffer(data: try Fixtures.data("gpx/cerknicko-jezero.gpx")))
            #expect(track.status == .ok && (track.json["result"] as? Double ?? 0) > 4.5, "\(track.text)")
            let tracked = try await server.request(.get, list, token: cast.ann)
            #expect(tracked.text.contains("\"source\":\"track\""))
        }
    }

    @Test(arguments: TestDatabases.kinds) func aTimeChallengeRanksTheLongestFirst(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(
                cast.owner, name: "Plank minutes", metric: "time", extra: #","kind":"challenge""#)
            for (token, user, seconds) in [(cast.ann, cast.annID, 1800), (cast.ben, cast.benID, 3600)] {
                _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: token)
                _ = try await Self.log(server, id, user, #"{"value": \#(seconds)}"#, token)
            }
            let ranking = try await server.ranking(id, token: cast.ann)
            #expect(
                ranking.map { ($0["participant"] as? [String: Any])?["name"] as? String } == [
                    "Ben Walker", "Ann Runner",
                ])
            #expect(ranking.map { $0["resultText"] as? String } == ["1:00:00", "30:00"])
            // A challenge's total is no record and no personal best of time.
            let records = try await server.request(.get, "/api/v1/records", token: cast.ann)
            #expect(!records.text.contains("Plank minutes"))
        }
    }

    @Test(arguments: TestDatabases.kinds) func aFacultysChallenge(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            try await server.importFixtures()
            let cast = try await CompeteCast.make(server)
            _ = try await server.request(.patch, "/api/v1/me", json: #"{"group":"151004"}"#, token: cast.ann)
            let id = try await server.createCompetition(
                cast.owner, name: "FCSN steps", metric: "distance", extra: #","kind":"challenge","faculty":"фксис""#)
            let ann = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
            #expect(ann.status == .created, "\(ann.text)")
            let ben = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ben)
            #expect(ben.status == .forbidden && ben.text.contains("фксис"), "\(ben.text)")
        }
    }

    /// Strava caps private challenges at 199 people; Campus has no cap: 2,500 join one.
    @Test func noCapOnParticipants() async throws {
        try await TestServer.run(.sqlite) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(
                cast.owner, name: "Everyone walks", metric: "distance", extra: #","kind":"challenge""#)
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            let now = server.clock.now
            try await database.write { db in
                for index in 1...2500 {
                    let user = try await AccountStore(db).createUser(
                        NewUser(
                            email: "walker\(index)@example.org", passwordHash: "x", firstName: "Walker",
                            lastName: "\(index)", role: .user), now: now)
                    try await CompeteStore(db).join(competitionID: id, userID: user.id, now: now)
                }
            }
            await database.close()
            let joined = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
            #expect(joined.status == .created)
            let logged = try await Self.log(server, id, cast.annID, #"{"value": 7}"#, cast.ann)
            #expect(logged.status == .created)
            let ranking = try await server.request(.get, "/api/v1/competitions/\(id)/ranking?limit=5", token: cast.ben)
            #expect(ranking.json["total"] as? Int == 2501 && ranking.json["ranked"] as? Int == 1)
        }
    }

    @Test func thePageLogsAnActivity() async throws {
        try await TestServer.run(.sqlite) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(
                cast.owner, name: "Plank", metric: "time", extra: #","kind":"challenge""#)
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
            var ann = WebVisit(server, token: cast.ann, language: "bg")
            let page = try await ann.get("/compete/\(id)")
            #expect(page.text.contains(#"id="activity-form""#))
            let logged = try await ann.post(
                "/compete/\(id)/activities", [("value", "2:30"), ("at", ""), ("note", "Сутрин")])
            #expect(logged.status == .seeOther)
            let after = try await ann.get("/compete/\(id)")
            #expect(after.text.contains("Сутрин") && after.text.contains("2:30"))
            _ = try await ann.post("/compete/\(id)/activities", [("value", "много")])
            #expect(try await ann.get("/compete/\(id)").text.contains("много"))
        }
    }
}
