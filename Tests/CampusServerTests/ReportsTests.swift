import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing

@testable import CampusServer

extension ListenServerSuites {
    /// Seed 001's settings screen: a listener reports content or sends feedback; the report waits
    /// in the admins' queue, with the item it names, until an admin resolves it.
    @Suite(.serialized) struct ReportsTests {
        @Test(arguments: TestDatabases.kinds)
        func reportsWaitForTheAdmins(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            try await TestServer.run(location: location) { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let track = try #require(try await server.tracks(ofAlbum: albumID, token: cast.ann).first)

                // Only a signed-in listener reports; what they name must exist.
                let body = #"{"target":"track:\#(track)","reason":"copyright","note":"Not ours to share."}"#
                #expect(try await server.request(.post, "/api/v1/reports", json: body).status == .unauthorized)
                let report = try await server.request(.post, "/api/v1/reports", json: body, token: cast.ann)
                #expect(report.status == .created, "\(report.text)")
                #expect(report.json["targetTitle"] as? String == "First")
                #expect(report.json["targetUrl"] as? String == "/albums/\(albumID)/\(track)")
                #expect(report.json["resolvedAt"] == nil)
                let id = try #require((report.json["id"] as? NSNumber)?.int64Value)
                let refused = [
                    #"{"target":"track:999999","reason":"copyright"}"#,
                    #"{"target":"recommended","reason":"copyright"}"#,
                    #"{"target":"album:\#(albumID)","reason":"other"}"#,
                    #"{"target":"album:\#(albumID)","reason":"feedback","note":"Hi"}"#,
                    #"{"reason":"copyright","note":"Which one?"}"#,
                    #"{"reason":"feedback"}"#,
                    #"{"reason":"feedback","note":"\#(String(repeating: "a", count: 2001))"}"#,
                    #"{"reason":"rude"}"#,
                ]
                for json in refused {
                    let answer = try await server.request(.post, "/api/v1/reports", json: json, token: cast.ann)
                    #expect(answer.status == .unprocessableContent, "\(json): \(answer.text)")
                }
                // Ben's private playlist is not Ann's to name.
                let bens = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"Ben's","kind":"track"}"#, token: cast.ben)
                let playlist = try #require(bens.json["id"] as? String)
                let named = try await server.request(
                    .post, "/api/v1/reports", json: #"{"target":"playlist:\#(playlist)","reason":"inappropriate"}"#,
                    token: cast.ann)
                #expect(named.status == .unprocessableContent)
                let feedback = try await server.request(
                    .post, "/api/v1/reports", json: #"{"reason":"feedback","note":"Dark mode, please."}"#,
                    token: cast.ben)
                #expect(feedback.status == .created)
                // Reports on an album, an author and a playlist (Ben's own) wait beside them.
                let authorID = try await server.find("Orchestra", kind: "author", token: cast.ann)
                for (target, token) in [
                    ("album:\(albumID)", cast.ann), ("author:\(authorID)", cast.ann),
                    ("playlist:\(playlist)", cast.ben),
                ] {
                    let filed = try await server.request(
                        .post, "/api/v1/reports",
                        json: #"{"target":"\#(target)","reason":"other","note":"\#(target)"}"#,
                        token: token)
                    #expect(filed.status == .created, "\(target): \(filed.text)")
                }

                // The queue is the admins': oldest first; resolving takes a report out of it.
                #expect(try await server.request(.get, "/api/v1/reports", token: cast.ann).status == .forbidden)
                #expect(
                    try await server.request(.post, "/api/v1/reports/\(id)/resolve", token: cast.ann).status
                        == .forbidden)
                let queue = server.jsonArray(try await server.request(.get, "/api/v1/reports", token: cast.admin))
                #expect(
                    queue.map { $0["note"] as? String } == [
                        "Not ours to share.", "Dark mode, please.", "album:\(albumID)", "author:\(authorID)",
                        "playlist:\(playlist)",
                    ])
                #expect(queue[1]["target"] == nil)
                // What each names, read for the whole queue.
                #expect(queue.map { $0["targetTitle"] as? String } == ["First", nil, "Suite", "Orchestra", "Ben's"])
                #expect(
                    queue.map { $0["targetUrl"] as? String } == [
                        "/albums/\(albumID)/\(track)", nil, "/albums/\(albumID)", "/authors/\(authorID)",
                        "/listen/playlists/\(playlist)",
                    ])
                let resolved = try await server.request(.post, "/api/v1/reports/\(id)/resolve", token: cast.admin)
                #expect(resolved.status == .ok)
                #expect(resolved.json["resolvedAt"] is String)
                let waiting = server.jsonArray(try await server.request(.get, "/api/v1/reports", token: cast.admin))
                #expect(waiting.count == 4)
                let done = server.jsonArray(
                    try await server.request(.get, "/api/v1/reports?resolved=true", token: cast.admin))
                #expect(done.map { ($0["id"] as? NSNumber)?.int64Value } == [id])
                #expect(
                    try await server.request(.post, "/api/v1/reports/999999/resolve", token: cast.admin).status
                        == .notFound)

                // The pages: the form names the item, the queue is for admins only.
                let form = try await server.request(
                    .get, "/listen/report?target=track:\(track)",
                    headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ann)"])
                #expect(form.text.contains("<strong>First</strong>"))
                let page = try await server.request(
                    .get, "/listen/library/reports",
                    headers: [.accept: "text/html", .cookie: "campus_session=\(cast.admin)"])
                #expect(page.status == .ok)
                #expect(page.text.contains("Dark mode, please."))
                let annsPage = try await server.request(
                    .get, "/listen/library/reports",
                    headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ann)"])
                #expect(annsPage.status == .forbidden)
            }
        }
    }
}
