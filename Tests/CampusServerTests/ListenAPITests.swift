import CampusTestSupport
import Formats
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

/// A small library of real audio files made by ffmpeg, with known tags.
struct TestLibrary {
    let root: URL

    static func run(_ command: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ExternalTool.Failed(description: "\(command) \(arguments.joined(separator: " ")) failed")
        }
        return data
    }

    /// Makes a tone of `seconds` with these tags.
    static func tone(
        _ path: URL, seconds: Int, frequency: Int, codec: [String], tags: [String: String], cover: URL? = nil
    )
        throws
    {
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        var arguments = [
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
            "sine=frequency=\(frequency):duration=\(seconds)",
        ]
        if let cover {
            arguments += ["-i", cover.path, "-map", "0", "-map", "1", "-c:v", "mjpeg", "-id3v2_version", "3"]
        }
        arguments += codec
        for (name, value) in tags.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(name)=\(value)"] }
        arguments.append(path.path)
        _ = try run("ffmpeg", arguments)
    }

    static func make() throws -> TestLibrary {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("campus-library-\(UUID().uuidString)")
        let mp3 = ["-c:a", "libmp3lame", "-b:a", "64k"]
        let cover = root.appendingPathComponent("cover-source.jpg")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        _ = try run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x320:rate=1",
                "-frames:v", "1", cover.path,
            ])
        let album = root.appendingPathComponent("Music/Orchestra - Suite")
        try tone(
            album.appendingPathComponent("02 Second.mp3"), seconds: 4, frequency: 330, codec: mp3,
            tags: [
                "title": "Second", "artist": "Orchestra", "album": "Suite", "track": "2/3", "date": "2024",
                "genre": "Classical",
            ],
            cover: cover)
        try tone(
            album.appendingPathComponent("01 First.mp3"), seconds: 3, frequency: 220, codec: mp3,
            tags: [
                "title": "First", "artist": "Orchestra", "album": "Suite", "track": "1/3", "date": "2024",
                "genre": "Classical",
            ],
            cover: cover)
        try tone(
            album.appendingPathComponent("03 Third.ogg"), seconds: 5, frequency: 440, codec: ["-c:a", "libvorbis"],
            tags: ["title": "Third", "artist": "Orchestra", "album": "Suite", "tracknumber": "3", "genre": "Classical"])
        let podcast = root.appendingPathComponent("Podcasts/Science Hour")
        for number in 1...2 {
            try tone(
                podcast.appendingPathComponent("Episode \(number).mp3"), seconds: 3, frequency: 500 + number,
                codec: mp3,
                tags: [
                    "title": "Episode \(number)", "artist": "Science Club", "album": "Science Hour",
                    "track": "\(number)",
                    "date": "2026-0\(number)-15",
                ])
        }
        let book = root.appendingPathComponent("Audiobooks/The Book")
        for number in 1...2 {
            try tone(
                book.appendingPathComponent("Chapter \(number).m4a"), seconds: 3, frequency: 600 + number,
                codec: ["-c:a", "aac", "-b:a", "48k"],
                tags: ["title": "Chapter \(number)", "artist": "Reader", "album": "The Book", "track": "\(number)"])
        }
        try FileManager.default.removeItem(at: cover)
        return TestLibrary(root: root)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// ffprobe's duration of a file, to check the catalogue against.
    func probedDuration(_ relative: String) throws -> Double {
        let data = try TestLibrary.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1",
                root.appendingPathComponent(relative).path,
            ])
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}

/// A listener and an admin with a scanned library.
struct ListenCast {
    var admin: String
    var ann: String
    var ben: String
    var library: TestLibrary

    static func make(_ server: TestServer) async throws -> ListenCast {
        try await server.register("admin@example.org", firstName: "Ada", lastName: "Admin")
        try await server.makeAdmin("admin@example.org")
        try await server.register("ann@example.org")
        try await server.register("ben@example.org")
        let library = try TestLibrary.make()
        let admin = try await server.login("admin@example.org")
        let scan = try await server.request(
            .post, "/api/v1/library/scan", json: #"{"folder":"\#(library.root.path)"}"#, token: admin)
        #expect(scan.status == .ok, "\(scan.text)")
        #expect(scan.json["added"] as? Int == 7)
        return ListenCast(
            admin: admin, ann: try await server.login("ann@example.org"),
            ben: try await server.login("ben@example.org"),
            library: library)
    }
}

extension TestServer {
    func jsonArray(_ response: TestResponse) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]]) ?? []
    }

    /// The id of the first search hit of a kind.
    func find(_ query: String, kind: String, token: String) async throws -> Int64 {
        let response = try await request(
            .get, "/api/v1/search?q=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
            token: token)
        let items = response.json["items"] as? [[String: Any]] ?? []
        let hit = items.first { $0["kind"] as? String == kind }
        return (hit?["id"] as? NSNumber)?.int64Value ?? 0
    }

    func player(_ token: String, _ body: String) async throws -> TestResponse {
        try await request(.post, "/api/v1/player", json: body, token: token)
    }
}

