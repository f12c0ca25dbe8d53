import CampusTestSupport
import Foundation
import HTTPTypes
import NIOCore
import Storage
import Testing

@testable import CampusServer

extension ListenServerSuites {
    /// Seed 001 §3.8's sharing: a shared link of a parent, an item or an author opens without an
    /// account as a preview with Open Graph and Twitter card tags; playlists are private until
    /// their owner makes them public, and only then readable by others and by link.
    @Suite(.serialized) struct SharingTests {
        @Test(arguments: TestDatabases.kinds)
        func sharedLinksOpenAsPreviewsWithTheirTags(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            try await TestServer.run(location: location) { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let album = try await server.request(.get, "/api/v1/albums/\(albumID)", token: cast.ann)
                let tracks = (album.json["items"] as? [[String: Any]] ?? []).compactMap {
                    ($0["id"] as? NSNumber)?.int64Value
                }
                let authorID = try #require(((album.json["author"] as? [String: Any])?["id"] as? NSNumber)?.int64Value)

                // An album, signed out: its names, its list and the tags, and a way to log in.
                let page = try await server.request(.get, "/albums/\(albumID)", headers: [.accept: "text/html"])
                #expect(page.status == .ok)
                let tags = Self.tags(page.text)
                #expect(tags["og:title"] == "Suite")
                #expect(tags["og:type"] == "music.album")
                #expect(tags["og:url"]?.hasSuffix("/albums/\(albumID)") == true)
                #expect(tags["twitter:card"] == "summary_large_image")
                #expect(tags["og:audio"] == nil)
                #expect(page.text.contains("First") && page.text.contains("Second") && page.text.contains("Third"))
                #expect(page.text.contains("/login?next=/albums/\(albumID)"))
                // Its picture opens without a login (messengers fetch it without cookies).
                let image = try #require(tags["og:image"]?.replacingOccurrences(of: "&amp;", with: "&"))
                let path = String(image[try #require(image.range(of: "/api/v1/covers/")).lowerBound...])
                let cover = try await server.request(.get, path)
                #expect(cover.status == .ok)
                #expect(cover.headers[.contentType] == "image/jpeg")
                // An item's link names the item and its audio, which still needs an account.
                let item = try await server.request(.get, "/albums/\(albumID)/\(tracks[1])")
                let itemTags = Self.tags(item.text)
                #expect(itemTags["og:title"] == "Second")
                #expect(itemTags["og:type"] == "music.song")
                #expect(itemTags["og:audio"]?.hasSuffix("/api/v1/media/\(tracks[1])/stream") == true)
                #expect(item.text.contains(#"aria-current="true">Second"#))
                #expect(try await server.request(.get, "/api/v1/media/\(tracks[1])/stream").status == .unauthorized)
                #expect(try await server.request(.get, "/albums/\(albumID)/999999").status == .notFound)
                #expect(try await server.request(.get, "/podcasts/\(albumID)").status == .notFound)
                // An author.
                let author = try await server.request(.get, "/authors/\(authorID)")
                #expect(Self.tags(author.text)["og:type"] == "profile")
                #expect(Self.tags(author.text)["og:title"] == "Orchestra")
                // Signed in, the same link is the usual page, with a share button and the tags.
                let signedIn = try await server.request(
                    .get, "/albums/\(albumID)", headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ann)"])
                #expect(signedIn.text.contains(#"id="play-all""#))
                #expect(signedIn.text.contains(#"data-share-url="http"#))
                #expect(Self.tags(signedIn.text)["og:title"] == "Suite")
                #expect(!signedIn.text.contains(#"id="play-offer""#))
                // A deep link to an item offers to play it, in its parent's context.
                let deep = try await server.request(
                    .get, "/albums/\(albumID)/\(tracks[1])",
                    headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ann)"])
                #expect(deep.text.contains(#"<h2 id="selected-title">Second</h2>"#))
                #expect(
                    deep.text.contains(
                        #"data-play="track:\#(tracks[1])" data-context="album:\#(albumID)" id="play-selected""#))
                #expect(Self.tags(deep.text)["og:audio"]?.hasSuffix("/api/v1/media/\(tracks[1])/stream") == true)
            }
        }

        @Test(arguments: TestDatabases.kinds)
        func playlistsArePrivateUntilMadePublic(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            try await TestServer.run(location: location) { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let first = try #require(try await server.tracks(ofAlbum: albumID, token: cast.ann).first)
                let created = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"Evening","kind":"track"}"#, token: cast.ann)
                let id = try #require(created.json["id"] as? String)
                #expect(created.json["public"] as? Bool == false)
                #expect(created.json["mine"] as? Bool == true)
                _ = try await server.request(
                    .patch, "/api/v1/playlists/\(id)", json: #"{"items":[\#(first)]}"#, token: cast.ann)

                // Private: Ben is refused, a visitor without an account is sent to log in.
                #expect(try await server.request(.get, "/api/v1/playlists/\(id)", token: cast.ben).status == .forbidden)
                let signedOut = try await server.request(.get, "/listen/playlists/\(id)")
                #expect(signedOut.status == .seeOther)
                #expect(signedOut.headers[.location]?.contains("/login?next=") == true)
                #expect(!signedOut.text.contains("Evening"))

                // Only the owner makes it public.
                let bens = try await server.request(
                    .patch, "/api/v1/playlists/\(id)", json: #"{"public":true}"#, token: cast.ben)
                #expect(bens.status == .forbidden)
                let made = try await server.request(
                    .patch, "/api/v1/playlists/\(id)", json: #"{"public":true}"#, token: cast.ann)
                #expect(made.json["public"] as? Bool == true)
                let listed = server.jsonArray(try await server.request(.get, "/api/v1/playlists", token: cast.ann))
                #expect(listed.first { $0["id"] as? String == id }?["public"] as? Bool == true)

                // Public: Ben reads it (not his to change), and so does anyone with the link.
                let read = try await server.request(.get, "/api/v1/playlists/\(id)", token: cast.ben)
                #expect(read.status == .ok)
                #expect(read.json["mine"] as? Bool == false)
                #expect((read.json["items"] as? [[String: Any]])?.count == 1)
                let change = try await server.request(
                    .patch, "/api/v1/playlists/\(id)", json: #"{"name":"Mine now"}"#, token: cast.ben)
                #expect(change.status == .forbidden)
                let bensPage = try await server.request(
                    .get, "/listen/playlists/\(id)",
                    headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ben)"])
                #expect(bensPage.status == .ok)
                #expect(!bensPage.text.contains(#"id="addable-search""#), "no editing of someone else's playlist")
                let preview = try await server.request(.get, "/listen/playlists/\(id)")
                #expect(preview.status == .ok)
                #expect(Self.tags(preview.text)["og:type"] == "music.playlist")
                #expect(Self.tags(preview.text)["og:title"] == "Evening")
                #expect(preview.text.contains("First"))
                // Ben may play it.
                let play = try await server.player(
                    cast.ben, #"{"action":"play","payload":{"ids":["playlist:\#(id)"]}}"#)
                #expect(play.status == .ok, "\(play.text)")
                #expect(play.queueIDs == [first])

                // Private again: closed to others at once.
                _ = try await server.request(
                    .patch, "/api/v1/playlists/\(id)", json: #"{"public":false}"#, token: cast.ann)
                #expect(try await server.request(.get, "/api/v1/playlists/\(id)", token: cast.ben).status == .forbidden)
                #expect(try await server.request(.get, "/listen/playlists/\(id)").status == .seeOther)
                // System playlists are nobody's to share.
                #expect(try await server.request(.get, "/listen/playlists/recommended").status == .seeOther)
            }
        }

        /// A shared link of something without a cover still has a picture in its preview:
        /// Campus's icon as a PNG (previews show no SVG), with the small card (issue 35).
        @Test func previewsWithoutACoverShowTheIcon() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let podcastID = try await server.find("science", kind: "podcast", token: cast.ann)
                let podcast = try await server.request(.get, "/api/v1/podcasts/\(podcastID)", token: cast.ann)
                #expect(podcast.json["images"] == nil, "the test's podcast has no cover")
                let authorID = try #require(
                    ((podcast.json["author"] as? [String: Any])?["id"] as? NSNumber)?.int64Value)
                let created = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"Shared","kind":"track"}"#, token: cast.ann)
                let playlist = try #require(created.json["id"] as? String)
                _ = try await server.request(
                    .patch, "/api/v1/playlists/\(playlist)", json: #"{"public":true}"#, token: cast.ann)
                let episode = try #require(
                    (podcast.json["items"] as? [[String: Any]])?.first?["id"] as? NSNumber
                ).int64Value
                for path in [
                    "/podcasts/\(podcastID)", "/podcasts/\(podcastID)/\(episode)", "/authors/\(authorID)",
                    "/listen/playlists/\(playlist)",
                ] {
                    let page = try await server.request(.get, path, headers: [.accept: "text/html"])
                    #expect(page.status == .ok, "\(path)")
                    let tags = Self.tags(page.text)
                    let image = try #require(tags["og:image"], "\(path) has no og:image")
                    #expect(image.hasPrefix("http") && image.hasSuffix("/static/icon-512.png"), "\(path): \(image)")
                    #expect(tags["twitter:image"] == image, "\(path)")
                    #expect(tags["twitter:card"] == "summary", "\(path)")
                }
                // The icon opens without a login, as a PNG of 512×512.
                let icon = try await server.request(.get, "/static/icon-512.png")
                #expect(icon.status == .ok)
                #expect(icon.headers[.contentType] == "image/png")
                let bytes = Array(icon.body.readableBytesView)
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                // IHDR: width and height, big-endian, at bytes 16 and 20.
                #expect(bytes.count > 24 && bytes[16..<24].elementsEqual([0, 0, 2, 0, 0, 0, 2, 0]))
            }
        }

        /// The Open Graph and Twitter card tags of a page, by property or name.
        static func tags(_ html: String) -> [String: String] {
            var tags: [String: String] = [:]
            let pattern = #/<meta (?:property|name)="((?:og|twitter):[a-z_:]+)" content="([^"]*)">/#
            for match in html.matches(of: pattern) { tags[String(match.output.1)] = String(match.output.2) }
            return tags
        }
    }
}
