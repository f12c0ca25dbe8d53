import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

/// Every operation on a competition × every role × owner, co-organizer or not, on an active and
/// on a deactivated competition, on SQLite and PostgreSQL. Ann has joined and has a result; Ben is
/// a user who has not joined; Cora is a plain user the owner made a co-organizer. Competitions are
/// readable by everyone signed in; the organizers' operations are 403 to others, and the owner's
/// (delete, (de)activate, co-organizers) to co-organizers too. Each competition has chosen
/// categories (W, M) and teams, for the operations of issue 41's parts 5 and 6.
@Suite struct CompeteAuthorizationTests {
    enum Who: String, CaseIterable, CustomStringConvertible {
        case anonymous, participant, outsider, otherOrganizer, coOrganizer, owner, admin
        var description: String { rawValue }
    }

    struct Operation: Sendable, CustomStringConvertible {
        var name: String
        var method: HTTPRequest.Method
        /// The path after `/api/v1/competitions/{id}`; `{ann}`, `{ben}` and `{cora}` are their ids.
        var path: String
        var json: String?
        var gpx = false
        /// Expected statuses in the order of ``Who/allCases``, when active and when deactivated.
        var active: [Int]
        var inactive: [Int]
        var description: String { name }
    }

    static let operations: [Operation] = [
        Operation(
            name: "read", method: .get, path: "", active: [401, 200, 200, 200, 200, 200, 200],
            inactive: [401, 200, 200, 200, 200, 200, 200]),
        Operation(
            name: "ranking", method: .get, path: "/ranking", active: [401, 200, 200, 200, 200, 200, 200],
            inactive: [401, 200, 200, 200, 200, 200, 200]),
        Operation(
            name: "records", method: .get, path: "/records", active: [401, 200, 200, 200, 200, 200, 200],
            inactive: [401, 200, 200, 200, 200, 200, 200]),
        Operation(
            name: "edit", method: .patch, path: "", json: #"{"description":"New"}"#,
            active: [401, 403, 403, 403, 200, 200, 200], inactive: [401, 403, 403, 403, 409, 409, 409]),
        Operation(
            name: "delete", method: .delete, path: "", active: [401, 403, 403, 403, 403, 204, 204],
            inactive: [401, 403, 403, 403, 403, 204, 204]),
        Operation(
            name: "activate", method: .post, path: "/activate", active: [401, 403, 403, 403, 403, 200, 200],
            inactive: [401, 403, 403, 403, 403, 200, 200]),
        Operation(
            name: "deactivate", method: .post, path: "/deactivate", active: [401, 403, 403, 403, 403, 200, 200],
            inactive: [401, 403, 403, 403, 403, 200, 200]),
        Operation(
            name: "reuse", method: .post, path: "/reuse", active: [401, 403, 403, 403, 403, 201, 201],
            inactive: [401, 403, 403, 403, 403, 201, 201]),
        Operation(
            name: "participants", method: .get, path: "/participants", active: [401, 403, 403, 403, 200, 200, 200],
            inactive: [401, 403, 403, 403, 200, 200, 200]),
        Operation(
            name: "join", method: .post, path: "/participants/me", active: [401, 409, 201, 201, 201, 201, 201],
            inactive: [401, 409, 409, 409, 409, 409, 409]),
        Operation(
            name: "leave", method: .delete, path: "/participants/me", active: [401, 204, 409, 409, 409, 409, 409],
            inactive: [401, 409, 409, 409, 409, 409, 409]),
        Operation(
            name: "kick", method: .delete, path: "/participants/{ann}", active: [401, 403, 403, 403, 204, 204, 204],
            inactive: [401, 403, 403, 403, 409, 409, 409]),
        Operation(
            name: "result", method: .put, path: "/participants/{ann}/result", json: #"{"value": 42}"#,
            active: [401, 403, 403, 403, 200, 200, 200], inactive: [401, 403, 403, 403, 409, 409, 409]),
        Operation(
            name: "clear result", method: .delete, path: "/participants/{ann}/result",
            active: [401, 403, 403, 403, 200, 200, 200], inactive: [401, 403, 403, 403, 409, 409, 409]),
        Operation(
            name: "gpx", method: .post, path: "/participants/{ann}/gpx", gpx: true,
            active: [401, 403, 403, 403, 200, 200, 200], inactive: [401, 403, 403, 403, 409, 409, 409]),
        Operation(
            name: "csv", method: .get, path: "/results.csv", active: [401, 403, 403, 403, 200, 200, 200],
            inactive: [401, 403, 403, 403, 200, 200, 200]),
        // Categories and teams: the participant changes their own entry, organizers anyone's.
        Operation(
            name: "entry", method: .patch, path: "/participants/{ann}", json: #"{"team": "FKSiS", "category": "W"}"#,
            active: [401, 200, 403, 403, 200, 200, 200], inactive: [401, 409, 403, 403, 409, 409, 409]),
        Operation(
            name: "teams", method: .get, path: "/teams", active: [401, 200, 200, 200, 200, 200, 200],
            inactive: [401, 200, 200, 200, 200, 200, 200]),
        Operation(
            name: "category ranking", method: .get, path: "/ranking?category=W",
            active: [401, 200, 200, 200, 200, 200, 200], inactive: [401, 200, 200, 200, 200, 200, 200]),
        Operation(
            name: "laps", method: .put, path: "/participants/{ann}/laps", json: #"{"laps": [2.5, 2.75]}"#,
            active: [401, 403, 403, 403, 200, 200, 200], inactive: [401, 403, 403, 403, 409, 409, 409]),
        Operation(
            name: "lap records", method: .get, path: "/laps", active: [401, 200, 200, 200, 200, 200, 200],
            inactive: [401, 200, 200, 200, 200, 200, 200]),
        Operation(
            name: "review queue", method: .get, path: "/reviews", active: [401, 403, 403, 403, 200, 200, 200],
            inactive: [401, 403, 403, 403, 200, 200, 200]),
        Operation(
            name: "category csv", method: .get, path: "/results.csv?category=W",
            active: [401, 403, 403, 403, 200, 200, 200], inactive: [401, 403, 403, 403, 200, 200, 200]),
        Operation(
            name: "organizers", method: .get, path: "/organizers", active: [401, 200, 200, 200, 200, 200, 200],
            inactive: [401, 200, 200, 200, 200, 200, 200]),
        Operation(
            name: "add organizer", method: .put, path: "/organizers/{ben}",
            active: [401, 403, 403, 403, 403, 200, 200], inactive: [401, 403, 403, 403, 403, 200, 200]),
        Operation(
            name: "remove organizer", method: .delete, path: "/organizers/{cora}",
            active: [401, 403, 403, 403, 204, 204, 204], inactive: [401, 403, 403, 403, 204, 204, 204]),
        // Live tracking: Ann has sent two positions. Only a participant sends and finishes their
        // own track; while a competition is live everyone watches, afterwards its organizers and
        // each participant their own.
        Operation(
            name: "track", method: .post, path: "/tracking",
            json: #"{"points": [{"lat": 53.9, "lon": 27.56, "time": "{now}"}]}"#,
            active: [401, 200, 409, 409, 409, 409, 409], inactive: [401, 409, 409, 409, 409, 409, 409]),
        Operation(
            name: "tracks", method: .get, path: "/tracking", active: [401, 200, 200, 200, 200, 200, 200],
            inactive: [401, 200, 403, 403, 200, 200, 200]),
        Operation(
            name: "participant's track", method: .get, path: "/participants/{ann}/tracking",
            active: [401, 200, 200, 200, 200, 200, 200], inactive: [401, 200, 403, 403, 200, 200, 200]),
        Operation(
            name: "finish track", method: .post, path: "/tracking/finish",
            active: [401, 200, 409, 409, 409, 409, 409], inactive: [401, 409, 409, 409, 409, 409, 409]),
        Operation(
            name: "confirm track", method: .post, path: "/participants/{ann}/tracking/confirm",
            active: [401, 403, 403, 403, 200, 200, 200], inactive: [401, 403, 403, 403, 409, 409, 409]),
    ]

