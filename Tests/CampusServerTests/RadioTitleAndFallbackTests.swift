import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import InputRules
import Listen
import NIOConcurrencyHelpers
import NIOCore
import Storage
import Testing

@testable import CampusServer

/// What a source says reaches listeners, the API, recordings and Subsonic as a title of one line
/// that cannot inject anything; a station whose source left plays its programme only while
/// somebody listens, never with the slots of listeners' transcodes (issue 35).
@Suite(.serialized) struct RadioTitleAndFallbackTests {
    @Test func whatASourceSaysIsKeptAsOneLineEverywhere() throws {
        let hub = RadioHub()
        let station = Listen.Station(id: 1, name: "Campus FM", mount: "campus")
        let (broadcast, _) = try #require(hub.take(station, contentType: "audio/mpeg", feed: .source))
        broadcast.setTitle("Ctl\u{1}\u{2}\u{C}X")
        #expect(broadcast.title == "Ctl X")
        broadcast.setTitle("A\u{0}B\r\nC\u{202E}\u{FFFE}\u{B}")
        #expect(broadcast.title == "AB C")
        // The recording's name is made of what was said: it keeps the catalogue's rules.
        #expect(broadcast.titlesSaid == ["Ctl X", "AB C"])
        let name = BroadcastRecording.title(startedAt: Date(), timeZone: .gmt, titles: broadcast.titlesSaid)
        #expect(TextRules.problem(in: name, limit: CatalogueLimits.title) == nil, "\(name)")
    }

