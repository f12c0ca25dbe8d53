import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing

@testable import CampusServer

/// Several organizers per competition: who sees whom, each change once in the audit log, the
/// limit, stepping down, and what a deleted account leaves (nothing). Who may do what is the
/// matrix in CompeteAuthorizationTests.
@Suite struct CoOrganizerTests {
    @Test(arguments: TestDatabases.kinds) func ownersAddAndRemoveCoOrganizersOnce(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner)
            let base = "/api/v1/competitions/\(id)/organizers"

            // Added twice, listed and audited once; the owner and unknown accounts are refused.
            for _ in 0..<2 {
                let added = try await server.request(.put, "\(base)/\(cast.annID)", token: cast.owner)
                #expect(added.status == .ok && added.json["email"] as? String == "ann@example.org", "\(added.text)")
            }
            #expect(try await server.request(.put, "\(base)/\(cast.ownerID)", token: cast.owner).status == .conflict)
            #expect(try await server.request(.put, "\(base)/999999", token: cast.owner).status == .notFound)
            let counts = try await server.auditCounts(token: cast.admin)
            #expect(counts["competition.organizer-added"] == 1)

            // Everyone sees the names; only those who manage it see the emails.
            let seenByBen = try await server.request(.get, base, token: cast.ben).json
            let listed = seenByBen["organizers"] as? [[String: Any]] ?? []
            #expect(listed.count == 1 && listed.first?["name"] as? String == "Ann Runner")
            #expect(listed.first?["email"] == nil)
            #expect((seenByBen["owner"] as? [String: Any])?["name"] as? String == "Olga Owner")
            let seenByAnn = try await server.request(.get, base, token: cast.ann).json
            #expect((seenByAnn["organizers"] as? [[String: Any]])?.first?["email"] as? String == "ann@example.org")
            let competition = try await server.request(.get, "/api/v1/competitions/\(id)", token: cast.ann).json
            #expect(competition["canManage"] as? Bool == true && competition["canOwn"] as? Bool == false)

            // A co-organizer steps down; removing them again is 404; each removal is audited.
            #expect(try await server.request(.delete, "\(base)/\(cast.annID)", token: cast.ann).status == .noContent)
            #expect(try await server.request(.delete, "\(base)/\(cast.annID)", token: cast.owner).status == .notFound)
            let after = try await server.request(.get, "/api/v1/competitions/\(id)", token: cast.ann).json
            #expect(after["canManage"] as? Bool == false)
            #expect(try await server.auditCounts(token: cast.admin)["competition.organizer-removed"] == 1)
        }
    }

    @Test func atMostTwentyAndADeletedAccountLeavesNoRow() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner)
            let base = "/api/v1/competitions/\(id)/organizers"
            for number in 0..<CompeteService.organizerLimit {
                let user = try await server.register("helper\(number)@example.org")
                #expect(try await server.request(.put, "\(base)/\(user.id)", token: cast.owner).status == .ok)
            }
            let full = try await server.request(.put, "\(base)/\(cast.benID)", token: cast.owner)
            #expect(full.status == .conflict, "\(full.text)")

            let helper = try await server.login("helper0@example.org")
            let deleted = try await server.request(
                .delete, "/api/v1/me", json: #"{"password":"correct horse"}"#, token: helper)
            #expect(deleted.status == .noContent)
            let listed = try await server.request(.get, base, token: cast.owner).json["organizers"] as? [[String: Any]]
            #expect(listed?.count == CompeteService.organizerLimit - 1)
            #expect(try await server.request(.put, "\(base)/\(cast.benID)", token: cast.owner).status == .ok)
        }
    }
}
