import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Listen
import NIOCore
import Storage
import Testing

@testable import CampusServer

/// What a station does beyond relaying its source: the programme's episodes while the source is
/// away, each broadcast recorded as an episode (kept through a crash), and listeners on another
/// instance than the one the source broadcasts to.
@Suite(.serialized) struct RadioFallbackTests {
    static let password = RadioTests.password

    /// A data directory of its own (recordings go there), and a library with one programme.
    static func programmeLibrary() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("campus-radio-\(UUID().uuidString)")
        try TestLibrary.tone(
            root.appendingPathComponent("Programmes/Campus Evenings/Show 1.mp3"), seconds: 3, frequency: 550,
            codec: ["-c:a", "libmp3lame", "-b:a", "64k"],
            tags: ["title": "Show 1", "album": "Campus Evenings", "artist": "Campus FM", "date": "2026-10-01"])
        return root
    }

    /// ffmpeg listening to `url` for `seconds` of audio, copied to a file; what ffprobe says the
    /// file lasts.
    static func listen(_ url: String, seconds: Int, headers: String? = nil) async throws -> Double {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("heard-\(UUID()).mp3")
        defer { try? FileManager.default.removeItem(at: file) }
        var arguments = ["-hide_banner", "-loglevel", "error"]
        if let headers { arguments += ["-headers", headers] }
        arguments += ["-i", url, "-t", String(seconds), "-c", "copy", "-f", "mp3", "-y", file.path]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        return try duration(file.path)
    }

    static func duration(_ path: String) throws -> Double {
        let data = try TestLibrary.run(
            "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Waits until `condition` holds (asked every 200 ms, for at most 20 s).
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<100 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("never: \(what)")
    }

    /// Signs in a new admin, who scans `library` into the catalogue: the admin's token and the
    /// id of the library's programme.
    static func scanProgramme(_ library: URL, on server: TestServer) async throws -> (admin: String, programme: Int64) {
        try await server.register("admin@example.org")
        try await server.makeAdmin("admin@example.org")
        let admin = try await server.login("admin@example.org")
        let scan = try await server.request(
            .post, "/api/v1/library/scan", json: #"{"folder":"\#(library.path)"}"#, token: admin)
        #expect(scan.status == .ok, "\(scan.text)")
        let programmes = try await server.request(.get, "/api/v1/collections/programme", token: admin)
        let listed = try JSONSerialization.jsonObject(with: Data(programmes.text.utf8)) as? [[String: Any]]
        return (admin, try #require((listed?.first?["id"] as? NSNumber)?.int64Value, "\(programmes.text)"))
    }

    @Test func whenTheSourceDropsTheProgrammePlaysAndTheBroadcastBecomesAnEpisode() async throws {
        let library = try Self.programmeLibrary()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("campus-data-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: data)
        }
        try await TestServer.run(configure: { $0.dataDirectory = data.path }) { server in
            let (admin, programme) = try await RadioFallbackTests.scanProgramme(library, on: server)
            // A station that records into the programme, and plays it while no source sends.
            let created = try await server.request(
                .post, "/api/v1/stations",
                json:
                    #"{"name":"Campus FM","mount":"evenings","sourcePassword":"\#(Self.password)","programmeId":\#(programme),"recordsBroadcasts":true}"#,
                token: admin)
            #expect(created.status == .created && created.json["recordsBroadcasts"] as? Bool == true, "\(created.text)")

            let source = try RadioTests.source(port: server.port, mount: "evenings", seconds: 4)
            try await RadioTests.waitOnAir(server, mount: "evenings", title: "Morning show")
            // The listener hears 10 seconds: the source's 4, then the programme, on one connection.
            async let heard = Self.listen("http://127.0.0.1:\(server.port)/radio/evenings", seconds: 10)
            #expect(await RadioTests.finished(source).status == 0)
            try await Self.eventually("the fallback plays") {
                let station = try await server.request(.get, "/api/v1/stations/evenings")
                return station.json["onAir"] as? Bool == true && station.json["live"] as? Bool == false
                    && station.json["nowPlaying"] as? String == "Show 1"
            }
            #expect(try await heard >= 9)

            // The broadcast is the programme's newest episode: named by its start and what it
            // played, as long as it lasted, and playable.
            var episode: [String: Any] = [:]
            var rssURL = ""
            try await Self.eventually("the recording is an episode") {
                let detail = try await server.request(.get, "/api/v1/programmes/\(programme)", token: admin)
                rssURL = detail.json["rssUrl"] as? String ?? ""
                let items = detail.json["items"] as? [[String: Any]] ?? []
                episode = items.first ?? [:]
                return items.count == 2 && (episode["duration"] as? Double ?? 0) > 0
            }
            let title = episode["title"] as? String ?? ""
            #expect(title.hasSuffix(" · Morning show") && title.hasPrefix("20"), "\(title)")
            let duration = episode["duration"] as? Double ?? 0
            #expect(duration > 3 && duration < 6, "\(duration)")
            let id = (episode["id"] as? NSNumber)?.int64Value ?? 0
            let played = try await Self.listen(
                "http://127.0.0.1:\(server.port)/api/v1/media/\(id)/stream", seconds: 30,
                headers: "Authorization: Bearer \(admin)\r\n")
            #expect(abs(played - duration) < 0.5, "\(played) vs \(duration)")
            let rssPath = try #require(URLComponents(string: rssURL)).percentEncodedPath
            let rssQuery = try #require(URLComponents(string: rssURL)).percentEncodedQuery ?? ""
            let rss = try await server.request(.get, rssPath + "?" + rssQuery)
            #expect(
                rss.status == .ok && rss.text.contains("Morning show") && rss.text.contains("Show 1"), "\(rss.text)")

            // A source that connects again takes the listeners back from the fallback.
            let again = try RadioTests.source(port: server.port, mount: "evenings", seconds: 3)
            try await Self.eventually("the source is back") {
                try await server.request(.get, "/api/v1/stations/evenings").json["live"] as? Bool == true
            }
            _ = await RadioTests.finished(again)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aRecordingAStopInterruptedIsCompletedAtTheNextStart(_ kind: Database.Kind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("campus-rec-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestDatabases.withDatabase(kind) { database in
            let now = Date()
            let station = try await database.write { db -> Listen.Station? in
                let programme = try await ListenStore(db).saveParent(
                    source: "test:evenings",
                    ParentDraft(kind: .programme, title: "Evenings", authorID: nil, genreID: nil, year: nil),
                    now: now)
                return try await RadioStore(db).add(
                    Listen.Station(
                        id: 0, name: "Campus FM", mount: "evenings", programmeID: programme, recordsBroadcasts: true),
                    sourcePasswordHash: "-", now: now)
            }
            let recordings = RadioRecordings(
                database: database, directory: folder.path, timeZone: .gmt, logger: TestDatabases.logger,
                now: { Date() })
            let added = try #require(station)
            let recorder = try #require(await recordings.begin(added, contentType: "audio/mpeg"))
            // Four seconds of MP3 as a source sends it, frame by frame; then the server stops
            // without a word: nothing finishes the recording.
            let mp3 = try TestLibrary.run(
                "ffmpeg",
                [
                    "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a",
                    "libmp3lame", "-b:a", "128k", "-f", "mp3", "pipe:1",
                ])
            for start in stride(from: 0, to: mp3.count, by: 418) {
                recorder.write(ByteBuffer(bytes: mp3[start..<min(start + 418, mp3.count)]))
            }
            let path = try #require(recorder.draft.path)
            try await Self.eventually("the recording is on disk") {
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
                return size ?? 0 >= mp3.count / BroadcastRecorder.flushBytes * BroadcastRecorder.flushBytes
            }
            let before = try await database.read { db in try await ListenStore(db).media(id: recorder.mediaID) }
            #expect(before?.duration == 0 && before?.kind == .programmeEpisode)

            // The next start completes it from what reached the disk (all but the last unwritten
            // part of a second or two), unless another instance is still making it.
            await recordings.repairUnfinished { _ in true }
            #expect(try await database.read { db in try await RadioStore(db).unfinishedRecordings().count } == 1)
            await recordings.repairUnfinished { _ in false }
            let after = try #require(
                try await database.read { db in try await ListenStore(db).media(id: recorder.mediaID) })
            #expect(after.duration > 1.5 && after.duration <= 4.1, "\(after.duration)")
            #expect(abs(try Self.duration(path) - after.duration) < 0.1)
            #expect(try await database.read { db in try await RadioStore(db).unfinishedRecordings().isEmpty })
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aListenerOnAnotherInstanceHearsTheSourceThroughARelay(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { first in
            try await first.addStation(mount: "campus.mp3", password: Self.password)
            try await TestServer.run(location: first.databaseLocation) { second in
                let source = try RadioTests.source(port: first.port, mount: "campus.mp3", seconds: 120)
                defer { if source.isRunning { kill(source.processIdentifier, SIGKILL) } }
                try await RadioTests.waitOnAir(first, mount: "campus.mp3", title: "Кино — Группа крови")
                // The other instance knows it is on the air, and what it plays.
                try await Self.eventually("the second instance sees the source") {
                    let station = try await second.request(.get, "/api/v1/stations/campus.mp3")
                    return station.json["onAir"] as? Bool == true
                        && station.json["nowPlaying"] as? String == "Кино — Группа крови"
                }
                // A source for the same mount on the second instance is refused.
                let rival = try RadioTests.source(port: second.port, mount: "campus.mp3", seconds: 1)
                let refused = await RadioTests.finished(rival)
                #expect(refused.status != 0 && refused.error.contains("403"), "\(refused.error)")

                // A listener of the second instance hears the source, with the title.
                let listened = try await RadioTests.hear(
                    port: second.port, mount: "campus.mp3", bytes: 5 * 16_001 + 100, headers: [("Icy-MetaData", "1")])
                #expect(listened.status == 200 && listened.headers["content-type"] == "audio/mpeg")
                let (audio, titles) = RadioTests.split(listened.body, interval: 16_000)
                #expect(titles.first == "StreamTitle='Кино — Группа крови';")
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("relayed-\(UUID()).mp3")
                try Data(audio).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                #expect(try Self.duration(file.path) > 3)
                kill(source.processIdentifier, SIGKILL)
                _ = await RadioTests.finished(source)
                try await Self.eventually("both instances say it is off the air") {
                    let one = try await first.request(.get, "/api/v1/stations/campus.mp3").json["onAir"] as? Bool
                    let two = try await second.request(.get, "/api/v1/stations/campus.mp3").json["onAir"] as? Bool
                    return one == false && two == false
                }
            }
        }
    }
}
