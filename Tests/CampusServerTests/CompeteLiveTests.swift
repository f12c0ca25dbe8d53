import AsyncHTTPClient
import CampusAPI
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

/// Reads Server-Sent Events from a live stream.
struct EventReader {
    var iterator: HTTPClientResponse.Body.AsyncIterator
    var buffer = ""

    /// The next event that has a name, as (name, id, data).
    mutating func next() async throws -> (name: String, id: String?, data: String)? {
        while true {
            while let range = buffer.range(of: "\n\n") {
                let block = String(buffer[..<range.lowerBound])
                buffer.removeSubrange(..<range.upperBound)
                var name: String?
                var id: String?
                var data: [String] = []
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                    if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                }
                if let name { return (name, id, data.joined(separator: "\n")) }
            }
            guard let chunk = try await iterator.next() else { return nil }
            buffer += String(buffer: chunk)
        }
    }
}

@Suite struct CompeteLiveTests {
    @Test(arguments: TestDatabases.kinds)
    func theLiveRankingSendsEveryChange(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner, metric: "distance")
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)

            var request = HTTPClientRequest(
                url: "http://localhost:\(server.port)/api/v1/competitions/\(id)/ranking/live")
            request.headers.add(name: "Authorization", value: "Bearer \(cast.ben)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true)
            var events = EventReader(iterator: response.body.makeAsyncIterator())

            let first = try await events.next()
            #expect(first?.name == "ranking")
            let initial = try JSONSerialization.jsonObject(with: Data(first!.data.utf8)) as! [String: Any]
            #expect(initial["total"] as? Int == 1)
            #expect(initial["ranked"] as? Int == 0)

            _ = try await server.request(
                .put, "/api/v1/competitions/\(id)/participants/\(cast.annID)/result", json: #"{"value": 12.5}"#,
                token: cast.owner)
            let second = try await events.next()
            #expect(second?.name == "ranking")
            #expect(Int(second?.id ?? "") ?? 0 > Int(first?.id ?? "") ?? 0)
            let changed = try JSONSerialization.jsonObject(with: Data(second!.data.utf8)) as! [String: Any]
            let items = changed["items"] as? [[String: Any]] ?? []
            #expect(items.first?["resultText"] as? String == "12.5 km")
            #expect(items.first?["rank"] as? Int == 1)

            // A change made by another process (the CLI, another instance) arrives through the poll.
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            try await database.write { db in
                try await CompeteStore(db).join(competitionID: id, userID: cast.benID, now: Date())
            }
            await database.close()
            let third = try await events.next()
            let joined = try JSONSerialization.jsonObject(with: Data(third!.data.utf8)) as! [String: Any]
            #expect(joined["total"] as? Int == 2)

            // Deleting the competition ends the stream.
            _ = try await server.request(.delete, "/api/v1/competitions/\(id)", token: cast.owner)
            let last = try await events.next()
            #expect(last?.name == "deleted")
            #expect(try await events.next() == nil)
        }
    }

    @Test func rankingPagesAreKeptUntilTheRankingChanges() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner, metric: "points")
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
            let path = "/api/v1/competitions/\(id)/ranking?limit=10"
            let first = try await server.request(.get, path, token: cast.ben)
            let etag = try #require(first.headers[.eTag])
            #expect(try await server.request(.get, path, token: cast.ben).text == first.text)
            let unchanged = try await server.request(.get, path, token: cast.ben, headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
            _ = try await server.request(
                .put, "/api/v1/competitions/\(id)/participants/\(cast.annID)/result", json: #"{"value": 3}"#,
                token: cast.owner)
            let changed = try await server.request(.get, path, token: cast.ben, headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
            // The kept bytes are the API's document: the generated client reads them.
            let ranking = try await server.api(token: cast.ben).getRanking(
                path: .init(competitionId: id), query: .init(limit: 10)
            ).ok.body.json
            #expect(ranking.items.first?.resultText == "3 points")
            #expect(ranking.ranked == 1)
            // Pages that the middleware does not answer reach the handler with the same rules.
            #expect(try await server.request(.get, path).status == .unauthorized)
            #expect(
                try await server.request(.get, "/api/v1/competitions/\(id)/ranking?limit=0", token: cast.ben).status
                    == .unprocessableContent)
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/deactivate", token: cast.owner)
            #expect(try await server.request(.get, path, token: cast.ben).status == .ok)
            #expect(try await server.request(.get, path, token: cast.ann).status == .ok)
        }
    }

    @Test func gpxTracksGiveResults() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let distance = try await server.createCompetition(cast.owner, name: "Ride", metric: "distance")
            let time = try await server.createCompetition(
                cast.owner, name: "Lake loop", metric: "time", extra: #","participantUploads":true"#)
            for id in [distance, time] {
                _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
            }
            let track = try Fixtures.data("gpx/around-visnjan-with-car.gpx")
            func upload(_ id: Int64, _ data: Data, token: String, user: Int64, type: String = "application/gpx+xml")
                async throws -> TestResponse
            {
                try await server.http.execute(
                    uri: "/api/v1/competitions/\(id)/participants/\(user)/gpx", method: .post,
                    headers: [.authorization: "Bearer \(token)", .contentType: type], body: ByteBuffer(data: data))
            }
            // The organizer uploads Ann's ride: the distance becomes her result.
            let ride = try await upload(distance, track, token: cast.owner, user: cast.annID)
            #expect(ride.status == .ok, "\(ride.text)")
            let km = ride.json["result"] as? Double ?? 0
            #expect(abs(km - 2.736299816059205) / 2.736 < 0.005)
            let stats = ride.json["track"] as? [String: Any]
            #expect(stats?["points"] as? Int == 104)
            #expect(stats?["elapsedSeconds"] as? Double == 514)
            #expect(ride.json["rank"] as? Int == 1)

            // Ann may not upload to the distance competition, but may to the one that allows it.
            #expect(try await upload(distance, track, token: cast.ann, user: cast.annID).status == .forbidden)
            let own = try await upload(time, track, token: cast.ann, user: cast.annID, type: "application/octet-stream")
            #expect(own.status == .ok, "\(own.text)")
            #expect(own.json["result"] as? Double == 514)
            #expect(own.json["resultText"] as? String == "8:34")
            // …but never for someone else.
            #expect(try await upload(time, track, token: cast.ann, user: cast.benID).status == .forbidden)

            // Files without a usable track, with entities, or too big are refused with a reason.
            let noTrack = try await upload(
                distance, try Fixtures.data("gpx/unicode_with_bom.gpx"), token: cast.owner, user: cast.annID)
            #expect(noTrack.status == .unprocessableContent)
            #expect((noTrack.json["detail"] as? String)?.contains("track") == true)
            let noTimes = try await upload(
                time, try Fixtures.data("gpx/korita-zbevnica.gpx"), token: cast.owner, user: cast.annID)
            #expect(noTimes.status == .ok)
            let entity = Data(#"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x "y">]><gpx>&x;</gpx>"#.utf8)
            let refused = try await upload(distance, entity, token: cast.owner, user: cast.annID)
            #expect(refused.status == .unprocessableContent)
            #expect((refused.json["detail"] as? String)?.contains("DOCTYPE") == true)
            let big = try await upload(distance, Data(count: (10 << 20) + 1), token: cast.owner, user: cast.annID)
            #expect(big.status == .contentTooLarge)
            let points = try await server.createCompetition(cast.owner, name: "Quiz", metric: "points")
            _ = try await server.request(.post, "/api/v1/competitions/\(points)/participants/me", token: cast.ann)
            #expect(
                try await upload(points, track, token: cast.owner, user: cast.annID).status == .unprocessableContent)
        }
    }

    @Test func resultsExportAsCSV() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let quoted = try await server.register(
                "q@example.org", firstName: #"Jo "Quick", Jr"#, lastName: "Smith")
            let quotedToken = try await server.login("q@example.org")
            let id = try await server.createCompetition(cast.owner, metric: "time")
            for token in [cast.ann, cast.ben, quotedToken] {
                _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: token)
            }
            for (user, seconds) in [(cast.annID, 3723), (quoted.id, 3600)] {
                _ = try await server.request(
                    .put, "/api/v1/competitions/\(id)/participants/\(user)/result", json: #"{"value": \#(seconds)}"#,
                    token: cast.owner)
            }
            let csv = try await server.request(.get, "/api/v1/competitions/\(id)/results.csv", token: cast.owner)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.headers[.contentDisposition]?.contains("attachment") == true)
            let lines = csv.text.components(separatedBy: "\r\n")
            #expect(
                lines[0]
                    == "rank,name,email,result,unit,result_text,joined_at,result_at,track_km,track_elapsed_s,track_moving_s,category,team,laps,best_lap"
            )
            #expect(lines[1].hasPrefix(#"1,"Jo ""Quick"", Jr Smith",q@example.org,3600,s,1:00:00,"#))
            #expect(lines[2].hasPrefix("2,Ann Runner,ann@example.org,3723,s,1:02:03,"))
            #expect(lines[3].hasPrefix(",Ben Walker,ben@example.org,,s,,"))
            #expect(lines.count == 4)  // RFC 4180: the last record needs no line break
            #expect(
                try await server.request(.get, "/api/v1/competitions/\(id)/results.csv", token: cast.ann).status
                    == .forbidden)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func deletingAccountsLeavesNothingDangling(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner, metric: "distance")
            for (token, user, km) in [(cast.ann, cast.annID, 10.0), (cast.ben, cast.benID, 5.0)] {
                _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: token)
                _ = try await server.request(
                    .put, "/api/v1/competitions/\(id)/participants/\(user)/result", json: #"{"value": \#(km)}"#,
                    token: cast.owner)
            }
            // A deleted participant's entries go and the ranking is computed again.
            let gone = try await server.request(
                .delete, "/api/v1/me", json: #"{"password":"correct horse"}"#, token: cast.ann)
            #expect(gone.status == .noContent)
            let ranking = try await server.ranking(id, token: cast.ben)
            #expect(ranking.count == 1)
            #expect(ranking.first?["rank"] as? Int == 1)
            #expect((ranking.first?["participant"] as? [String: Any])?["name"] as? String == "Ben Walker")

            // A deleted organizer's competitions pass to an admin, with their results.
            #expect(
                try await server.request(
                    .delete, "/api/v1/me", json: #"{"password":"correct horse"}"#, token: cast.owner
                ).status == .noContent)
            let kept = try await server.request(.get, "/api/v1/competitions/\(id)", token: cast.admin)
            #expect(kept.status == .ok)
            #expect(((kept.json["owner"] as? [String: Any])?["id"] as? NSNumber)?.int64Value == cast.adminID)
            #expect(try await server.ranking(id, token: cast.ben).count == 1)
        }
    }

    @Test func withoutAnAdminAnOrganizersCompetitionsGo() async throws {
        try await TestServer.run { server in
            try await server.register("solo@example.org", organizer: true)
            try await server.register("runner@example.org")
            let solo = try await server.login("solo@example.org")
            let runner = try await server.login("runner@example.org")
            let id = try await server.createCompetition(solo, metric: "points")
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: runner)
            #expect(
                try await server.request(.delete, "/api/v1/me", json: #"{"password":"correct horse"}"#, token: solo)
                    .status == .noContent)
            #expect(try await server.request(.get, "/api/v1/competitions/\(id)", token: runner).status == .notFound)
            #expect(try await server.api(token: runner).getMyCompetitions().ok.body.json.joined.isEmpty)
        }
    }
}
