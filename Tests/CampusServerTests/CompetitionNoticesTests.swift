import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// What a result tells the others (issue 39): whose place it moved, and, when it beats the best of
/// the series' earlier runs, that a record was broken — a newer one replacing an unread older one.
@Suite struct CompetitionNoticesTests {
    /// The user's inbox, newest first, as (topic, title, body).
    static func inbox(_ server: TestServer, _ token: String) async throws -> [(
        topic: String, title: String, body: String
    )] {
        let answer = try await server.request(.get, "/api/v1/me/notifications", token: token)
        #expect(answer.status == .ok, "\(answer.text)")
        return (answer.json["items"] as? [[String: Any]] ?? []).map {
            ($0["topic"] as? String ?? "", $0["title"] as? String ?? "", $0["body"] as? String ?? "")
        }
    }

    static func result(_ server: TestServer, _ competition: Int64, _ user: Int64, _ value: Double, by token: String)
        async throws
    {
        let answer = try await server.request(
            .put, "/api/v1/competitions/\(competition)/participants/\(user)/result", json: #"{"value": \#(value)}"#,
            token: token)
        #expect(answer.status == .ok, "\(answer.text)")
    }

    @Test(arguments: TestDatabases.kinds)
    func placesMovedAndRecordsBrokenAreTold(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let first = try await server.createCompetition(cast.owner, name: "Park run", metric: "distance")
            for token in [cast.ann, cast.ben] {
                _ = try await server.request(.post, "/api/v1/competitions/\(first)/participants/me", token: token)
            }
            try await Self.result(server, first, cast.annID, 5.2, by: cast.owner)
            try await Self.result(server, first, cast.benID, 7.5, by: cast.owner)
            // Ben's result moved Ann from first to second; the first run's best is no broken record.
            var ann = try await Self.inbox(server, cast.ann)
            #expect(ann.map(\.topic) == ["rank-changed", "result-entered"])
            #expect(ann.first?.title == "Your place in “Park run” is now 2", "\(ann)")
            #expect(ann.first?.body == "It was 1. Ben Walker: 7.5 km.", "\(ann)")
            var ben = try await Self.inbox(server, cast.ben)
            #expect(ben.map(\.topic) == ["result-entered"])

            // The next run: Ann beats the series' record, which was Ben's.
            let reused = try await server.request(.post, "/api/v1/competitions/\(first)/reuse", token: cast.owner)
            let second = try #require((reused.json["id"] as? NSNumber)?.int64Value)
            _ = try await server.request(.post, "/api/v1/competitions/\(second)/participants/me", token: cast.ann)
            try await Self.result(server, second, cast.annID, 8.25, by: cast.owner)
            ben = try await Self.inbox(server, cast.ben)
            #expect(ben.map(\.topic) == ["record-broken", "result-entered"])
            #expect(ben.first?.title == "A record in “Park run”: 8.25 km", "\(ben)")
            #expect(ben.first?.body == "The record is now Ann Runner's; it was 7.5 km (Ben Walker).", "\(ben)")
            ann = try await Self.inbox(server, cast.ann)
            #expect(ann.map(\.topic) == ["record-broken", "result-entered", "rank-changed", "result-entered"])

            // Ann betters her own record: her unread message is replaced; Ben, neither in this run
            // nor the holder any more, hears no more of it.
            try await Self.result(server, second, cast.annID, 8.5, by: cast.owner)
            func records(_ token: String) async throws -> [String] {
                try await Self.inbox(server, token).filter { $0.topic == "record-broken" }.map(\.title)
            }
            #expect(try await records(cast.ann) == ["A record in “Park run”: 8.5 km"])
            #expect(try await records(cast.ben) == ["A record in “Park run”: 8.25 km"])
            // A message read stays when a newer one comes.
            #expect(
                try await server.request(.post, "/api/v1/me/notifications/read", json: "{}", token: cast.ann).status
                    == .ok)
            try await Self.result(server, second, cast.annID, 8.75, by: cast.owner)
            #expect(
                try await records(cast.ann) == ["A record in “Park run”: 8.75 km", "A record in “Park run”: 8.5 km"])
            // A worse result is no record.
            try await Self.result(server, second, cast.annID, 8.6, by: cast.owner)
            #expect(try await records(cast.ann).count == 2)
            // The organizer, no participant and no holder, is told nothing.
            #expect(try await Self.inbox(server, cast.owner).isEmpty)
        }
    }
}