extension TestResponse {
    var queueIDs: [Int64] {
        (json["queue"] as? [[String: Any]] ?? []).compactMap {
            (($0["media"] as? [String: Any])?["id"] as? NSNumber)?.int64Value
        }
    }
    var current: Int? { json["current"] as? Int }
    var currentID: Int64? { current.map { queueIDs[$0] } }
}

@Suite(.serialized) struct ListenAPITests {
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
                abs(secondDuration - (try cast.library.probedDuration("Music/Orchestra - Suite/02 Second.mp3"))) < 0.01)
            // Folders decide the kinds; podcasts list the newest episode first.
            let podcastID = try await server.find("science hour", kind: "podcast", token: cast.ann)
            let podcast = try await server.request(.get, "/api/v1/podcasts/\(podcastID)", token: cast.ann)
            #expect(
                (podcast.json["items"] as? [[String: Any]] ?? []).map { $0["title"] as? String } == [
                    "Episode 2", "Episode 1",
                ])
            let bookID = try await server.find("the book", kind: "audiobook", token: cast.ann)
            let book = try await server.request(.get, "/api/v1/audiobooks/\(bookID)", token: cast.ann)
            #expect(
                (book.json["items"] as? [[String: Any]] ?? []).map { $0["kind"] as? String } == [
                    "audiobook_chapter", "audiobook_chapter",
                ])
            // An album asked for as a podcast is not found.
            #expect(try await server.request(.get, "/api/v1/podcasts/\(albumID)", token: cast.ann).status == .notFound)
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
                tags: ["title": "Fourth", "artist": "Orchestra", "album": "Suite", "track": "4", "genre": "Classical"])
            let third = try await server.request(
                .post, "/api/v1/library/scan", json: #"{"folder":"\#(cast.library.root.path)"}"#, token: cast.admin)
            #expect(third.json["updated"] as? Int == 1)
            #expect(third.json["removed"] as? Int == 1)
            #expect(third.json["added"] as? Int == 1)
            let after = try await server.request(.get, "/api/v1/albums/\(albumID)", token: cast.ann)
            let afterTracks = after.json["items"] as? [[String: Any]] ?? []
            #expect(afterTracks.map { $0["title"] as? String } == ["First", "Second (live)", "Fourth"])
            #expect(afterTracks.prefix(2).compactMap { ($0["id"] as? NSNumber)?.int64Value } == Array(ids.prefix(2)))
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
                try await range("bytes=" + String(repeating: "0", count: 120) + "-").status == .unprocessableContent)
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
            #expect(try await server.request(.get, "/api/v1/media/999999/stream", token: cast.ann).status == .notFound)
            #expect(
                try await server.request(.get, "/api/v1/media/..%2F..%2Fetc%2Fpasswd/stream", token: cast.ann).status
                    == .unprocessableContent)
            // Transcoding gives MP3 at the asked bitrate.
            let low = try await server.request(.get, "\(stream)?format=mp3&bitrate=32", token: cast.ann)
            #expect(low.status == .ok)
            #expect(low.headers[.contentType] == "audio/mpeg")
            let transcoded = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).mp3")
            try Data(buffer: low.body).write(to: transcoded)
            defer { try? FileManager.default.removeItem(at: transcoded) }
            let probe = String(
                decoding: try TestLibrary.run(
                    "ffprobe",
                    ["-v", "error", "-show_entries", "stream=codec_name,bit_rate", "-of", "csv=p=0", transcoded.path]),
                as: UTF8.self)
            #expect(probe.hasPrefix("mp3,32000"), "\(probe)")
            #expect(
                try await server.request(.get, "\(stream)?format=mp3&bitrate=9999", token: cast.ann).status
                    == .unprocessableContent)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func thePlayerIsKeptOnTheServer(_ kind: Database.Kind) async throws {
        let (location, cleanup) = try await TestDatabases.location(kind)
        defer { Task { await cleanup() } }
        let library = try await TestServer.run(location: location) { server in
            let cast = try await ListenCast.make(server)
            let albumID = try await server.find("suite", kind: "album", token: cast.ann)
            // Playing a parent queues its children and starts with the first.
            let play = try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["album:\#(albumID)"]}}"#)
            #expect(play.status == .ok, "\(play.text)")
            let ids = play.queueIDs
            #expect(ids.count == 3)
            #expect(play.current == 0)
            #expect(play.json["playing"] as? Bool == true)
            // With a context, the given item becomes current.
            let context = try await server.player(
                cast.ann, #"{"action":"play","payload":{"ids":["track:\#(ids[1])"],"contextId":"album:\#(albumID)"}}"#)
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
                try await server.request(.delete, "/api/v1/marks/track:\(ids[2])", token: cast.ann).status == .noContent
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
            #expect(try await server.player(cast.ann, #"{"action":"track_change"}"#).status == .unprocessableContent)
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
            let album = try await server.request(.get, "/api/v1/albums/\(albumID)", token: cast.ann)
            let tracks = (album.json["items"] as? [[String: Any]] ?? []).compactMap {
                ($0["id"] as? NSNumber)?.int64Value
            }
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
                (reordered.json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
                    == [tracks[2], tracks[0]])
            let wrongKind = try await server.request(
                .patch, "/api/v1/playlists/\(id)", json: #"{"items":[\#(episode)]}"#, token: cast.ann)
            #expect(wrongKind.status == .unprocessableContent)
            // Someone else's playlist is not Ben's to read or change.
            #expect(try await server.request(.get, "/api/v1/playlists/\(id)", token: cast.ben).status == .forbidden)
            #expect(try await server.request(.delete, "/api/v1/playlists/\(id)", token: cast.ben).status == .forbidden)
            // Playing a playlist queues it.
            let play = try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["playlist:\#(id)"]}}"#)
            #expect(play.queueIDs == [tracks[2], tracks[0]])
            #expect(
                try await server.player(cast.ben, #"{"action":"play","payload":{"ids":["playlist:\#(id)"]}}"#).status
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
                (recommended.json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
                    == [tracks[0]], "by the liked track's author, not played, not liked")
            #expect(
                try await server.request(.put, "/api/v1/marks/track:999999", json: #"{"mark":"like"}"#, token: cast.ann)
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
            #expect(endless.queueIDs.count == 3)
            #expect(endless.json["playing"] as? Bool == true)
            #expect(endless.current == 1)
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
                database: database, dataDirectory: NSTemporaryDirectory(), logger: TestDatabases.logger)
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
                try await server.request(.delete, "/api/v1/comments/\(commentID)", token: cast.ben).status == .forbidden
            )
            #expect(
                try await server.request(.delete, "/api/v1/comments/\(commentID)", token: cast.admin).status
                    == .noContent)
            #expect(
                try await server.request(.delete, "/api/v1/comments/\(commentID)", token: cast.ann).status == .notFound)
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
                  {"type":"banner","title":"Campus radio week","source":"link","link":"/listen/podcasts","highlight":true},
                  {"type":"grid_four_squares","title":"Classical","source":"genre:GENRE","limit":2},
                  {"type":"list_rectangular","title":"Podcasts","source":"newest:podcast"}
                ]}
                """#
            let genres = server.jsonArray(try await server.request(.get, "/api/v1/genres", token: cast.ann))
            let classical = (genres.first { $0["name"] as? String == "Classical" }?["id"] as? NSNumber)?.int64Value ?? 0
            let saved = try await server.request(
                .put, "/api/v1/feed/blocks", json: blocks.replacingOccurrences(of: "GENRE", with: String(classical)),
                token: cast.admin)
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(saved.json["configured"] as? Bool == true)
            let feed = try await server.request(.get, "/api/v1/feed", token: cast.ann)
            let shown = feed.json["blocks"] as? [[String: Any]] ?? []
            #expect(shown.map { $0["title"] as? String } == ["Campus radio week", "Classical", "Podcasts"])
            #expect(((shown.first?["items"] as? [[String: Any]])?.first?["url"] as? String) == "/listen/podcasts")
            #expect(shown.first?["highlight"] as? Bool == true)
            #expect((shown[1]["items"] as? [[String: Any]])?.count == 1, "the one album of the genre")
            // Bad blocks are refused with the field; an empty list returns to the default feed.
            let bad = try await server.request(
                .put, "/api/v1/feed/blocks", json: #"{"blocks":[{"type":"ad","title":"x","source":"link"}]}"#,
                token: cast.admin)
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("blocks[0].link"))
            let unknown = try await server.request(
                .put, "/api/v1/feed/blocks", json: #"{"blocks":[{"type":"ad","title":"x","source":"genre:999999"}]}"#,
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
                try await server.request(.get, "/api/v1/feed", token: cast.ann, headers: [.ifNoneMatch: etag]).status
                    == .notModified)
            // Listening changes the feed ("Continue listening").
            let albumID = try await server.find("suite", kind: "album", token: cast.ann)
            _ = try await server.player(cast.ann, #"{"action":"play","payload":{"ids":["album:\#(albumID)"]}}"#)
            _ = try await server.player(cast.ann, #"{"action":"track_next"}"#)
            let changed = try await server.request(.get, "/api/v1/feed", token: cast.ann, headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect((changed.json["blocks"] as? [[String: Any]])?.first?["type"] as? String == "track")
            #expect(try await server.request(.get, "/api/v1/feed").status == .unauthorized)
        }
    }
}