    /// Two positions of Ann's, 20 and 10 seconds before `now`, about 50 metres apart.
    static func positions(before now: Date) -> String {
        let format = Date.ISO8601FormatStyle()
        return """
            {"points": [{"lat": 53.9, "lon": 27.5595, "time": "\(now.addingTimeInterval(-20).formatted(format))"},
            {"lat": 53.9004, "lon": 27.5597, "time": "\(now.addingTimeInterval(-10).formatted(format))"}]}
            """
    }

    @Test(arguments: TestDatabases.kinds) func everyOperationForEveryRole(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let cora = try await server.register("cora@example.org", firstName: "Cora", lastName: "Helper")
            let tokens: [Who: String] = [
                .participant: cast.ann, .outsider: cast.ben, .otherOrganizer: cast.otherOrganizer,
                .coOrganizer: try await server.login("cora@example.org"), .owner: cast.owner, .admin: cast.admin,
            ]
            let track = try Fixtures.data("gpx/track-with-empty-segment.gpx")
            for active in [true, false] {
                for operation in Self.operations {
                    for (index, who) in Who.allCases.enumerated() {
                        let id = try await server.createCompetition(
                            cast.owner, metric: "distance",
                            extra:
                                #","categoryRule":"choice","categories":[{"name":"W"},{"name":"M"}],"teams":{"scoring":"best","best":2}"#
                        )
                        _ = try await server.request(
                            .post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
                        _ = try await server.request(
                            .put, "/api/v1/competitions/\(id)/participants/\(cast.annID)/result",
                            json: #"{"value": 5}"#,
                            token: cast.owner)
                        let positions = try await server.request(
                            .post, "/api/v1/competitions/\(id)/tracking",
                            json: Self.positions(before: server.clock.now), token: cast.ann)
                        #expect(positions.status == .ok, "\(positions.text)")
                        let added = try await server.request(
                            .put, "/api/v1/competitions/\(id)/organizers/\(cora.id)", token: cast.owner)
                        #expect(added.status == .ok, "\(added.text)")
                        if !active {
                            _ = try await server.request(
                                .post, "/api/v1/competitions/\(id)/deactivate", token: cast.owner)
                        }
                        let path =
                            "/api/v1/competitions/\(id)"
                            + operation.path.replacingOccurrences(of: "{ann}", with: String(cast.annID))
                            .replacingOccurrences(of: "{ben}", with: String(cast.benID))
                            .replacingOccurrences(of: "{cora}", with: String(cora.id))
                        var headers: HTTPFields = [:]
                        if let token = tokens[who] { headers[.authorization] = "Bearer \(token)" }
                        var body: ByteBuffer?
                        if let json = operation.json {
                            headers[.contentType] = "application/json"
                            body = ByteBuffer(
                                string: json.replacingOccurrences(
                                    of: "{now}", with: server.clock.now.formatted(.iso8601)))
                        }
                        if operation.gpx {
                            headers[.contentType] = "application/gpx+xml"
                            body = ByteBuffer(data: track)
                        }
                        let response = try await server.http.execute(
                            uri: path, method: operation.method, headers: headers, body: body)
                        let expected = active ? operation.active[index] : operation.inactive[index]
                        #expect(
                            Int(response.status.code) == expected,
                            "\(operation) as \(who) (\(active ? "active" : "deactivated")): \(response.text)")
                        if response.status.code >= 400 {
                            #expect(response.headers[.contentType] == "application/problem+json")
                        }
                    }
                }
            }
        }
    }
}
