import CampusTestSupport
import Formats
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

extension ListenServerSuites {
    /// What listeners do through the API: the player, playlists, likes, ratings, settings, comments
    /// and the home feed.
    @Suite(.serialized) struct ListenerAPITests {
        @Test(arguments: TestDatabases.kinds)
        func thePlayerIsKeptOnTheServer(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            let library = try await TestServer.run(location: location) { server in
                let cast = try await ListenCast.make(server)
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                // Playing a parent queues its children and starts with the first.
                let play = try await server.player(
                    cast.ann, #"{"action":"play","payload":{"ids":["album:\#(albumID)"]}}"#)
                #expect(play.status == .ok, "\(play.text)")
                let ids = play.queueIDs
                #expect(ids.count == 3)
                #expect(play.current == 0)
                #expect(play.json["playing"] as? Bool == true)
                // With a context, the given item becomes current.
                let context = try await server.player(
                    cast.ann,
                    #"{"action":"play","payload":{"ids":["track:\#(ids[1])"],"contextId":"album:\#(albumID)"}}"#)
                #expect(context.queueIDs == ids)
                #expect(context.current == 1)
                // A hidden item stays in the queue and is skipped.
                #expect(
                    try await server.request(
                        .put, "/api/v1/marks/track:\(ids[2])", json: #"{"mark":"hide"}"#, token: cast.ann
                    )
                    .status == .noContent)
                let skipped = try await server.player(cast.ann, #"{"action":"track_skip","payload":{"position":1.5}}"#)
                #expect(skipped.queueIDs == ids)
                #expect(skipped.json["playing"] as? Bool == false, "nothing playable after the hidden last item")
                let hidden = (skipped.json["queue"] as? [[String: Any]] ?? []).map { $0["hidden"] as? Bool }
                #expect(hidden == [false, false, true])
                #expect(
                    try await server.request(.delete, "/api/v1/marks/track:\(ids[2])", token: cast.ann).status
                        == .noContent
                )
                // Repeat all wraps around; the other device sees the same state.
                _ = try await server.player(cast.ann, #"{"action":"repeat_all_enable"}"#)
                _ = try await server.player(cast.ann, #"{"action":"track_change","payload":{"place":2}}"#)
                let wrapped = try await server.player(cast.ann, #"{"action":"track_next"}"#)
                #expect(wrapped.current == 0)
                let otherDevice = try await server.login("ann@example.org")
                let seen = try await server.request(.get, "/api/v1/player", token: otherDevice)
                #expect(seen.json["version"] as? Int == wrapped.json["version"] as? Int)
                #expect(seen.current == 0)
                #expect(seen.json["repeat"] as? String == "all")
                // Spoken items resume where they were paused.
                let bookID = try await server.find("the book", kind: "audiobook", token: cast.ann)
                let book = try await server.player(
                    cast.ann, #"{"action":"play","payload":{"ids":["audiobook:\#(bookID)"]}}"#)
                let chapter = try #require(book.currentID)
                _ = try await server.player(cast.ann, #"{"action":"playback_pause","payload":{"position":2.25}}"#)
                let media = try await server.request(.get, "/api/v1/media/\(chapter)", token: cast.ann)
                #expect(media.json["resumePosition"] as? Double == 2.25)
                // History: what played and how it stopped, newest first.
                let history = server.jsonArray(try await server.request(.get, "/api/v1/history", token: cast.ann))
                #expect(history.first?["outcome"] as? String == "paused")
                #expect(history.contains { $0["outcome"] as? String == "ended" })
                #expect(history.contains { $0["outcome"] as? String == "skipped" })
                // Ben's player is his own.
                let ben = try await server.request(.get, "/api/v1/player", token: cast.ben)
                #expect(ben.queueIDs.isEmpty)
                // Bad actions and payloads are refused with problems.
                #expect(try await server.player(cast.ann, #"{"action":"dance"}"#).status == .unprocessableContent)
                #expect(
                    try await server.player(cast.ann, #"{"action":"track_change"}"#).status == .unprocessableContent)
                #expect(
                    try await server.player(cast.ann, #"{"action":"track_change","payload":{"place":99}}"#).status
                        == .unprocessableContent)
                #expect(
                    try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["album:999999"]}}"#).status
                        == .unprocessableContent)
                #expect(
                    try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["../etc"]}}"#).status
                        == .unprocessableContent)
                #expect(try await server.player(cast.ann, "{").status == .badRequest)
                return cast.library
            }
            defer { library.remove() }
            // The state survives a restart.
            try await TestServer.run(location: location) { server in
                let ann = try await server.login("ann@example.org")
                let player = try await server.request(.get, "/api/v1/player", token: ann)
                #expect(player.queueIDs.count == 2)
                #expect(player.json["playing"] as? Bool == false)
                #expect(player.json["position"] as? Double == 2.25)
            }
        }

        @Test func playlistsLikesRatingsAndSettings() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let tracks = try await server.tracks(ofAlbum: albumID, token: cast.ann)
                let episode = try await server.find("episode", kind: "podcast_episode", token: cast.ann)

                // An empty name becomes "New playlist".
                let created = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"  ","kind":"track"}"#, token: cast.ann)
                #expect(created.status == .created)
                #expect(created.json["name"] as? String == "New playlist")
                let id = created.json["id"] as? String ?? ""
                let addable = server.jsonArray(
                    try await server.request(.get, "/api/v1/playlists/\(id)/addable", token: cast.ann))
                #expect(addable.count == 3, "only tracks can be added to a playlist of tracks")
                let searched = server.jsonArray(
                    try await server.request(.get, "/api/v1/playlists/\(id)/addable?q=sec", token: cast.ann))
                #expect(searched.map { $0["title"] as? String } == ["Second"])
                let reordered = try await server.request(
                    .patch, "/api/v1/playlists/\(id)", json: #"{"name":"Run","items":[\#(tracks[2]),\#(tracks[0])]}"#,
                    token: cast.ann)
                #expect(reordered.status == .ok, "\(reordered.text)")
                #expect(
                    (reordered.json["items"] as? [[String: Any]] ?? []).compactMap {
                        ($0["id"] as? NSNumber)?.int64Value
                    }
                        == [tracks[2], tracks[0]])
                let wrongKind = try await server.request(
                    .patch, "/api/v1/playlists/\(id)", json: #"{"items":[\#(episode)]}"#, token: cast.ann)
                #expect(wrongKind.status == .unprocessableContent)
                // Someone else's playlist is not Ben's to read or change.
                #expect(try await server.request(.get, "/api/v1/playlists/\(id)", token: cast.ben).status == .forbidden)
                #expect(
                    try await server.request(.delete, "/api/v1/playlists/\(id)", token: cast.ben).status == .forbidden)
                // Playing a playlist queues it.
                let play = try await server.player(
                    cast.ann, #"{"action":"play","payload":{"ids":["playlist:\#(id)"]}}"#)
                #expect(play.queueIDs == [tracks[2], tracks[0]])
                #expect(
                    try await server.player(cast.ben, #"{"action":"play","payload":{"ids":["playlist:\#(id)"]}}"#)
                        .status
                        == .unprocessableContent)
                _ = try await server.player(cast.ann, #"{"action":"track_next"}"#)
                // System playlists come from listening.
                let lists = server.jsonArray(try await server.request(.get, "/api/v1/playlists", token: cast.ann))
                #expect(lists.map { $0["id"] as? String } == [id, "recently_played", "most_played", "recommended"])
                let recent = try await server.request(.get, "/api/v1/playlists/recently_played", token: cast.ann)
                #expect(
                    (recent.json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
                        == [tracks[2]])
                #expect(
                    try await server.request(.delete, "/api/v1/playlists/recently_played", token: cast.ann).status
                        == .forbidden)

                // Likes; liking an author recommends their items not yet played.
                #expect(
                    try await server.request(
                        .put, "/api/v1/marks/track:\(tracks[1])", json: #"{"mark":"like"}"#, token: cast.ann
                    )
                    .status == .noContent)
                let likes = server.jsonArray(try await server.request(.get, "/api/v1/likes", token: cast.ann))
                #expect(likes.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [tracks[1]])
                let recommended = try await server.request(.get, "/api/v1/playlists/recommended", token: cast.ann)
                #expect(
                    (recommended.json["items"] as? [[String: Any]] ?? []).compactMap {
                        ($0["id"] as? NSNumber)?.int64Value
                    }
                        == [tracks[0]], "by the liked track's author, not played, not liked")
                #expect(
                    try await server.request(
                        .put, "/api/v1/marks/track:999999", json: #"{"mark":"like"}"#, token: cast.ann
                    )
                    .status == .notFound)

                // Ratings: average, count and mine.
                let first = try await server.request(
                    .put, "/api/v1/ratings/\(albumID)", json: #"{"stars":5}"#, token: cast.ann)
                #expect(first.json["count"] as? Int == 1)
                let second = try await server.request(
                    .put, "/api/v1/ratings/\(albumID)", json: #"{"stars":2}"#, token: cast.ben)
                #expect(second.json["average"] as? Double == 3.5)
                #expect(second.json["mine"] as? Int == 2)
                #expect(
                    try await server.request(.put, "/api/v1/ratings/\(albumID)", json: #"{"stars":6}"#, token: cast.ben)
                        .status
                        == .unprocessableContent)

                // Sound quality maps to transcoding in the stream URL.
                let saved = try await server.request(
                    .put, "/api/v1/me/listen-settings",
                    json: #"{"soundQuality":"low","endlessQueue":true,"skipExplicit":false,"radioRegion":"Minsk"}"#,
                    token: cast.ann)
                #expect(saved.status == .ok)
                let media = try await server.request(.get, "/api/v1/media/\(tracks[0])", token: cast.ann)
                #expect(media.json["streamUrl"] as? String == "/api/v1/media/\(tracks[0])/stream?format=mp3&bitrate=64")
                // The endless queue plays similar items when the queue ends.
                _ = try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["track:\#(tracks[0])"]}}"#)
                let endless = try await server.player(cast.ann, #"{"action":"queue_ended"}"#)
                // The album's other tracks (its author's, of its genre) come first, in album order.
                #expect(endless.queueIDs == tracks)
                #expect(endless.json["playing"] as? Bool == true)
                #expect(endless.current == 1)
            }
        }

        @Test(arguments: TestDatabases.kinds)
        func commentsAndTheFeedAdminsConfigure(_ kind: Database.Kind) async throws {
            try await TestServer.run(kind) { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let posted = try await server.request(
                    .post, "/api/v1/comments", json: #"{"parentId":\#(albumID),"body":"  Lovely strings.  "}"#,
                    token: cast.ann)
                #expect(posted.status == .created)
                #expect(posted.json["body"] as? String == "Lovely strings.")
                let commentID = (posted.json["id"] as? NSNumber)?.int64Value ?? 0
                let asBen = server.jsonArray(
                    try await server.request(.get, "/api/v1/comments?parentId=\(albumID)", token: cast.ben))
                #expect(asBen.map { $0["canDelete"] as? Bool } == [false])
                #expect((asBen.first?["author"] as? [String: Any])?["name"] as? String == "Ann Lee")
                // Only its writer or an admin deletes a comment.
                #expect(
                    try await server.request(.delete, "/api/v1/comments/\(commentID)", token: cast.ben).status
                        == .forbidden
                )
                #expect(
                    try await server.request(.delete, "/api/v1/comments/\(commentID)", token: cast.admin).status
                        == .noContent)
                #expect(
                    try await server.request(.delete, "/api/v1/comments/\(commentID)", token: cast.ann).status
                        == .notFound)
                #expect(
                    try await server.request(
                        .post, "/api/v1/comments", json: #"{"parentId":\#(albumID),"body":"   "}"#, token: cast.ann
                    ).status == .unprocessableContent)
                #expect(
                    try await server.request(
                        .post, "/api/v1/comments", json: #"{"parentId":999999,"body":"hi"}"#, token: cast.ann
                    )
                    .status == .notFound)

                // Admins configure the feed's blocks; listeners get them.
                let defaults = try await server.request(.get, "/api/v1/feed/blocks", token: cast.admin)
                #expect(defaults.json["configured"] as? Bool == false)
                #expect(try await server.request(.get, "/api/v1/feed/blocks", token: cast.ann).status == .forbidden)
                let blocks = #"""
                    {"blocks":[
                      {"type":"banner","title":"Campus radio week","source":"link","link":"/listen/podcasts","highlight":"This week"},
                      {"type":"grid_four_squares","title":"Classical","source":"genre:GENRE","limit":2},
                      {"type":"list_rectangular","title":"Podcasts","source":"newest:podcast"}
                    ]}
                    """#
                let genres = server.jsonArray(try await server.request(.get, "/api/v1/genres", token: cast.ann))
                let classical =
                    (genres.first { $0["name"] as? String == "Classical" }?["id"] as? NSNumber)?.int64Value ?? 0
                let saved = try await server.request(
                    .put, "/api/v1/feed/blocks",
                    json: blocks.replacingOccurrences(of: "GENRE", with: String(classical)),
                    token: cast.admin)
                #expect(saved.status == .ok, "\(saved.text)")
                #expect(saved.json["configured"] as? Bool == true)
                let feed = try await server.request(.get, "/api/v1/feed", token: cast.ann)
                let shown = feed.json["blocks"] as? [[String: Any]] ?? []
                #expect(shown.map { $0["title"] as? String } == ["Campus radio week", "Classical", "Podcasts"])
                #expect(((shown.first?["items"] as? [[String: Any]])?.first?["url"] as? String) == "/listen/podcasts")
                #expect(shown.first?["highlight"] as? String == "This week")
                #expect((shown[1]["items"] as? [[String: Any]])?.count == 1, "the one album of the genre")
                // Bad blocks are refused with the field; an empty list returns to the default feed.
                let bad = try await server.request(
                    .put, "/api/v1/feed/blocks", json: #"{"blocks":[{"type":"ad","title":"x","source":"link"}]}"#,
                    token: cast.admin)
                #expect(bad.status == .unprocessableContent)
                #expect(bad.text.contains("blocks[0].link"))
                let unknown = try await server.request(
                    .put, "/api/v1/feed/blocks",
                    json: #"{"blocks":[{"type":"ad","title":"x","source":"genre:999999"}]}"#,
                    token: cast.admin)
                #expect(unknown.status == .unprocessableContent)
                let reset = try await server.request(
                    .put, "/api/v1/feed/blocks", json: #"{"blocks":[]}"#, token: cast.admin)
                #expect(reset.json["configured"] as? Bool == false)
            }
        }

        @Test func theFeedAnswersConditionalRequests() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let feed = try await server.request(.get, "/api/v1/feed", token: cast.ann)
                #expect(feed.status == .ok)
                let types = (feed.json["blocks"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
                #expect(types.contains("list_square"))
                #expect(types.contains("list_rectangular"))
                #expect(types.contains("grid_four_squares"))
                #expect(types.contains("genres"))
                #expect(types.contains("rating"))
                let etag = try #require(feed.headers[.eTag])
                #expect(etag.hasPrefix("\""))
                #expect(feed.headers[.lastModified]?.hasSuffix("GMT") == true)
                let head = try await server.request(.head, "/api/v1/feed", token: cast.ann)
                #expect(head.headers[.eTag] == etag)
                #expect(head.body.readableBytes == 0)
                #expect(
                    try await server.request(.get, "/api/v1/feed", token: cast.ann, headers: [.ifNoneMatch: etag])
                        .status
                        == .notModified)
                // By date as well: the feed's own Last-Modified is 304, an earlier date is not.
                let lastModified = try #require(feed.headers[.lastModified])
                #expect(
                    try await server.request(
                        .get, "/api/v1/feed", token: cast.ann, headers: [.ifModifiedSince: lastModified]
                    ).status == .notModified)
                #expect(
                    try await server.request(
                        .get, "/api/v1/feed", token: cast.ann,
                        headers: [.ifModifiedSince: "Sat, 01 Jan 2000 00:00:00 GMT"]
                    ).status == .ok)
                // Another listener's feed is not this one's.
                let ben = try await server.request(.get, "/api/v1/feed", token: cast.ben)
                #expect(ben.headers[.eTag] != etag)
                // Listening changes the feed ("Continue listening").
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                _ = try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["album:\#(albumID)"]}}"#)
                _ = try await server.player(cast.ann, #"{"action":"track_next"}"#)
                let changed = try await server.request(
                    .get, "/api/v1/feed", token: cast.ann, headers: [.ifNoneMatch: etag])
                #expect(changed.status == .ok)
                #expect((changed.json["blocks"] as? [[String: Any]])?.first?["type"] as? String == "track")
                #expect(try await server.request(.get, "/api/v1/feed").status == .unauthorized)
            }
        }

        @Test func theCollectionAnswersConditionalRequestsAndExplicitItemsStayAway() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                for path in ["/api/v1/likes", "/api/v1/playlists"] {
                    let first = try await server.request(.get, path, token: cast.ann)
                    let etag = try #require(first.headers[.eTag], "\(path)")
                    #expect(
                        try await server.request(.get, path, token: cast.ann, headers: [.ifNoneMatch: etag]).status
                            == .notModified)
                    #expect(
                        try await server.request(.get, path, token: cast.ann, headers: [.ifNoneMatch: "W/\(etag)"])
                            .status
                            == .notModified)
                }
                let likes = try #require(
                    try await server.request(.get, "/api/v1/likes", token: cast.ann).headers[.eTag])
                let trackID = try await server.find("first", kind: "track", token: cast.ann)
                #expect(
                    try await server.request(
                        .put, "/api/v1/marks/track:\(trackID)", json: #"{"mark":"like"}"#, token: cast.ann
                    )
                    .status == .noContent)
                let liked = try await server.request(
                    .get, "/api/v1/likes", token: cast.ann, headers: [.ifNoneMatch: likes])
                #expect(liked.status == .ok)
                #expect(liked.headers[.eTag] != likes)
                let playlists = try #require(
                    try await server.request(.get, "/api/v1/playlists", token: cast.ann).headers[.eTag])
                _ = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"Road","kind":"track"}"#, token: cast.ann)
                #expect(
                    try await server.request(
                        .get, "/api/v1/playlists", token: cast.ann, headers: [.ifNoneMatch: playlists]
                    )
                    .status == .ok)

                // "Third" is explicit: a listener who skips explicit items does not find it.
                func found(_ token: String) async throws -> [String] {
                    let hits = try await server.request(.get, "/api/v1/search?q=third", token: token)
                    return (hits.json["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
                }
                #expect(try await found(cast.ann) == ["Third"])
                #expect(
                    try await server.request(
                        .put, "/api/v1/me/listen-settings",
                        json: #"{"soundQuality":"original","endlessQueue":false,"skipExplicit":true,"radioRegion":""}"#,
                        token: cast.ann
                    ).status == .ok)
                #expect(try await found(cast.ann).isEmpty)
                #expect(try await found(cast.ben) == ["Third"])
            }
        }
    }
}
