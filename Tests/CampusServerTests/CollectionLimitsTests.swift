import CampusAPI
import CampusTestSupport
import Compete
import Foundation
import HTTPTypes
import Listen
import Storage
import Testing

@testable import CampusServer

extension ListenServerSuites {
    /// Issue 35: one account made 28,000 playlists in 42 seconds, and `GET /api/v1/playlists`
    /// answered all 30,526 of them at once (3.15 MB in 1.9 s). Every list that can grow is paged,
    /// and every collection a user grows by their own requests has a limit, refused with a 409
    /// that says it.
    @Suite(.serialized) struct CollectionLimitsTests {
        /// Fills a collection to its limit directly in the database, as thousands of requests would.
        static func fill(_ server: TestServer, _ body: @Sendable (Database) async throws -> Void) async throws {
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            do {
                try await body(database)
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        }

        static func ids(_ list: [[String: Any]]) -> [String] { list.compactMap { $0["id"] as? String } }

        @Test func playlistsArePagedAndLimited() async throws {
            try await TestServer.run { server in
                let ann = try await server.register("ann@example.org")
                let token = try await server.login("ann@example.org")
                try await Self.fill(server) { database in
                    try await database.write { db in
                        let store = ListenStore(db)
                        for number in 1...(ListenerLimits.playlists - 1) {
                            _ = try await store.createPlaylist(
                                userID: ann.id, kind: .track, name: "List \(number)",
                                now: Date(timeIntervalSince1970: 1_700_000_000 + Double(number)))
                        }
                    }
                }
                let last = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"Last","kind":"track"}"#, token: token)
                #expect(last.status == .created, "\(last.text)")
                let refused = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"One more","kind":"track"}"#, token: token)
                #expect(refused.status == .conflict)
                #expect((refused.json["detail"] as? String)?.contains("1000") == true, "\(refused.text)")

                // A page at a time: 50 unless asked, own playlists first (the last changed first),
                // then the system playlists on the page that reaches them.
                let first = server.jsonArray(try await server.request(.get, "/api/v1/playlists", token: token))
                #expect(first.count == 50)
                #expect(first.first?["name"] as? String == "Last")
                let most = server.jsonArray(
                    try await server.request(.get, "/api/v1/playlists?limit=200&offset=100", token: token))
                #expect(most.count == 200)
                #expect(Set(Self.ids(first)).isDisjoint(with: Self.ids(most)))
                let end = server.jsonArray(
                    try await server.request(.get, "/api/v1/playlists?limit=10&offset=998", token: token))
                #expect(end.map { $0["system"] as? Bool } == [false, false, true, true, true])
                #expect(end.last?["id"] as? String == "recommended")
                let systems = server.jsonArray(
                    try await server.request(.get, "/api/v1/playlists?offset=1001", token: token))
                #expect(Self.ids(systems) == ["most_played", "recommended"])
                let past = try await server.request(.get, "/api/v1/playlists?offset=1003", token: token)
                #expect(past.status == .ok)
                #expect(server.jsonArray(past).isEmpty)
                for query in ["limit=0", "limit=201", "offset=-1"] {
                    let wrong = try await server.request(.get, "/api/v1/playlists?\(query)", token: token)
                    #expect(wrong.status == .unprocessableContent, "\(query)")
                }

                // Deleting one makes room.
                let lastID = try #require(last.json["id"] as? String)
                let deleted = try await server.request(.delete, "/api/v1/playlists/\(lastID)", token: token)
                #expect(deleted.status == .noContent)
                let again = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"Again","kind":"track"}"#, token: token)
                #expect(again.status == .created)
            }
        }

        @Test func marksCommentsAndHistoryAreLimitedAndPaged() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let me = try await server.request(.get, "/api/v1/me", token: cast.ann)
                let annID = try #require((me.json["id"] as? NSNumber)?.int64Value)
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let tracks = try await server.tracks(ofAlbum: albumID, token: cast.ann)

                // Likes, a page at a time, the newest like first.
                for track in tracks {
                    let like = try await server.request(
                        .put, "/api/v1/marks/track:\(track)", json: #"{"mark":"like"}"#, token: cast.ann)
                    #expect(like.status == .noContent)
                    server.clock.advance(by: 1)
                }
                let likes = server.jsonArray(try await server.request(.get, "/api/v1/likes?limit=2", token: cast.ann))
                #expect(likes.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [tracks[2], tracks[1]])
                let rest = server.jsonArray(
                    try await server.request(.get, "/api/v1/likes?limit=2&offset=2", token: cast.ann))
                #expect(rest.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [tracks[0]])

                // Marks: a new one past the limit is refused; changing one that is there is not.
                try await Self.fill(server) { database in
                    try await database.write { db in
                        let store = ListenStore(db)
                        for number in 0..<(ListenerLimits.marks - tracks.count) {
                            try await store.setMark(
                                userID: annID, target: .author(1_000_000 + Int64(number)), .hide,
                                now: Date(timeIntervalSince1970: 1_700_000_000))
                        }
                    }
                }
                let albumLike = try await server.request(
                    .put, "/api/v1/marks/album:\(albumID)", json: #"{"mark":"like"}"#, token: cast.ann)
                #expect(albumLike.status == .conflict)
                #expect((albumLike.json["detail"] as? String)?.contains("20000") == true, "\(albumLike.text)")
                let changed = try await server.request(
                    .put, "/api/v1/marks/track:\(tracks[0])", json: #"{"mark":"hide"}"#, token: cast.ann)
                #expect(changed.status == .noContent)
                #expect(
                    try await server.request(.delete, "/api/v1/marks/author:1000000", token: cast.ann).status
                        == .noContent)
                let room = try await server.request(
                    .put, "/api/v1/marks/album:\(albumID)", json: #"{"mark":"like"}"#, token: cast.ann)
                #expect(room.status == .noContent)
                // Ben has his own limit.
                let bens = try await server.request(
                    .put, "/api/v1/marks/album:\(albumID)", json: #"{"mark":"like"}"#, token: cast.ben)
                #expect(bens.status == .noContent)

                // Comments: a page at a time; a writer's comments have a limit.
                try await Self.fill(server) { database in
                    try await database.write { db in
                        let store = ListenStore(db)
                        for number in 0..<(ListenerLimits.comments - 1) {
                            _ = try await store.addComment(
                                parentID: albumID, userID: annID, body: "Comment \(number)",
                                now: Date(timeIntervalSince1970: 1_700_000_000 + Double(number)))
                        }
                    }
                }
                let comment = #"{"parentId":\#(albumID),"body":"The last one"}"#
                #expect(
                    try await server.request(.post, "/api/v1/comments", json: comment, token: cast.ann).status
                        == .created)
                let tooMany = try await server.request(.post, "/api/v1/comments", json: comment, token: cast.ann)
                #expect(tooMany.status == .conflict)
                #expect((tooMany.json["detail"] as? String)?.contains("5000") == true, "\(tooMany.text)")
                #expect(
                    try await server.request(.post, "/api/v1/comments", json: comment, token: cast.ben).status
                        == .created)
                let comments = server.jsonArray(
                    try await server.request(.get, "/api/v1/comments?parentId=\(albumID)", token: cast.ann))
                #expect(comments.count == 50)
                let lastPage = server.jsonArray(
                    try await server.request(
                        .get, "/api/v1/comments?parentId=\(albumID)&limit=200&offset=4950", token: cast.ann))
                #expect(lastPage.count == 51, "5001 comments in all")
                #expect(lastPage.last?["body"] as? String == "Comment 0")

                // The listening history keeps the newest entries; a page of it at a time.
                try await Self.fill(server) { database in
                    let events = (0..<(ListenerLimits.history + 5)).map { number in
                        ListeningEvent(mediaID: tracks[number % 3], outcome: .skipped, position: Double(number))
                    }
                    try await database.write { db in
                        try await ListenStore(db).recordListening(
                            userID: annID, events, now: Date(timeIntervalSince1970: 1_700_000_000))
                    }
                }
                let tail = server.jsonArray(
                    try await server.request(.get, "/api/v1/history?limit=200&offset=9900", token: cast.ann))
                #expect(tail.count == 100, "the newest \(ListenerLimits.history) are kept")
                #expect(tail.last?["position"] as? Double == 5, "the five oldest are gone")
                let beyond = server.jsonArray(
                    try await server.request(.get, "/api/v1/history?offset=10000", token: cast.ann))
                #expect(beyond.isEmpty)
            }
        }

        @Test func sessionsCompetitionsAndPersonalListsAreLimitedAndPaged() async throws {
            try await TestServer.run { server in
                // Logging in again and again ends the sessions used longest ago.
                let organizer = try await server.register("olga@example.org", organizer: true)
                let first = try await server.login("olga@example.org")
                var latest = first
                for _ in 0..<SessionRecord.limit { latest = try await server.login("olga@example.org") }
                #expect(try await server.request(.get, "/api/v1/me", token: first).status == .unauthorized)
                #expect(try await server.request(.get, "/api/v1/me", token: latest).status == .ok)
                let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
                let sessions = try await database.read { db in
                    try await AccountStore(db).sessionCount(userID: organizer.id)
                }
                await database.close()
                #expect(sessions == SessionRecord.limit)

                // An organizer's competitions.
                try await Self.fill(server) { database in
                    try await database.write { db in
                        let store = CompeteStore(db)
                        for number in 1..<CompetitionRules.ownedLimit {
                            _ = try await store.createCompetition(
                                CompetitionDraft(
                                    name: "Race \(number)", description: "", metric: .points, unit: "points"),
                                ownerID: organizer.id, template: nil, now: Date(timeIntervalSince1970: 1_700_000_000))
                        }
                    }
                }
                let race = #"{"name":"The last race","metric":"points","unit":"points"}"#
                let made = try await server.request(.post, "/api/v1/competitions", json: race, token: latest)
                #expect(made.status == .created, "\(made.text)")
                let refused = try await server.request(.post, "/api/v1/competitions", json: race, token: latest)
                #expect(refused.status == .conflict)
                #expect((refused.json["detail"] as? String)?.contains("1000") == true, "\(refused.text)")
                let madeID = try #require((made.json["id"] as? NSNumber)?.int64Value)
                #expect(
                    try await server.request(.post, "/api/v1/competitions/\(madeID)/reuse", token: latest).status
                        == .conflict)

                // Its participants, a page at a time, each ranked among all.
                for name in ["ann", "ben", "cat"] {
                    try await server.register("\(name)@example.org", firstName: name.capitalized)
                    let token = try await server.login("\(name)@example.org")
                    let joined = try await server.request(
                        .post, "/api/v1/competitions/\(madeID)/participants/me", token: token)
                    #expect(joined.status == .created)
                }
                let page = server.jsonArray(
                    try await server.request(
                        .get, "/api/v1/competitions/\(madeID)/participants?limit=2&offset=1", token: latest))
                #expect(page.count == 2)
                let everyone = server.jsonArray(
                    try await server.request(.get, "/api/v1/competitions/\(madeID)/participants", token: latest))
                #expect(everyone.count == 3)

                // Tasks and notes: a page of the whole sorted list, with the total.
                let ann = try await server.login("ann@example.org")
                for subject in ["Physics", "Maths", "History"] {
                    let task = try await server.request(
                        .post, "/api/v1/me/tasks", json: #"{"subject":"\#(subject)"}"#, token: ann)
                    #expect(task.status == .created)
                }
                let tasks = try await server.request(.get, "/api/v1/me/tasks?limit=2&offset=2", token: ann)
                #expect((tasks.json["items"] as? [[String: Any]])?.count == 1)
                #expect(tasks.json["total"] as? Int == 3)
                #expect(tasks.json["limit"] as? Int == 2)
                #expect(tasks.json["offset"] as? Int == 2)
                let notes = try await server.request(.get, "/api/v1/me/notes", token: ann)
                #expect(notes.json["total"] as? Int == 0)
                #expect(notes.json["limit"] as? Int == 50)
            }
        }
    }
}
