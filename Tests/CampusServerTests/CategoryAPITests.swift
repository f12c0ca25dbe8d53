import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// Categories and teams through the API (issue 41), on SQLite and PostgreSQL: joining into a
/// category, rankings and CSV per category, the team ranking, ages on the race day, groups from
/// the profile, and what changing the list does. Who may do what: CompeteAuthorizationTests.
@Suite struct CategoryAPITests {
    static func patch(_ server: TestServer, _ id: Int64, _ user: Int64, _ json: String, _ token: String)
        async throws -> TestResponse
    {
        try await server.request(.patch, "/api/v1/competitions/\(id)/participants/\(user)", json: json, token: token)
    }

    static func ranks(_ server: TestServer, _ path: String, _ token: String) async throws -> [String: Int?] {
        let answer = try await server.request(.get, path, token: token)
        #expect(answer.status == .ok, "\(answer.text)")
        var ranks: [String: Int?] = [:]
        for item in answer.json["items"] as? [[String: Any]] ?? [] {
            let name = (item["participant"] as? [String: Any])?["name"] as? String ?? ""
            ranks[name] = item["rank"] as? Int
        }
        return ranks
    }

    @Test(arguments: TestDatabases.kinds) func chosenCategoriesAndTeams(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let cora = try await server.register("cora@example.org", firstName: "Cora", lastName: "Swift")
            let dan = try await server.register("dan@example.org", firstName: "Dan", lastName: "Steady")
            let tokens = [
                cast.ann, cast.ben, try await server.login("cora@example.org"),
                try await server.login("dan@example.org"),
            ]
            let ids = [cast.annID, cast.benID, cora.id, dan.id]
            let id = try await server.createCompetition(
                cast.owner, name: "Autumn cross", metric: "time",
                extra:
                    #","categoryRule":"choice","categories":[{"name":"Women"},{"name":"Men"}],"teams":{"scoring":"best","best":2}"#
            )
            let base = "/api/v1/competitions/\(id)"
            let competition = try await server.request(.get, base, token: cast.ann)
            #expect(competition.json["categoryRule"] as? String == "choice")
            #expect((competition.json["teams"] as? [String: Any])?["best"] as? Int == 2)

            // Joining with a category (any letter case: the list's spelling is kept) and a team;
            // a second spelling of a team joins the first.
            let joins = [
                #"{"category":"women","team":"FKSiS"}"#, #"{"category":"Men","team":"fksis"}"#,
                #"{"category":"Women","team":"FITU"}"#, #"{"category":"Men","team":"FITU"}"#,
            ]
            for (index, json) in joins.enumerated() {
                let joined = try await server.request(.post, "\(base)/participants/me", token: tokens[index])
                #expect(joined.status == .created, "\(joined.text)")
                let details = try await Self.patch(server, id, ids[index], json, tokens[index])
                #expect(details.status == .ok, "\(details.text)")
            }
            let entry = try await server.request(.get, base, token: cast.ben)
            #expect((entry.json["myEntry"] as? [String: Any])?["team"] as? String == "FKSiS")
            #expect((entry.json["myEntry"] as? [String: Any])?["category"] as? String == "Men")

            // A category not listed, a birth date where categories are chosen: 422 naming the field.
            for json in [#"{"category":"Juniors"}"#, #"{"bornOn":"2001-04-05"}"#, #"{"team":"   "}"#] {
                let refused = try await Self.patch(server, id, cast.annID, json, cast.ann)
                if json.contains("team") {
                    #expect(refused.status == .ok, "a blank team clears it: \(refused.text)")
                } else {
                    #expect(refused.status == .unprocessableContent, "\(json): \(refused.text)")
                }
            }
            _ = try await Self.patch(server, id, cast.annID, #"{"team":"FKSiS"}"#, cast.ann)

            // Times with a tie in each category: Ann 1:00:00, Cora 1:00:00 (women); Ben 0:50:00, Dan 0:55:00.
            for (user, value) in zip(ids, [3600, 3000, 3600, 3300]) {
                let set = try await server.request(
                    .put, "\(base)/participants/\(user)/result", json: #"{"value": \#(value)}"#, token: cast.owner)
                #expect(set.status == .ok, "\(set.text)")
            }
            let women = try await Self.ranks(server, "\(base)/ranking?category=Women", cast.ann)
            #expect(women == ["Ann Runner": 1, "Cora Swift": 1])
            let men = try await Self.ranks(server, "\(base)/ranking?category=Men", cast.ann)
            #expect(men == ["Ben Walker": 1, "Dan Steady": 2])
            let everyone = try await server.request(.get, "\(base)/ranking", token: cast.ann)
            #expect(everyone.json["categories"] as? [String] == ["Women", "Men"])
            #expect(try await Self.ranks(server, "\(base)/ranking?category=Nobody", cast.ann).isEmpty)

            // Teams: FKSiS (Ann, Ben) 1:50:00 and FITU (Cora, Dan) 1:55:00.
            let teams = try await server.request(.get, "\(base)/teams", token: cast.ben)
            let items = teams.json["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["team"] as? String } == ["FKSiS", "FITU"])
            #expect(items.map { $0["rank"] as? Int } == [1, 2])
            #expect(items.map { $0["scoreText"] as? String } == ["1:50:00", "1:55:00"])
            // Dan leaves FITU: one result is fewer than the best two, so FITU is unranked.
            _ = try await Self.patch(server, id, dan.id, #"{"clear":["team"]}"#, tokens[3])
            let fewer = try await server.request(.get, "\(base)/teams", token: cast.ben)
            let unranked = (fewer.json["items"] as? [[String: Any]])?.last
            #expect(unranked?["team"] as? String == "FITU" && unranked?["rank"] == nil && unranked?["score"] == nil)

            // CSV of one category: its entries, ranked within it, with category and team columns.
            let csv = try await server.request(.get, "\(base)/results.csv?category=Men", token: cast.owner)
            let lines = csv.text.split(separator: "\r\n")
            #expect(lines.first?.hasSuffix(",category,team,laps,best_lap") == true)
            #expect(lines.count == 3 && lines[1].hasPrefix("1,Ben Walker,") && lines[2].hasPrefix("2,Dan Steady,"))
            #expect(lines[1].hasSuffix(",Men,FKSiS,,"), "\(csv.text)")

            // The organizer moves Dan to Women; then drops "Men" from the list: Ben is left without one.
            let moved = try await Self.patch(server, id, dan.id, #"{"category":"Women"}"#, cast.owner)
            #expect(moved.status == .ok && moved.json["category"] as? String == "Women", "\(moved.text)")
            let edited = try await server.request(
                .patch, base, json: #"{"categories":[{"name":"Women"},{"name":"Open"}]}"#, token: cast.owner)
            #expect(edited.status == .ok, "\(edited.text)")
            let after = try await server.request(.get, base, token: cast.ben)
            #expect((after.json["myEntry"] as? [String: Any])?["category"] == nil)
            #expect(try await Self.ranks(server, "\(base)/ranking?category=Women", cast.ann).count == 3)

            // A time competition does not sum every member's time; the list has its rules.
            for json in [
                #"{"teams":{"scoring":"sum"}}"#, #"{"categories":[{"name":"A"},{"name":"a"}]}"#,
                #"{"teams":{"scoring":"best","best":0}}"#,
            ] {
                let refused = try await server.request(.patch, base, json: json, token: cast.owner)
                #expect(refused.status == .unprocessableContent, "\(json): \(refused.text)")
            }
        }
    }

    @Test(arguments: TestDatabases.kinds) func agesOnTheRaceDay(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            // The race starts at 00:30 on 2 May in Minsk, still 1 May in UTC.
            let id = try await server.createCompetition(
                cast.owner, name: "Spring mile", metric: "time",
                extra:
                    #","startsAt":"2026-05-01T21:30:00Z","categoryRule":"age","categories":[{"name":"Juniors","minAge":16,"maxAge":19},{"name":"Seniors","minAge":20,"maxAge":39},{"name":"Veterans","minAge":40}]"#
            )
            let base = "/api/v1/competitions/\(id)"
            // Ann turns 20 on the race day (in the institution's zone); Ben a day later.
            _ = try await server.request(.post, "\(base)/participants/me", token: cast.ann)
            _ = try await server.request(.post, "\(base)/participants/me", token: cast.ben)
            let ann = try await Self.patch(server, id, cast.annID, #"{"bornOn":"2006-05-02"}"#, cast.ann)
            #expect(ann.status == .ok && ann.json["category"] as? String == "Seniors", "\(ann.text)")
            #expect(ann.json["bornOn"] as? String == "2006-05-02")
            let ben = try await Self.patch(server, id, cast.benID, #"{"bornOn":"2006-05-03"}"#, cast.ben)
            #expect(ben.status == .ok && ben.json["category"] as? String == "Juniors", "\(ben.text)")
            // The birth date is not in the public ranking.
            let ranking = try await server.request(.get, "\(base)/ranking", token: cast.ben)
            #expect(!ranking.text.contains("2006-05"))

            // A participant does not pick an age category, a birth date must be one, and an age
            // no category takes is refused.
            for json in [#"{"category":"Veterans"}"#, #"{"bornOn":"2006-02-30"}"#, #"{"bornOn":"2015-01-01"}"#] {
                let refused = try await Self.patch(server, id, cast.annID, json, cast.ann)
                #expect(refused.status == .unprocessableContent, "\(json): \(refused.text)")
            }
            // An organizer may.
            let placed = try await Self.patch(server, id, cast.annID, #"{"category":"Veterans"}"#, cast.owner)
            #expect(placed.status == .ok && placed.json["category"] as? String == "Veterans", "\(placed.text)")

            // The race moves a day later: ages count again, and Ben is a senior too.
            let moved = try await server.request(
                .patch, base, json: #"{"startsAt":"2026-05-02T21:30:00Z"}"#, token: cast.owner)
            #expect(moved.status == .ok, "\(moved.text)")
            let now = try await server.request(.get, base, token: cast.ben)
            #expect((now.json["myEntry"] as? [String: Any])?["category"] as? String == "Seniors")
            #expect((now.json["myEntry"] as? [String: Any])?["bornOn"] as? String == "2006-05-03")
            // Without categories no birth date is kept.
            _ = try await server.request(
                .patch, base, json: #"{"categoryRule":"none","categories":[]}"#, token: cast.owner)
            let none = try await server.request(.get, base, token: cast.ben)
            #expect((none.json["myEntry"] as? [String: Any])?["bornOn"] == nil)
        }
    }

    @Test(arguments: TestDatabases.kinds) func groupsComeFromTheProfile(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            try await server.importFixtures()
            let cast = try await CompeteCast.make(server)
            let profile = try await server.request(.patch, "/api/v1/me", json: #"{"group":"151004"}"#, token: cast.ann)
            #expect(profile.status == .ok, "\(profile.text)")
            let id = try await server.createCompetition(
                cast.owner, name: "Faculty relay", metric: "distance", extra: #","categoryRule":"group""#)
            let base = "/api/v1/competitions/\(id)"
            let ann = try await server.request(.post, "\(base)/participants/me", token: cast.ann)
            #expect(ann.json["category"] as? String == "151004", "\(ann.text)")
            let ben = try await server.request(.post, "\(base)/participants/me", token: cast.ben)
            #expect(ben.json["category"] == nil)
            // Only an organizer changes a category that comes from the profile.
            let own = try await Self.patch(server, id, cast.benID, #"{"category":"151005"}"#, cast.ben)
            #expect(own.status == .unprocessableContent)
            let set = try await Self.patch(server, id, cast.benID, #"{"category":"151005"}"#, cast.owner)
            #expect(set.status == .ok && set.json["category"] as? String == "151005")
            let ranking = try await server.request(.get, "\(base)/ranking", token: cast.ann)
            #expect(ranking.json["categories"] as? [String] == ["151004", "151005"])
        }
    }

    @Test func thePageJoinsWithACategoryAndShowsTabsAndTeams() async throws {
        try await TestServer.run(.sqlite) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(
                cast.owner, name: "Autumn cross", metric: "distance",
                extra:
                    #","categoryRule":"choice","categories":[{"name":"Женщины"},{"name":"Мужчины"}],"teams":{"scoring":"sum"}"#
            )
            var ann = WebVisit(server, token: cast.ann)
            let page = try await ann.get("/compete/\(id)")
            #expect(page.text.contains(#"name="category""#) && page.text.contains(#"name="team""#))
            let joined = try await ann.post("/compete/\(id)/join", [("category", "Женщины"), ("team", "ФКСиС")])
            #expect(joined.status == .seeOther, "\(joined.text)")
            _ = try await server.request(
                .put, "/api/v1/competitions/\(id)/participants/\(cast.annID)/result", json: #"{"value": 12.5}"#,
                token: cast.owner)
            let shown = try await ann.get("/compete/\(id)")
            #expect(shown.text.contains(#"id="category-tabs""#) && shown.text.contains("?category=%D0%96"))
            #expect(shown.text.contains(#"id="team-ranking""#) && shown.text.contains("ФКСиС"))
            let tab = try await ann.get("/compete/\(id)?category=%D0%96%D0%B5%D0%BD%D1%89%D0%B8%D0%BD%D1%8B")
            #expect(tab.text.contains(#"id="category-note""#) && !tab.text.contains("data-live="))
            // A wrong category comes back as a message, not an error page.
            let wrong = try await ann.post("/compete/\(id)/participants/\(cast.annID)/entry", [("category", "Дети")])
            #expect(wrong.status == .seeOther)
            #expect(try await ann.get("/compete/\(id)").text.contains("Дети"))
        }
    }
}
