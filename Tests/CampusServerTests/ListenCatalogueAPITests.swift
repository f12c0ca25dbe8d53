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
    /// The catalogue through the API: scanning, streaming, uploads and podcast feeds.
    @Suite(.serialized) struct ListenCatalogueAPITests {
        @Test(arguments: TestDatabases.kinds)
        func scanningReadsTagsAndRescansKeepIDs(_ kind: Database.Kind) async throws {
            try await TestServer.run(kind) { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let album = try await server.request(.get, "/api/v1/albums/\(albumID)", token: cast.ann)
                #expect(album.status == .ok)
                #expect(album.json["title"] as? String == "Suite")
                #expect((album.json["author"] as? [String: Any])?["name"] as? String == "Orchestra")
                #expect((album.json["genre"] as? [String: Any])?["name"] as? String == "Classical")
                #expect(album.json["year"] as? Int == 2024)
                #expect(album.json["images"] != nil, "the embedded cover becomes the album's cover")
                let tracks = album.json["items"] as? [[String: Any]] ?? []
                #expect(tracks.map { $0["title"] as? String } == ["First", "Second", "Third"])
                #expect(tracks.map { $0["kind"] as? String } == ["track", "track", "track"])
                #expect(tracks.map { $0["contentType"] as? String } == ["audio/mpeg", "audio/mpeg", "audio/ogg"])
                let secondDuration = tracks[1]["duration"] as? Double ?? 0
                #expect(
                    abs(secondDuration - (try cast.library.probedDuration("Music/Orchestra - Suite/02 Second.mp3")))
                        < 0.01)
                // Folders decide the kinds; podcasts list the newest episode first.
                let podcastID = try await server.find("science hour", kind: "podcast", token: cast.ann)
                let podcast = try await server.request(.get, "/api/v1/podcasts/\(podcastID)", token: cast.ann)
                #expect(
                    (podcast.json["items"] as? [[String: Any]] ?? []).map { $0["title"] as? String } == [
                        "Episode 2", "Episode 1",
                    ])
                let bookID = try await server.find("the book", kind: "audiobook", token: cast.ann)
                // A search's words may come in quotes and in any case.
                #expect(try await server.find("\"BOOK\"  the", kind: "audiobook", token: cast.ann) == bookID)
                let book = try await server.request(.get, "/api/v1/audiobooks/\(bookID)", token: cast.ann)
                #expect(
                    (book.json["items"] as? [[String: Any]] ?? []).map { $0["kind"] as? String } == [
                        "audiobook_chapter", "audiobook_chapter",
                    ])
                // An album asked for as a podcast is not found.
                #expect(
                    try await server.request(.get, "/api/v1/podcasts/\(albumID)", token: cast.ann).status == .notFound)
                let cover = try await server.request(.get, "/api/v1/covers/\(albumID)/thumbnail", token: cast.ann)
                #expect(cover.status == .ok)
                #expect(cover.headers[.contentType] == "image/jpeg")

                // Scanning again changes nothing and keeps ids.
                let ids = tracks.compactMap { ($0["id"] as? NSNumber)?.int64Value }
                let again = try await server.request(
                    .post, "/api/v1/library/scan", json: #"{"folder":"\#(cast.library.root.path)"}"#, token: cast.admin)
                #expect(again.json["unchanged"] as? Int == 7)
                #expect(again.json["added"] as? Int == 0)
                // A retagged file is updated under its id; a removed file goes; a new one comes.
                let second = cast.library.root.appendingPathComponent("Music/Orchestra - Suite/02 Second.mp3")
                try TestLibrary.tone(
                    second, seconds: 6, frequency: 330, codec: ["-c:a", "libmp3lame", "-b:a", "64k"],
                    tags: [
                        "title": "Second (live)", "artist": "Orchestra", "album": "Suite", "track": "2",
                        "genre": "Classical",
                    ])
                try FileManager.default.removeItem(
                    at: cast.library.root.appendingPathComponent("Music/Orchestra - Suite/03 Third.ogg"))
                try TestLibrary.tone(
                    cast.library.root.appendingPathComponent("Music/Orchestra - Suite/04 Fourth.mp3"), seconds: 2,
                    frequency: 550, codec: ["-c:a", "libmp3lame"],
                    tags: [
                        "title": "Fourth", "artist": "Orchestra", "album": "Suite", "track": "4", "genre": "Classical",
                    ])
                let third = try await server.request(
                    .post, "/api/v1/library/scan", json: #"{"folder":"\#(cast.library.root.path)"}"#, token: cast.admin)
                #expect(third.json["updated"] as? Int == 1)
                #expect(third.json["removed"] as? Int == 1)
                #expect(third.json["added"] as? Int == 1)
                let after = try await server.request(.get, "/api/v1/albums/\(albumID)", token: cast.ann)
                let afterTracks = after.json["items"] as? [[String: Any]] ?? []
                #expect(afterTracks.map { $0["title"] as? String } == ["First", "Second (live)", "Fourth"])
                #expect(
                    afterTracks.prefix(2).compactMap { ($0["id"] as? NSNumber)?.int64Value } == Array(ids.prefix(2)))
                #expect(try await server.request(.get, "/api/v1/media/\(ids[2])", token: cast.ann).status == .notFound)

                // Only admins scan, and only folders.
                let refused = try await server.request(
                    .post, "/api/v1/library/scan", json: #"{"folder":"/tmp"}"#, token: cast.ann)
                #expect(refused.status == .forbidden)
                let missing = try await server.request(
                    .post, "/api/v1/library/scan", json: #"{"folder":"/no/such/folder"}"#, token: cast.admin)
                #expect(missing.status == .unprocessableContent)
            }
        }

        @Test func streamingAnswersRangesByteForByte() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let album = try await server.request(.get, "/api/v1/albums/\(albumID)", token: cast.ann)
                let first = (album.json["items"] as? [[String: Any]] ?? [])[0]
                let id = (first["id"] as? NSNumber)?.int64Value ?? 0
                let file = try Data(
                    contentsOf: cast.library.root.appendingPathComponent("Music/Orchestra - Suite/01 First.mp3"))
                let stream = "/api/v1/media/\(id)/stream"

                let whole = try await server.request(.get, stream, token: cast.ann)
                #expect(whole.status == .ok)
                #expect(Data(buffer: whole.body) == file)
                #expect(whole.headers[.contentType] == "audio/mpeg")
                #expect(whole.headers[.acceptRanges] == "bytes")
                let etag = try #require(whole.headers[.eTag])
                let lastModified = try #require(whole.headers[.lastModified])

                func range(_ header: String, extra: HTTPFields = [:]) async throws -> TestResponse {
                    var headers = extra
                    headers[.range] = header
                    return try await server.request(.get, stream, token: cast.ann, headers: headers)
                }
                let start = try await range("bytes=0-99")
                #expect(start.status == .partialContent)
                #expect(Data(buffer: start.body) == file.prefix(100))
                #expect(start.headers[.contentRange] == "bytes 0-99/\(file.count)")
                let open = try await range("bytes=1000-")
                #expect(open.status == .partialContent)
                #expect(Data(buffer: open.body) == file.dropFirst(1000))
                let suffix = try await range("bytes=-500")
                #expect(Data(buffer: suffix.body) == file.suffix(500))
                #expect(suffix.headers[.contentRange] == "bytes \(file.count - 500)-\(file.count - 1)/\(file.count)")
                let beyond = try await range("bytes=\(file.count)-")
                #expect(beyond.status == .rangeNotSatisfiable)
                #expect(beyond.headers[.contentRange] == "bytes */\(file.count)")
                #expect(
                    try await range("bytes=" + String(repeating: "0", count: 120) + "-").status == .unprocessableContent
                )
                let clamped = try await range("bytes=\(file.count - 10)-\(file.count + 100)")
                #expect(Data(buffer: clamped.body) == file.suffix(10))
                // A stale If-Range gets the whole file; a current one the range.
                let stale = try await range("bytes=0-9", extra: [.ifRange: "\"old\""])
                #expect(stale.status == .ok)
                #expect(Data(buffer: stale.body) == file)
                let current = try await range("bytes=0-9", extra: [.ifRange: etag])
                #expect(current.status == .partialContent)
                // Conditional requests.
                #expect(
                    try await server.request(.get, stream, token: cast.ann, headers: [.ifNoneMatch: etag]).status
                        == .notModified)
                #expect(
                    try await server.request(.get, stream, token: cast.ann, headers: [.ifModifiedSince: lastModified])
                        .status
                        == .notModified)
                let head = try await server.request(.head, stream, token: cast.ann)
                #expect(head.headers[.contentLength] == String(file.count))
                // Files are addressed by id only, and only for signed-in users.
                #expect(try await server.request(.get, stream).status == .unauthorized)
                #expect(
                    try await server.request(.get, "/api/v1/media/999999/stream", token: cast.ann).status == .notFound)
                #expect(
                    try await server.request(.get, "/api/v1/media/..%2F..%2Fetc%2Fpasswd/stream", token: cast.ann)
                        .status
                        == .unprocessableContent)
                // Transcoding gives MP3 at the asked bitrate.
                let low = try await server.request(.get, "\(stream)?format=mp3&bitrate=32", token: cast.ann)
                #expect(low.status == .ok)
                #expect(low.headers[.contentType] == "audio/mpeg")
                let transcoded = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "\(UUID().uuidString).mp3")
                try Data(buffer: low.body).write(to: transcoded)
                defer { try? FileManager.default.removeItem(at: transcoded) }
                let probe = String(
                    decoding: try TestLibrary.run(
                        "ffprobe",
                        [
                            "-v", "error", "-show_entries", "stream=codec_name,bit_rate", "-of", "csv=p=0",
                            transcoded.path,
                        ]),
                    as: UTF8.self)
                #expect(probe.hasPrefix("mp3,32000"), "\(probe)")
                #expect(
                    try await server.request(.get, "\(stream)?format=mp3&bitrate=9999", token: cast.ann).status
                        == .unprocessableContent)
            }
        }

        @Test func adminsUploadSingleFilesAndImportPodcastFeeds() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let file = try Data(
                    contentsOf: cast.library.root.appendingPathComponent("Music/Orchestra - Suite/01 First.mp3"))
                func upload(_ query: String, _ token: String, _ bytes: Data = file) async throws -> TestResponse {
                    try await server.http.execute(
                        uri: "/api/v1/library/uploads?\(query)", method: .post,
                        headers: [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"],
                        body: ByteBuffer(bytes: bytes))
                }
                // The folder decides the kind, as in a scan.
                let uploaded = try await upload("name=Lecture%201.mp3&folder=Lectures/Physics%20101", cast.admin)
                #expect(uploaded.status == .created, "\(uploaded.text)")
                #expect(uploaded.json["kind"] as? String == "programme_episode")
                #expect(uploaded.json["title"] as? String == "First", "the title tag")
                let id = (uploaded.json["id"] as? NSNumber)?.int64Value ?? 0
                let stream = try await server.request(.get, "/api/v1/media/\(id)/stream", token: cast.ann)
                #expect(Data(buffer: stream.body) == file)
                // Uploading the same name again replaces the file and keeps the id.
                let again = try await upload("name=Lecture%201.mp3&folder=Lectures/Physics%20101", cast.admin)
                #expect((again.json["id"] as? NSNumber)?.int64Value == id)
                // The file has its name whole, and no staging file stays behind.
                let folder = URL(fileURLWithPath: server.dataDirectory).appendingPathComponent(
                    "uploads/Lectures/Physics 101")
                let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                #expect(names.contains("Lecture 1.mp3") && !names.contains { $0.hasSuffix(".part") }, "\(names)")
                #expect(try Data(contentsOf: folder.appendingPathComponent("Lecture 1.mp3")) == file)
                // Only admins, only audio, no way out of the uploads folder.
                #expect(try await upload("name=x.mp3", cast.ann).status == .forbidden)
                #expect(try await upload("name=notes.txt", cast.admin).status == .unprocessableContent)
                #expect(try await upload("name=x.mp3&folder=../..", cast.admin).status == .unprocessableContent)
                let long = String(repeating: "0", count: 250)
                #expect(try await upload("name=x.mp3&folder=\(long)", cast.admin).status == .unprocessableContent)
                #expect(
                    try await upload("name=noise.mp3", cast.admin, Data("not audio at all".utf8)).status
                        == .unprocessableContent)

                // A podcast from a feed file (the CLI's way); its episodes play from the feed's URLs.
                let feed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("FormatsTests/Data/podcast.rss")
                let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
                let podcasts = Podcasts(
                    database: database, mediaDirectory: NSTemporaryDirectory(), logger: TestDatabases.logger)
                let imported = try await podcasts.add(feed.path, allowFiles: true)
                #expect(imported.added == 2)
                let reimported = try await podcasts.add(feed.path, allowFiles: true)
                #expect(reimported.added == 0 && reimported.updated == 2)
                await database.close()
                let podcast = try await server.request(.get, "/api/v1/podcasts/\(imported.podcastID)", token: cast.ann)
                let episodes = podcast.json["items"] as? [[String: Any]] ?? []
                #expect(episodes.map { $0["title"] as? String } == ["Episode 2: Sound", "Episode 1: Light"])
                #expect(episodes.first?["duration"] as? Double == 3723)
                let episodeID = (episodes.first?["id"] as? NSNumber)?.int64Value ?? 0
                let redirect = try await server.request(.get, "/api/v1/media/\(episodeID)/stream", token: cast.ann)
                #expect(redirect.status == .found)
                #expect(redirect.headers[.location] == "https://radio.example.org/science/2.mp3")

                // Campus's own feed: a key opens it and its episodes without a login; a wrong key is 404.
                let rssURL = try #require(podcast.json["rssUrl"] as? String)
                let rss = try await server.request(.get, rssURL)
                #expect(rss.status == .ok)
                #expect(rss.headers[.contentType]?.hasPrefix("application/rss+xml") == true)
                let ours = try RSS.read(Data(buffer: rss.body))
                #expect(ours.title == "Science Hour & Friends")
                #expect(ours.episodes.count == 2)
                #expect(
                    try await server.request(.get, "/api/v1/podcasts/\(imported.podcastID)/rss?key=wrong").status
                        == .notFound)
                let enclosure = try #require(URL(string: ours.episodes[0].enclosureURL))
                let keyed = try await server.request(.get, enclosure.path + "?" + (enclosure.query ?? ""))
                #expect(keyed.status == .found, "the key opens the item without a login")
                let forged = try await server.request(.get, enclosure.path + "?key=AAAAAAAAAAAAAAAAAAAAAA")
                #expect(forged.status == .unauthorized)
            }
        }

        /// A server killed while a file arrives leaves its hidden staging file; the next upload
        /// removes those nobody has written for ten minutes, and nothing else.
        @Test func uploadsSweepStagingFilesLeftByACrash() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
            let folder = root.appendingPathComponent("Lectures")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: root) }
            let now = Date()
            let old = now.addingTimeInterval(-LibraryService.stagingLifetime - 60)
            for (name, modified) in [
                (".left-by-a-crash.part", old), (".arriving-now.part", now), ("Old lecture.mp3", old),
                ("not-hidden.part", old),
            ] {
                let file = folder.appendingPathComponent(name)
                #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
                try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
            }
            LibraryService.sweepStagingFiles(in: root, now: now)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                    == [".arriving-now.part", "Old lecture.mp3", "not-hidden.part"])
        }

        /// Killed after an upload's file got its name but before the catalogue read it, a server
        /// finds the file whole and its item describing the file it replaced; the next start mends it.
        @Test func theNextStartCatchesTheCatalogueUpWithUploads() async throws {
            let (location, cleanup) = try await TestDatabases.location(.sqlite)
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("campus-data-\(UUID().uuidString)")
            let library = try TestLibrary.make()
            defer {
                library.remove()
                try? FileManager.default.removeItem(at: data)
            }
            let album = library.root.appendingPathComponent("Music/Orchestra - Suite")
            let folder = data.appendingPathComponent("uploads/Lectures/Talks")
            let (id, admin) = try await TestServer.run(location: location, configure: { $0.dataDirectory = data.path })
            {
                server in
                try await server.register("admin@example.org")
                try await server.makeAdmin("admin@example.org")
                let admin = try await server.login("admin@example.org")
                let uploaded = try await server.http.execute(
                    uri: "/api/v1/library/uploads?name=Talk.mp3&folder=Lectures/Talks", method: .post,
                    headers: [.authorization: "Bearer \(admin)", .contentType: "application/octet-stream"],
                    body: ByteBuffer(bytes: try Data(contentsOf: album.appendingPathComponent("01 First.mp3"))))
                #expect(uploaded.json["title"] as? String == "First")
                return ((uploaded.json["id"] as? NSNumber)?.int64Value ?? 0, admin)
            }
            // What the kill left: the new file under the name, and a staging file nobody writes.
            try FileManager.default.removeItem(at: folder.appendingPathComponent("Talk.mp3"))
            try FileManager.default.copyItem(
                at: album.appendingPathComponent("02 Second.mp3"), to: folder.appendingPathComponent("Talk.mp3"))
            let staging = folder.appendingPathComponent(".left-by-the-kill.part")
            #expect(FileManager.default.createFile(atPath: staging.path, contents: Data("half".utf8)))
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-LibraryService.stagingLifetime - 60)],
                ofItemAtPath: staging.path)
            try await TestServer.run(location: location, configure: { $0.dataDirectory = data.path }) { server in
                var title: String?
                for _ in 0..<100 where title != "Second" {
                    title = try await server.request(.get, "/api/v1/media/\(id)", token: admin).json["title"] as? String
                    if title != "Second" { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(title == "Second", "the item describes the file under its name")
                #expect(!FileManager.default.fileExists(atPath: staging.path))
            }
            await cleanup()
        }
    }
}
