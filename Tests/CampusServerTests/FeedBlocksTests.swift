import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

extension ListenServerSuites {
    /// Seed 001's feed blocks with every field (table 3, appendix Б): a highlight over the title,
    /// a description and a background, an ad's banner (also without a title), a title that leads
    /// to an author with the author's image, items with descriptions, their context and number,
    /// and images for genres and playlists from covers.
    @Suite(.serialized) struct FeedBlocksTests {
        static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 3, count: 200)

        func uploadImage(_ server: TestServer, token: String, bytes: [UInt8] = png) async throws -> TestResponse {
            try await server.http.execute(
                uri: "/api/v1/library/images", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/png"], body: ByteBuffer(bytes: bytes))
        }

        @Test(arguments: TestDatabases.kinds)
        func blocksCarryEveryField(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            try await TestServer.run(location: location) { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let orchestra = try await server.find("orchestra", kind: "author", token: cast.ann)
                let genres = server.jsonArray(try await server.request(.get, "/api/v1/genres", token: cast.ann))
                let classical = try #require(
                    (genres.first { $0["name"] as? String == "Classical" }?["id"] as? NSNumber)?.int64Value)

                // Only admins upload images; anyone reads them; what is no image is refused.
                let notAdmin = try await uploadImage(server, token: cast.ann)
                #expect(notAdmin.status == .forbidden)
                // The image may become an author's or genre's picture: it is the library's.
                #expect(notAdmin.json["detail"] as? String == "Only admins manage the media library.")
                let notImage = try await uploadImage(server, token: cast.admin, bytes: Array("<svg/>".utf8))
                #expect(notImage.status == .unprocessableContent)
                let upload = try await uploadImage(server, token: cast.admin)
                #expect(upload.status == .created, "\(upload.text)")
                let image = try #require((upload.json["id"] as? NSNumber)?.int64Value)
                let imageURL = try #require(upload.json["url"] as? String)
                #expect(imageURL == "/api/v1/library/images/\(image)")
                let fetched = try await server.request(.get, imageURL)
                #expect(fetched.status == .ok)
                #expect(fetched.headers[.contentType] == "image/png")
                #expect(Array(buffer: fetched.body) == Self.png)
                #expect(try await server.request(.get, "/api/v1/library/images/999999").status == .notFound)

                let blocks = """
                    {"blocks":[
                      {"type":"background","title":"Classical now","highlight":"Popular",
                       "description":"Fresh classical, chosen for you","source":"genre:\(classical)","imageId":\(image)},
                      {"type":"background","title":"New albums","source":"newest:album"},
                      {"type":"ad","title":"","source":"link","link":"https://example.org/open-day","imageId":\(image)},
                      {"type":"list_title_link","title":"By the Orchestra","source":"author:\(orchestra)"},
                      {"type":"list_title_link","title":"Podcasts","source":"newest:podcast","titleLink":"genre:\(classical)"},
                      {"type":"track","title":"The Suite","source":"items:\(albumID)"},
                      {"type":"list_rectangular","title":"Playlists","source":"playlists"},
                      {"type":"genres","title":"Genres","source":"genres"}
                    ]}
                    """
                let saved = try await server.request(.put, "/api/v1/feed/blocks", json: blocks, token: cast.admin)
                #expect(saved.status == .ok, "\(saved.text)")
                let configured = saved.json["blocks"] as? [[String: Any]] ?? []
                #expect(configured.first?["imageId"] as? Int == Int(image))
                #expect(configured.first?["highlight"] as? String == "Popular")
                #expect(configured[4]["titleLink"] as? String == "genre:\(classical)")

                // Ann has played the suite's first track: the playlists block has a playlist.
                let tracks = try await server.tracks(ofAlbum: albumID, token: cast.ann)
                _ = try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["album:\#(albumID)"]}}"#)
                _ = try await server.player(cast.ann, #"{"action":"track_next"}"#)

                let feed = try await server.request(.get, "/api/v1/feed", token: cast.ann)
                let shown = feed.json["blocks"] as? [[String: Any]] ?? []
                #expect(shown.count == 8, "\(feed.text)")
                func items(_ index: Int) -> [[String: Any]] { shown[index]["items"] as? [[String: Any]] ?? [] }
                func images(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

                // A background: highlight, description, the uploaded image.
                #expect(shown[0]["highlight"] as? String == "Popular")
                #expect(shown[0]["description"] as? String == "Fresh classical, chosen for you")
                #expect(images(shown[0]["image"])["large"] as? String == imageURL)
                // Without an image of its own: its first item's cover.
                #expect(
                    (images(shown[1]["image"])["large"] as? String)?.hasPrefix("/api/v1/covers/\(albumID)/large")
                        == true)
                // The ad without a title: its banner leads to the link.
                #expect(shown[2]["title"] as? String == "")
                #expect(images(shown[2]["image"])["original"] as? String == imageURL)
                #expect(items(2).first?["url"] as? String == "https://example.org/open-day")
                // A title leading to the author, with the author's image (a cover of theirs).
                #expect(shown[3]["titleUrl"] as? String == "/authors/\(orchestra)")
                #expect(
                    (images(shown[3]["titleImages"])["thumbnail"] as? String)?.hasPrefix(
                        "/api/v1/covers/\(albumID)/thumbnail") == true)
                #expect(items(3).map { $0["title"] as? String } == ["Suite"])
                // …or to where the admin pointed it.
                #expect(shown[4]["titleUrl"] as? String == "/listen/genres/\(classical)")
                #expect(shown[4]["titleImages"] == nil)
                // A parent's items: numbered, playing one plays the album from it.
                #expect(items(5).map { $0["number"] as? Int } == [1, 2, 3])
                #expect(items(5).map { $0["title"] as? String } == ["First", "Second", "Third"])
                #expect(items(5).allSatisfy { $0["context"] as? String == "album:\(albumID)" })
                // System playlists with a description and their first item's cover.
                let playlist = try #require(items(6).first)
                #expect(playlist["kind"] as? String == "playlist")
                #expect(playlist["id"] as? String == "recently_played")
                #expect((playlist["description"] as? String)?.isEmpty == false)
                #expect(images(playlist["images"])["medium"] != nil)
                // A genre's image is the cover of an album in it.
                let genre = try #require(items(7).first { $0["title"] as? String == "Classical" })
                #expect(
                    (images(genre["images"])["medium"] as? String)?.hasPrefix("/api/v1/covers/\(albumID)/medium")
                        == true)
                #expect(tracks.count == 3)

                // Genres, authors and playlists have images from their items' covers.
                let listedGenres = server.jsonArray(try await server.request(.get, "/api/v1/genres", token: cast.ann))
                #expect(
                    (images(listedGenres.first { $0["id"] as? Int == Int(classical) }?["images"])["thumbnail"]
                        as? String)?.hasPrefix("/api/v1/covers/\(albumID)/") == true)
                let author = try await server.request(.get, "/api/v1/authors/\(orchestra)", token: cast.ann)
                #expect(
                    (images(author.json["images"])["large"] as? String)?.hasPrefix("/api/v1/covers/\(albumID)/") == true
                )
                let reader = try await server.find("reader", kind: "author", token: cast.ann)
                let coverless = try await server.request(.get, "/api/v1/authors/\(reader)", token: cast.ann)
                #expect(coverless.json["images"] == nil, "the book has no cover")
                let made = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"Mine","kind":"track"}"#, token: cast.ann)
                let mine = try #require(made.json["id"] as? String)
                _ = try await server.request(
                    .patch, "/api/v1/playlists/\(mine)", json: #"{"items":[\#(tracks[2]),\#(tracks[1])]}"#,
                    token: cast.ann)
                let lists = server.jsonArray(try await server.request(.get, "/api/v1/playlists", token: cast.ann))
                func listImage(_ id: String) -> String? {
                    images(lists.first { $0["id"] as? String == id }?["images"])["medium"] as? String
                }
                #expect(
                    listImage(mine)?.hasPrefix("/api/v1/covers/\(albumID)/medium") == true,
                    "the 3rd has none, the 2nd has")
                #expect(listImage("recently_played") != nil)
                #expect(listImage("most_played") != nil)

                // An admin's picture stands for a genre or an author instead of the cover.
                let picture = #"{"imageId":\#(image)}"#
                #expect(
                    try await server.request(
                        .put, "/api/v1/genres/\(classical)/image", json: picture, token: cast.ann
                    ).status == .forbidden)
                #expect(
                    try await server.request(.put, "/api/v1/authors/999999/image", json: picture, token: cast.admin)
                        .status == .notFound)
                #expect(
                    try await server.request(
                        .put, "/api/v1/genres/\(classical)/image", json: #"{"imageId":999999}"#, token: cast.admin
                    ).status == .unprocessableContent)
                let beforePicture = try await server.request(.get, "/api/v1/feed", token: cast.ann).headers[.eTag]
                #expect(
                    try await server.request(
                        .put, "/api/v1/genres/\(classical)/image", json: picture, token: cast.admin
                    ).status == .noContent)
                #expect(
                    try await server.request(
                        .put, "/api/v1/authors/\(reader)/image", json: picture, token: cast.admin
                    ).status == .noContent)
                let pictured = server.jsonArray(try await server.request(.get, "/api/v1/genres", token: cast.ann))
                #expect(
                    images(pictured.first { $0["id"] as? Int == Int(classical) }?["images"])["medium"] as? String
                        == imageURL)
                let readerNow = try await server.request(.get, "/api/v1/authors/\(reader)", token: cast.ann)
                #expect(images(readerNow.json["images"])["large"] as? String == imageURL)
                let feedNow = try await server.request(.get, "/api/v1/feed", token: cast.ann)
                #expect(feedNow.headers[.eTag] != beforePicture, "the feed shows the picture")
                let genreItem = ((feedNow.json["blocks"] as? [[String: Any]] ?? []).last?["items"] as? [[String: Any]])?
                    .first { $0["title"] as? String == "Classical" }
                #expect(images(genreItem?["images"])["medium"] as? String == imageURL)
                let picks = try await server.request(.get, "/api/v1/picks", token: cast.ann)
                #expect(
                    images(
                        (picks.json["authors"] as? [[String: Any]])?.first { $0["name"] as? String == "Reader" }?[
                            "images"])[
                            "thumbnail"] as? String == imageURL)
                // Without one, the cover again.
                #expect(
                    try await server.request(.put, "/api/v1/genres/\(classical)/image", json: "{}", token: cast.admin)
                        .status == .noContent)
                let covered = server.jsonArray(try await server.request(.get, "/api/v1/genres", token: cast.ann))
                #expect(
                    (images(covered.first { $0["id"] as? Int == Int(classical) }?["images"])["medium"] as? String)?
                        .hasPrefix("/api/v1/covers/") == true)

                // The page shows all of it.
                let page = try await server.request(
                    .get, "/listen", headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ann)"])
                #expect(page.text.contains(#"<p class="block-highlight">Popular</p>"#))
                #expect(page.text.contains(#"<p class="block-description">Fresh classical, chosen for you</p>"#))
                #expect(page.text.contains(#"<a class="banner-link" href="https://example.org/open-day">"#))
                #expect(
                    page.text.contains(#"<a class="title-link" href="/authors/\#(orchestra)"><img class="title-image""#)
                )
                #expect(page.text.contains(#"<span class="tile-number">2</span>"#))
                #expect(page.text.contains(#"data-context="album:\#(albumID)""#))

                // What is wrong is refused with the field that is.
                let refused: [(String, String)] = [
                    (#"{"type":"list_square","title":"","source":"genres"}"#, "blocks[0].title"),
                    (#"{"type":"ad","title":"","source":"link","link":"/x","imageId":999999}"#, "blocks[0].imageId"),
                    (
                        #"{"type":"list_title_link","title":"T","source":"genres","titleLink":"nowhere"}"#,
                        "blocks[0].titleLink"
                    ),
                    (#"{"type":"list_title_link","title":"T","source":"author:999999"}"#, "blocks[0].source"),
                    (#"{"type":"track","title":"T","source":"items:999999"}"#, "blocks[0].source"),
                    (#"{"type":"ad","title":"","source":"link","link":"//evil.example"}"#, "blocks[0].link"),
                ]
                for (block, field) in refused {
                    let answer = try await server.request(
                        .put, "/api/v1/feed/blocks", json: #"{"blocks":[\#(block)]}"#, token: cast.admin)
                    #expect(answer.status == .unprocessableContent, "\(block)")
                    #expect(answer.text.contains(field), "\(block): \(answer.text)")
                }
            }
        }

        @Test(arguments: TestDatabases.kinds)
        func picksDriveRecommendations(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            try await TestServer.run(location: location) { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                func recommended(_ token: String) async throws -> [String] {
                    let answer = try await server.request(.get, "/api/v1/playlists/recommended", token: token)
                    return (answer.json["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
                }
                #expect(try await server.request(.get, "/api/v1/picks").status == .unauthorized)
                let choices = try await server.request(.get, "/api/v1/picks", token: cast.ann)
                let genres = choices.json["genres"] as? [[String: Any]] ?? []
                let authors = choices.json["authors"] as? [[String: Any]] ?? []
                let classical = try #require(genres.first { $0["name"] as? String == "Classical" })
                #expect(classical["picked"] as? Bool == false)
                #expect((classical["images"] as? [String: Any])?["thumbnail"] != nil)
                #expect(Set(authors.compactMap { $0["name"] as? String }) == ["Orchestra", "Science Club", "Reader"])
                let reader = try #require(authors.first { $0["name"] as? String == "Reader" }?["id"] as? NSNumber)
                let classicalID = try #require(classical["id"] as? NSNumber)

                // Nothing liked or played: nothing to recommend, until Ann picks.
                #expect(try await recommended(cast.ann).isEmpty)
                let before = try await server.request(.get, "/api/v1/feed", token: cast.ann).headers[.eTag]
                let saved = try await server.request(
                    .put, "/api/v1/picks", json: #"{"genres":[\#(classicalID)],"authors":[]}"#, token: cast.ann)
                #expect(saved.status == .ok, "\(saved.text)")
                #expect(
                    (saved.json["genres"] as? [[String: Any]])?.first { $0["picked"] as? Bool == true }?["name"]
                        as? String == "Classical")
                #expect(try await recommended(cast.ann) == ["First", "Second", "Third"])
                #expect(try await recommended(cast.ben).isEmpty, "picks are Ann's own")
                let after = try await server.request(.get, "/api/v1/feed", token: cast.ann).headers[.eTag]
                #expect(before != after, "the feed (its recommended block) changed")
                let picked = try await server.request(
                    .put, "/api/v1/picks", json: #"{"genres":[],"authors":[\#(reader)]}"#, token: cast.ann)
                #expect(picked.status == .ok)
                #expect(try await recommended(cast.ann) == ["Chapter 1", "Chapter 2"])
                for json in [
                    #"{"genres":[999999],"authors":[]}"#, #"{"genres":[],"authors":[999999]}"#,
                    #"{"genres":[]}"#, #"{"genres":[0],"authors":[]}"#,
                ] {
                    let answer = try await server.request(.put, "/api/v1/picks", json: json, token: cast.ann)
                    #expect(answer.status == .unprocessableContent, "\(json): \(answer.text)")
                }

                // The endless queue goes on with the picks when nothing is like what played.
                let podcastID = try await server.find("science", kind: "podcast", token: cast.ann)
                _ = try await server.request(
                    .put, "/api/v1/me/listen-settings",
                    json: #"{"soundQuality":"original","endlessQueue":true,"skipExplicit":false,"radioRegion":""}"#,
                    token: cast.ann)
                _ = try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["podcast:\#(podcastID)"]}}"#)
                _ = try await server.player(cast.ann, #"{"action":"track_change","payload":{"place":1}}"#)
                let endless = try await server.player(cast.ann, #"{"action":"queue_ended"}"#)
                let titles = (endless.json["queue"] as? [[String: Any]] ?? []).compactMap {
                    ($0["media"] as? [String: Any])?["title"] as? String
                }
                #expect(titles == ["Episode 2", "Episode 1", "Chapter 1", "Chapter 2"], "\(endless.text)")
                _ = try await server.player(cast.ann, #"{"action":"track_next"}"#)

                // I'm listening: what Ann played from, the last first, in the API and on her collection.
                let listening = server.jsonArray(try await server.request(.get, "/api/v1/listening", token: cast.ann))
                #expect(listening.map { $0["title"] as? String } == ["The Book", "Science Hour"])
                let page = try await server.request(
                    .get, "/listen/liked", headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ann)"])
                #expect(page.text.contains(#"<ul class="tiles" id="listening">"#))
                #expect(page.text.contains("Science Hour"))
                let picksPage = try await server.request(
                    .get, "/listen/picks", headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ann)"])
                #expect(picksPage.text.contains(#"name="authors[]" value="\#(reader)" checked"#))
            }
        }
    }
}
