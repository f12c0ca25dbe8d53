import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@testable import CampusServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A station's image (admins upload it, anyone sees it) and listening kept in the listener's
/// history as a radio event.
@Suite(.serialized) struct RadioListenerTests {
    static func png() throws -> Data {
        try TestLibrary.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1",
                "-c:v", "png", "-f", "image2", "pipe:1",
            ])
    }

    @Test(arguments: TestDatabases.kinds)
    func onlyAdminsChangeAStationsImageAndAnyoneSeesIt(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            try await server.addStation(mount: "campus", password: RadioTests.password)
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            try await server.register("ann@example.org")
            let admin = try await server.login("admin@example.org")
            let ann = try await server.login("ann@example.org")
            let png = try Self.png()
            func put(_ data: Data, as type: String, token: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.contentType: type]
                if let token { headers[.authorization] = "Bearer \(token)" }
                return try await server.http.execute(
                    uri: "/api/v1/stations/campus/image", method: .put, headers: headers, body: ByteBuffer(data: png))
            }
            #expect(try await put(png, as: "image/png", token: nil).status == .unauthorized)
            #expect(try await put(png, as: "image/png", token: ann).status == .forbidden)
            #expect(try await server.request(.get, "/api/v1/stations/campus/image").status == .notFound)
            let saved = try await put(png, as: "image/png", token: admin)
            #expect(saved.status == .ok, "\(saved.text)")
            let url = try #require(saved.json["imageUrl"] as? String)
            let path = try #require(URLComponents(string: url)).percentEncodedPath
            // Anyone sees it (players show it without an account), with its type and a version.
            let image = try await server.request(.get, path)
            #expect(image.status == .ok && image.headers[.contentType] == "image/png")
            #expect(Data(buffer: image.body) == png && image.headers[.eTag] != nil)
            #expect(try await server.request(.get, "/api/v1/stations/campus").json["imageUrl"] as? String == url)
            // Bytes that are no image, or another type than they say: 422.
            let text = try await server.http.execute(
                uri: "/api/v1/stations/campus/image", method: .put,
                headers: [.contentType: "image/jpeg", .authorization: "Bearer \(admin)"], body: ByteBuffer(data: png))
            #expect(text.status == .unprocessableContent)
            #expect(
                try await server.request(.delete, "/api/v1/stations/campus/image", token: ann).status == .forbidden)
            #expect(
                try await server.request(.delete, "/api/v1/stations/campus/image", token: admin).status == .noContent)
            #expect(try await server.request(.get, path).status == .notFound)
            #expect(try await server.request(.get, "/api/v1/stations/campus").json["imageUrl"] == nil)
        }
    }

    @Test func listeningToAStationIsARadioEventOfTheHistory() async throws {
        try await TestServer.run { server in
            try await server.addStation(mount: "campus", password: RadioTests.password)
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            let source = try RadioTests.source(port: server.port, mount: "campus", seconds: 4)
            try await RadioTests.waitOnAir(server, mount: "campus", title: "News")
            // Ann listens with her token until the broadcast ends; a player without an account
            // listens too, and leaves no trace.
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/radio/campus"))
            async let anonymous = URLSession.shared.data(from: url)
            let heard = try await server.request(.get, "/radio/campus", token: ann)
            #expect(heard.status == .ok && heard.body.readableBytes > 16_000)
            _ = try await anonymous
            _ = await RadioTests.finished(source)
            var entries: [[String: Any]] = []
            try await RadioFallbackTests.eventually("the radio event has its length") {
                let history = try await server.request(.get, "/api/v1/history", token: ann)
                entries = (try? JSONSerialization.jsonObject(with: Data(history.text.utf8)) as? [[String: Any]]) ?? []
                return (entries.first?["seconds"] as? Int ?? 0) >= 2
            }
            #expect(entries.count == 1)
            let event = try #require(entries.first)
            #expect(event["kind"] as? String == "radio" && event["media"] == nil)
            let station = event["station"] as? [String: Any]
            #expect(station?["name"] as? String == "Campus FM" && station?["mount"] as? String == "campus")
        }
    }

    @Test func stationsAreFoundAndHaveABlockOfTheHomeFeed() async throws {
        try await TestServer.run { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            for (name, mount, region) in [("Радио Кампус", "kampus", "Минск"), ("Bulgarian Waves", "waves", "София")] {
                let body =
                    #"{"name":"\#(name)","mount":"\#(mount)","genre":"Pop","region":"\#(region)","sourcePassword":"on-air-2026"}"#
                #expect(
                    try await server.request(.post, "/api/v1/stations", json: body, token: admin).status == .created)
            }
            // Found in any letter case of any alphabet, first among the hits, to play live.
            let found = try await server.request(
                .get, "/api/v1/search?q=%D0%BA%D0%B0%D0%BC%D0%BF%D1%83%D1%81", token: admin)
            let hits = found.json["items"] as? [[String: Any]] ?? []
            #expect(hits.count == 1 && hits.first?["kind"] as? String == "station", "\(found.status) \(found.text)")
            #expect(
                hits.first?["url"] as? String == "/listen/radio/kampus"
                    && hits.first?["ref"] as? String == "station:kampus")
            // Quotes alone look for nothing (not every station).
            let quotes = try await server.request(.get, "/api/v1/search?q=%22%20%22", token: admin)
            #expect((quotes.json["items"] as? [Any])?.isEmpty == true, "\(quotes.status) \(quotes.text)")
            let cookie: HTTPFields = [.cookie: "campus_session=\(admin)"]
            let page = try await server.request(.get, "/listen/search?q=WAVES", headers: cookie)
            #expect(page.text.contains(#"data-play-station="waves""#))

            // The home feed's stations: every station, or the listener's radio region's.
            func stationsBlock() async throws -> [String] {
                let feed = try await server.request(.get, "/api/v1/feed", token: admin)
                let blocks = feed.json["blocks"] as? [[String: Any]] ?? []
                let block = blocks.first { $0["type"] as? String == "stations" }
                return (block?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            #expect(try await stationsBlock() == ["waves", "kampus"])
            let settings = try await server.request(
                .put, "/api/v1/me/listen-settings",
                json: #"{"soundQuality":"original","endlessQueue":false,"skipExplicit":false,"radioRegion":"София"}"#,
                token: admin)
            #expect(settings.status == .ok, "\(settings.text)")
            #expect(try await stationsBlock() == ["waves"])
            let home = try await server.request(.get, "/listen", headers: cookie)
            #expect(
                home.text.contains(#"data-play-station="waves""#) && !home.text.contains(#"data-play-station="kampus""#)
            )
        }
    }

    @Test func removingAStationOnTheAirLetsItsSourceGoAndEndsItsListeners() async throws {
        try await TestServer.run { server in
            try await server.addStation(mount: "campus", password: RadioTests.password)
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            let source = try RadioTests.source(port: server.port, mount: "campus", seconds: 30)
            try await RadioTests.waitOnAir(server, mount: "campus", title: "News")
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/radio/campus"))
            async let listened = URLSession.shared.data(from: url)
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await server.request(.delete, "/api/v1/stations/campus", token: admin).status == .noContent)
            // The listener's stream ends, and the source is let go long before its 30 seconds.
            let started = ContinuousClock.now
            let (heard, _) = try await listened
            #expect(heard.count > 0)
            let ended = await RadioTests.finished(source)
            #expect(ContinuousClock.now - started < .seconds(15), "\(ended.error)")
            #expect(try await server.request(.get, "/radio/campus").status == .notFound)
        }
    }

    @Test func aServerThatStopsEndsItsListenersStreams() async throws {
        let started = ContinuousClock.now
        let (listening, source) = try await TestServer.run { server in
            try await server.addStation(mount: "campus", password: RadioTests.password)
            let source = try RadioTests.source(port: server.port, mount: "campus", seconds: 60)
            try await RadioTests.waitOnAir(server, mount: "campus", title: "News")
            // ffmpeg as the listener: it stops when the stream ends, with what it heard.
            let url = "http://127.0.0.1:\(server.port)/radio/campus"
            let listening = Task { try await RadioFallbackTests.listen(url, seconds: 60) }
            try await Task.sleep(for: .seconds(3))
            return (listening, source)
        }
        // The server stopped (it did not wait for the minute-long broadcast), and the listener's
        // stream ended with what it heard.
        #expect(ContinuousClock.now - started < .seconds(30))
        let heard = await listening.result
        #expect((try? heard.get()) ?? 0 > 0, "\(heard)")
        kill(source.processIdentifier, SIGKILL)
        _ = await RadioTests.finished(source)
    }
}