    @Test(arguments: TestDatabases.kinds)
    func theTitleOtherInstancesReadIsCleanedToo(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("campus-title-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let radio = RadioTitleRaceTests.radio(database, recordingInto: folder)
            let station = try #require(
                try await database.write { db in
                    try await RadioStore(db).add(
                        Listen.Station(id: 0, name: "Campus FM", mount: "campus"), sourcePasswordHash: "-", now: Date())
                })
            let feed = try await radio.connect(station, contentType: "audio/mpeg")
            #expect(try await radio.setTitle(mount: "campus", "Song\u{0}\u{1}';\r\nStreamUrl='x'\u{FFFF}"))
            let stored = try await database.read { db in try await RadioStore(db).announcement(mount: "campus") }
            #expect(stored?.title == "Song'; StreamUrl='x'")
            #expect(feed.broadcast.title == "Song'; StreamUrl='x'")
            feed.ended()
            await radio.finishWork()
        }
    }

    @Test func whatASourceSaysReachesListenersAsOneSafeLine() async throws {
        try await TestServer.run { server in
            try await server.addStation(mount: "campus", password: RadioTests.password)
            let source = try RadioTests.source(port: server.port, mount: "campus", seconds: 120)
            defer { if source.isRunning { kill(source.processIdentifier, SIGKILL) } }
            try await RadioTests.waitOnAir(server, mount: "campus", title: "First")
            let credentials = RadioSourceHardeningTests.basic(RadioTests.password)
            func say(_ query: String) async throws -> TestResponse {
                try await server.request(
                    .get, "/admin/metadata?mount=%2Fradio%2Fcampus&mode=updinfo&\(query)",
                    headers: [.authorization: credentials])
            }
            let cases = [
                ("song=Ctl%01%02%0CX", "Ctl X"),
                ("song=A%00B", "AB"),
                ("song=%E2%80%AEevil%EF%BF%BE%0B", "evil"),
                ("song=Line%0D%0ABreak%09Two", "Line Break Two"),
                // Decoded once: `%2B` is a plus, `%2525` stays `%25`.
                ("song=C%2B%2B+100%2525", "C++ 100%25"),
                // Not UTF-8: ISO-8859-1, as Icecast takes MP3 sources' titles; or as `charset` says.
                ("song=Caf%E9", "Café"),
                ("charset=ISO-8859-1&song=%C3%A9", "Ã©"),
                ("song=%D0%9A%D0%B8%D0%BD%D0%BE", "Кино"),
            ]
            for (query, title) in cases {
                let answer = try await say(query)
                #expect(answer.status == .ok, "\(query): \(answer.text)")
                let station = try await server.request(.get, "/api/v1/stations/campus")
                #expect(station.json["nowPlaying"] as? String == title, "\(query)")
            }
            // A title cannot end ICY's StreamTitle, nor add a StreamUrl of its own.
            #expect(try await say("song=Song%27%3BStreamUrl%3D%27http%3A%2F%2Fevil.example%2F%27%3B").status == .ok)
            let listened = try await RadioTests.hear(
                port: server.port, mount: "campus", bytes: 2 * 16_001 + 100, headers: [("Icy-MetaData", "1")])
            let (_, titles) = RadioTests.split(listened.body, interval: 16_000)
            #expect(titles.first == "StreamTitle='Song’;StreamUrl=’http://evil.example/’;';", "\(titles)")
            kill(source.processIdentifier, SIGKILL)
            _ = await RadioTests.finished(source)
        }
    }

    /// The ffmpeg processes of radio fallbacks playing files of `folder` (Linux: read from /proc).
    static func fallbackProcesses(playing folder: URL) -> Int {
        #if os(Linux)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.filter { entry in
                guard Int(entry) != nil, let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
                else { return false }
                let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                return arguments.contains("-re") && arguments.contains { $0.contains(folder.path) }
            }.count
        #else
            return 0
        #endif
    }

    @Test func aFallbackPlaysOnlyWhileSomebodyListens() async throws {
        let library = try RadioFallbackTests.programmeLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let file = library.appendingPathComponent("Programmes/Campus Evenings/Show 1.mp3").path
        let hub = RadioHub()
        let station = Listen.Station(id: 1, name: "Campus FM", mount: "evenings")
        let (broadcast, token) = try #require(hub.take(station, contentType: "audio/mpeg", feed: .fallback))
        let slots = TranscodeSlots(total: 1, perHolder: 1)
        let said = NIOLockedValueBox<[String]>([])
        let started = RadioFallback.start(
            [.init(title: "Show 1", path: file)], into: broadcast, token: token, slots: slots,
            said: { title in said.withLockedValue { $0.append(title) } }, logger: TestDatabases.logger,
            idleGrace: .seconds(1))
        let fallback = try #require(started)
        defer { fallback.stop() }
        // Nobody listens: no ffmpeg, no slot; the station says what a listener would hear.
        try await Task.sleep(for: .seconds(2))
        #expect(slots.inUse == 0 && Self.fallbackProcesses(playing: library) == 0)
        #expect(said.withLockedValue { $0 } == ["Show 1"])
        // A listener comes: the programme plays.
        let listener = try #require(broadcast.listen(limit: 10))
        var heard = 0
        for await chunk in listener.stream {
            heard += chunk.readableBytes
            broadcast.written(chunk.readableBytes, by: listener.id)
            if heard >= 2 * RadioHub.chunkBytes { break }
        }
        #expect(heard >= 2 * RadioHub.chunkBytes)
        // It leaves: after the grace, ffmpeg stops and its slot is free.
        broadcast.drop(listener.id)
        try await RadioFallbackTests.eventually("the fallback rests") {
            slots.inUse == 0 && Self.fallbackProcesses(playing: library) == 0
        }
        // The next listener starts it again.
        let again = try #require(broadcast.listen(limit: 10))
        var iterator = again.stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first != nil)
        #expect(slots.inUse == 1)
        broadcast.drop(again.id)
    }

    @Test func stationsWhoseSourceLeftTakeNoTranscodeOfListeners() async throws {
        let library = try RadioFallbackTests.programmeLibrary()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("campus-data-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: data)
        }
        // One transcode in all: a station that held it would leave none to listeners.
        try await TestServer.run(configure: {
            $0.dataDirectory = data.path
            $0.limits.transcodes = 1
        }) { server in
            let (admin, programme) = try await RadioFallbackTests.scanProgramme(library, on: server)
            let body =
                #"{"name":"Campus FM","mount":"evenings","sourcePassword":"\#(RadioTests.password)","#
                + #""programmeId":\#(programme)}"#
            let created = try await server.request(.post, "/api/v1/stations", json: body, token: admin)
            #expect(created.status == .created, "\(created.text)")
            // The source comes and goes, with nobody listening: the station stays on the air with
            // its programme, and no ffmpeg plays it.
            let source = try RadioTests.source(port: server.port, mount: "evenings", seconds: 2)
            #expect(await RadioTests.finished(source).status == 0)
            try await RadioFallbackTests.eventually("the fallback is ready") {
                let station = try await server.request(.get, "/api/v1/stations/evenings")
                return station.json["onAir"] as? Bool == true && station.json["live"] as? Bool == false
                    && station.json["nowPlaying"] as? String == "Show 1"
            }
            try await Task.sleep(for: .seconds(1))
            #expect(Self.fallbackProcesses(playing: library) == 0)
            // A listener's transcode gets the one slot.
            let detail = try await server.request(.get, "/api/v1/programmes/\(programme)", token: admin)
            let items = detail.json["items"] as? [[String: Any]] ?? []
            let episode = try #require((items.first?["id"] as? NSNumber)?.int64Value, "\(detail.text)")
            let stream = "/api/v1/media/\(episode)/stream?format=mp3&bitrate=32"
            let transcoded = try await server.request(.get, stream, token: admin)
            #expect(transcoded.status == .ok, "\(transcoded.text)")
            // A radio listener starts the programme, and a transcode still gets its slot meanwhile.
            async let listened = RadioTests.hear(port: server.port, mount: "evenings", bytes: 3 * 16_000)
            try await RadioFallbackTests.eventually("the fallback plays") {
                Self.fallbackProcesses(playing: library) == 1
            }
            #expect(try await server.request(.get, stream, token: admin).status == .ok)
            let heard = try await listened
            #expect(heard.status == 200 && heard.body.count >= 3 * 16_000)
            // Nobody listens any more: it rests again.
            try await RadioFallbackTests.eventually("the fallback rests") {
                Self.fallbackProcesses(playing: library) == 0
            }
        }
    }
}
