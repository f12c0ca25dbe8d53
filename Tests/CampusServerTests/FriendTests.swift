import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// Friends (issue 41): a follow asked for and accepted, the "friends" view of a ranking, friends'
/// new results in the notification centre, and the pages. Who may do what is the matrix below.
@Suite struct FriendTests {
    enum Who: String, CaseIterable, CustomStringConvertible {
        /// Not signed in; Ann, who asked to follow Ben; Ben; Cora, who has nothing to do with
        /// either; an admin, who has no say over other people's follows.
        case anonymous, asker, asked, stranger, admin
        var description: String { rawValue }
    }

    struct Operation: Sendable, CustomStringConvertible {
        var name: String
        var method: HTTPRequest.Method
        /// `{ann}` and `{ben}` are their ids, `{competition}` a competition both joined.
        var path: String
        /// Expected statuses in the order of ``Who/allCases``.
        var statuses: [Int]
        var description: String { name }
    }

    static let operations: [Operation] = [
        Operation(name: "list", method: .get, path: "/me/friends", statuses: [401, 200, 200, 200, 200]),
        // Asking again is no change; nobody follows themselves.
        Operation(name: "follow", method: .put, path: "/me/following/{ben}", statuses: [401, 200, 409, 200, 200]),
        Operation(name: "unfollow", method: .delete, path: "/me/following/{ben}", statuses: [401, 204, 404, 404, 404]),
        // Only the asked user answers a request.
        Operation(name: "accept", method: .put, path: "/me/followers/{ann}", statuses: [401, 404, 200, 404, 404]),
        Operation(
            name: "remove follower", method: .delete, path: "/me/followers/{ann}", statuses: [401, 404, 204, 404, 404]),
        Operation(
            name: "friends' ranking", method: .get, path: "/competitions/{competition}/ranking?friends=true",
            statuses: [401, 200, 200, 200, 200]),
    ]

    @Test(arguments: TestDatabases.kinds) func everyOperationForEveryRole(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            try await server.register("cora@example.org", firstName: "Cora", lastName: "Stranger")
            let tokens: [Who: String] = [
                .asker: cast.ann, .asked: cast.ben, .stranger: try await server.login("cora@example.org"),
                .admin: cast.admin,
            ]
            let competition = try await server.createCompetition(cast.owner)
            for token in [cast.ann, cast.ben] {
                _ = try await server.request(.post, "/api/v1/competitions/\(competition)/participants/me", token: token)
            }
            for operation in Self.operations {
                for (index, who) in Who.allCases.enumerated() {
                    // Each case from the same start: Ann has asked to follow Ben, nothing else.
                    for token in tokens.values {
                        _ = try await server.request(.delete, "/api/v1/me/following/\(cast.annID)", token: token)
                        _ = try await server.request(.delete, "/api/v1/me/following/\(cast.benID)", token: token)
                    }
                    let asked = try await server.request(.put, "/api/v1/me/following/\(cast.benID)", token: cast.ann)
                    #expect(asked.status == .ok, "\(asked.text)")
                    let path = operation.path.replacingOccurrences(of: "{ann}", with: String(cast.annID))
                        .replacingOccurrences(of: "{ben}", with: String(cast.benID))
                        .replacingOccurrences(of: "{competition}", with: String(competition))
                    let answer = try await server.request(operation.method, "/api/v1" + path, token: tokens[who])
                    #expect(
                        Int(answer.status.code) == operation.statuses[index],
                        "\(operation) as \(who) on \(kind): \(answer.status) \(answer.text)")
                    if answer.status.code >= 400 {
                        #expect(answer.headers[.contentType]?.hasPrefix("application/problem+json") == true)
                    }
                }
            }
            // Unknown accounts are 404 to everyone, and so are those that take part in no
            // competition (ids do not reveal accounts) until a follow links them to the viewer.
            let unknown = try await server.request(.put, "/api/v1/me/following/999999", token: cast.ann)
            #expect(unknown.status == .notFound, "\(unknown.text)")
            let cora = try #require(tokens[.stranger])
            let coraID = try #require(
                (try await server.request(.get, "/api/v1/me", token: cora).json["id"] as? NSNumber)?.int64Value)
            #expect(
                try await server.request(.put, "/api/v1/me/following/\(coraID)", token: cast.ann).status == .notFound)
            var ann = WebVisit(server, token: cast.ann)
            #expect(try await ann.get("/compete/people/\(coraID)").status == .notFound)
            #expect(try await server.request(.put, "/api/v1/me/following/\(cast.annID)", token: cora).status == .ok)
            #expect(try await ann.get("/compete/people/\(coraID)").text.contains(#"id="accept""#))
        }
    }

    /// The ranking's friends view as the API lists it: (participant id, rank).
    static func friendsRanking(_ server: TestServer, _ id: Int64, _ token: String) async throws -> [(Int64, Int?)] {
        let answer = try await server.request(
            .get, "/api/v1/competitions/\(id)/ranking?friends=true", token: token)
        #expect(answer.status == .ok, "\(answer.text)")
        return (answer.json["items"] as? [[String: Any]] ?? []).map {
            (
                (($0["participant"] as? [String: Any])?["id"] as? NSNumber)?.int64Value ?? 0,
                ($0["rank"] as? NSNumber)?.intValue
            )
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aFollowAcceptedShowsInRankingsAndTellsResults(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let cora = try await server.register("cora@example.org", firstName: "Cora", lastName: "Fast")
            let coraToken = try await server.login("cora@example.org")
            let id = try await server.createCompetition(cast.owner, name: "Park run", metric: "distance")
            for token in [cast.ann, cast.ben, coraToken] {
                _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: token)
            }
            try await CompetitionNoticesTests.result(server, id, cora.id, 9, by: cast.owner)
            try await CompetitionNoticesTests.result(server, id, cast.annID, 5, by: cast.owner)

            // Ann asks; Ben is told; until he accepts, Ann's friends view is herself only.
            let asked = try await server.request(.put, "/api/v1/me/following/\(cast.benID)", token: cast.ann)
            #expect(asked.status == .ok && asked.json["acceptedAt"] == nil, "\(asked.text)")
            var ben = try await CompetitionNoticesTests.inbox(server, cast.ben)
            #expect(ben.first?.topic == "friends" && ben.first?.title == "Ann Runner asks to follow you", "\(ben)")
            #expect(try await Self.friendsRanking(server, id, cast.ann).map(\.0) == [cast.annID])
            let bensLists = try await server.request(.get, "/api/v1/me/friends", token: cast.ben).json
            #expect((bensLists["requests"] as? [[String: Any]])?.first?["name"] as? String == "Ann Runner")

            // Ben accepts: Ann is told, and sees Ben in her friends view with his place in the
            // whole ranking (Cora first, Ann second, Ben without a result).
            let accepted = try await server.request(.put, "/api/v1/me/followers/\(cast.annID)", token: cast.ben)
            #expect(accepted.status == .ok && accepted.json["acceptedAt"] != nil, "\(accepted.text)")
            let ann = try await CompetitionNoticesTests.inbox(server, cast.ann)
            #expect(ann.first?.topic == "friends" && ann.first?.title == "Ben Walker accepted your request", "\(ann)")
            let view = try await Self.friendsRanking(server, id, cast.ann)
            #expect(view.map(\.0) == [cast.annID, cast.benID] && view.map(\.1) == [2, nil], "\(view)")
            // Following is one way: Ben's friends view is himself.
            #expect(try await Self.friendsRanking(server, id, cast.ben).map(\.0) == [cast.benID])

            // Ben's result reaches Ann (not Cora, who follows nobody); a correction replaces the
            // unread message.
            try await CompetitionNoticesTests.result(server, id, cast.benID, 7, by: cast.owner)
            try await CompetitionNoticesTests.result(server, id, cast.benID, 7.5, by: cast.owner)
            let told = try await CompetitionNoticesTests.inbox(server, cast.ann).filter { $0.topic == "friend-result" }
            #expect(told.map(\.title) == ["Ben Walker: 7.5 km in “Park run”"], "\(told)")
            #expect(told.first?.body == "Place 2 of 3.", "\(told)")
            #expect(
                try await CompetitionNoticesTests.inbox(server, coraToken).allSatisfy { $0.topic != "friend-result" })
            ben = try await CompetitionNoticesTests.inbox(server, cast.ben)
            #expect(ben.allSatisfy { $0.topic != "friend-result" })

            // Ben removes his follower: Ann's view is herself again and hears no more.
            #expect(
                try await server.request(.delete, "/api/v1/me/followers/\(cast.annID)", token: cast.ben).status
                    == .noContent)
            #expect(try await Self.friendsRanking(server, id, cast.ann).map(\.0) == [cast.annID])
            try await CompetitionNoticesTests.result(server, id, cast.benID, 8, by: cast.owner)
            let after = try await CompetitionNoticesTests.inbox(server, cast.ann).filter { $0.topic == "friend-result" }
            #expect(after.map(\.title) == ["Ben Walker: 7.5 km in “Park run”"])
        }
    }

    @Test func aDeletedAccountLeavesNoFollow() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            _ = try await server.register("cora@example.org", firstName: "Cora", lastName: "Gone")
            let cora = try await server.login("cora@example.org")
            let id = try await server.createCompetition(cast.owner)
            for token in [cast.ann, cast.ben] {
                _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: token)
            }
            #expect(try await server.request(.put, "/api/v1/me/following/\(cast.annID)", token: cora).status == .ok)
            #expect(try await server.request(.put, "/api/v1/me/following/\(cast.benID)", token: cast.ann).status == .ok)
            let deleted = try await server.request(
                .delete, "/api/v1/me", json: #"{"password":"correct horse"}"#, token: cora)
            #expect(deleted.status == .noContent)
            let lists = try await server.request(.get, "/api/v1/me/friends", token: cast.ann).json
            #expect((lists["requests"] as? [Any])?.isEmpty == true)
            #expect((lists["asked"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ben Walker"])
        }
    }

    @Test func thePagesFollowAcceptAndFilterTheScoreboard() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner, name: "Lake loop", metric: "distance")
            for token in [cast.ann, cast.ben, cast.owner] {
                _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: token)
            }

            // Ann finds Ben in the scoreboard, follows him from his page.
            var ann = WebVisit(server, token: cast.ann)
            let scoreboard = try await ann.get("/compete/\(id)").text
            #expect(scoreboard.contains(#"<a href="/compete/people/\#(cast.benID)">Ben Walker</a>"#))
            #expect(!scoreboard.contains(#"href="/compete/people/\#(cast.annID)""#))
            #expect(try await ann.get("/compete/people/\(cast.benID)").text.contains(#"id="follow-button""#))
            let followed = try await ann.post("/compete/people/\(cast.benID)/follow", [])
            #expect(followed.status == .seeOther, "\(followed.text)")
            #expect(followed.headers[.location] == "/compete/people/\(cast.benID)")
            #expect(try await ann.get("/compete/people/\(cast.benID)").text.contains(#"id="withdraw""#))
            // Following oneself comes back as a message, not an error page.
            let own = try await ann.post("/compete/people/\(cast.annID)/follow", [])
            #expect(own.status == .seeOther)

            // Ben accepts on his friends page.
            var ben = WebVisit(server, token: cast.ben)
            let friends = try await ben.get("/compete/friends").text
            #expect(friends.contains(#"id="requests""#) && friends.contains("Ann Runner"))
            #expect(friends.contains(#"action="/compete/people/\#(cast.annID)/accept""#))
            let accepted = try await ben.post("/compete/people/\(cast.annID)/accept", [])
            #expect(accepted.status == .seeOther && accepted.headers[.location] == "/compete/friends")
            #expect(try await ben.get("/compete/friends").text.contains(#"id="followers""#))

            // Ann's friends view: Ann and Ben, not the owner; no live updates there.
            let view = try await ann.get("/compete/\(id)?view=friends").text
            #expect(view.contains("Ben Walker") && view.contains("Ann Runner"))
            #expect(!view.contains("/compete/people/\(cast.ownerID)"))
            #expect(!view.contains("data-live=") && view.contains(#"id="friends-note""#))
            #expect(try await ann.get("/compete/\(id)").text.contains("/compete/people/\(cast.ownerID)"))
            let page = try await ann.get("/compete/people/\(cast.benID)").text
            #expect(page.contains(#"id="unfollow""#) && page.contains("Lake loop"))
        }
    }
}
