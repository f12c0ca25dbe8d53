import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// A station that plays by itself (issue 42): its AutoDJ on the air with no source, by the
/// playlists' weights and turns, yielding to a live source and back; playlists are admins'.
@Suite(.serialized) struct StationAutoDJTests {
    static let mp3 = ["-c:a", "libmp3lame", "-b:a", "64k"]

    /// A library of one-second tracks: an album of two loud ones, an album of one quiet one, and
    /// a station jingle.
    static func library() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("campus-autodj-\(UUID().uuidString)")
        let tracks: [(String, String, String, Int)] = [
            ("Rockers - Loud/01 Loud.mp3", "Loud", "Rockers", 440),
            ("Rockers - Loud/02 Louder.mp3", "Louder", "Rockers", 480),
            ("Singers - Quiet/01 Quiet.mp3", "Quiet", "Singers", 330),
            ("Campus FM - Jingles/01 Campus FM.mp3", "Campus FM", "Campus FM", 880),
        ]
        for (path, title, artist, frequency) in tracks {
            let album = String(path.split(separator: "/")[0].split(separator: "-")[1].dropFirst())
            try TestLibrary.tone(
                root.appendingPathComponent("Music/" + path), seconds: 1, frequency: frequency, codec: mp3,
                tags: ["title": title, "artist": artist, "album": album, "genre": "Test"])
        }
        return root
    }

    /// An admin scans `library`: the admin's token and the albums' ids by title.
    static func scan(_ library: URL, on server: TestServer) async throws -> (admin: String, albums: [String: Int64]) {
        try await server.register("admin@example.org")
        try await server.makeAdmin("admin@example.org")
        let admin = try await server.login("admin@example.org")
        let scan = try await server.request(
            .post, "/api/v1/library/scan", json: #"{"folder":"\#(library.path)"}"#, token: admin)
        #expect(scan.status == .ok, "\(scan.text)")
        let listed = try await server.request(.get, "/api/v1/collections/album", token: admin)
        let albums = try JSONSerialization.jsonObject(with: Data(listed.text.utf8)) as? [[String: Any]] ?? []
        var ids: [String: Int64] = [:]
        for album in albums {
            if let title = album["title"] as? String, let id = (album["id"] as? NSNumber)?.int64Value {
                ids[title] = id
            }
        }
        return (admin, ids)
    }

    static func playlist(_ name: String, _ rule: String, album: Int64?) -> String {
        #"{"name":"\#(name)",\#(rule),"sources":[{"kind":"parent","id":\#(album ?? 0)}]}"#
    }

    /// The station's history, oldest first.
    static func history(_ server: TestServer, mount: String) async throws -> [[String: Any]] {
        let answer = try await server.request(.get, "/api/v1/stations/\(mount)/history?limit=200")
        return ((answer.json["items"] as? [[String: Any]]) ?? []).reversed()
    }

    @Test func autoDJPlaysByWeightAndTurnAndYieldsToALiveSource() async throws {
        let library = try Self.library()
        defer { try? FileManager.default.removeItem(at: library) }
        try await TestServer.run { server in
            let (admin, albums) = try await Self.scan(library, on: server)
            let created = try await server.request(
                .post, "/api/v1/stations",
                json: #"{"name":"Campus FM","mount":"auto","sourcePassword":"\#(RadioTests.password)"}"#, token: admin)
            #expect(created.status == .created)
            #expect(try await server.request(.get, "/api/v1/stations/auto").json["onAir"] as? Bool == false)
            for body in [
                Self.playlist("Loud", #""kind":"rotation","weight":3"#, album: albums["Loud"]),
                Self.playlist("Quiet", #""kind":"rotation","weight":1"#, album: albums["Quiet"]),
                Self.playlist("Jingles", #""kind":"every","everySongs":4"#, album: albums["Jingles"]),
            ] {
                let added = try await server.request(.post, "/api/v1/stations/auto/playlists", json: body, token: admin)
                #expect(added.status == .created && added.json["tracks"] as? Int ?? 0 > 0, "\(added.text)")
            }
            // On the air by itself, with no source.
            try await RadioFallbackTests.eventually("AutoDJ is on the air") {
                let station = try await server.request(.get, "/api/v1/stations/auto")
                return station.json["onAir"] as? Bool == true && station.json["live"] as? Bool == false
            }
            // A listener hears it for 80 seconds, across a live source and back.
            async let heard = RadioFallbackTests.listen("http://127.0.0.1:\(server.port)/radio/auto", seconds: 80)
            var plays: [[String: Any]] = []
            for _ in 0..<600 where plays.count < 50 {
                try await Task.sleep(for: .milliseconds(200))
                plays = try await Self.history(server, mount: "auto")
            }
            let first = Array(plays.prefix(50))
            #expect(first.count == 50)
            #expect(first.allSatisfy { $0["source"] as? String == "autodj" })
            // The jingle comes after every four songs: ten in fifty.
            let pattern = first.map { ($0["title"] as? String) == "Campus FM - Campus FM" ? "J" : "s" }.joined()
            #expect(pattern == String(repeating: "ssssJ", count: 10), "\(pattern)")
            // The songs follow the weights 3 : 1: a binomial count of 40 at 3/4, within four
            // standard deviations of 30.
            let loud = first.filter { ($0["title"] as? String)?.hasPrefix("Rockers - ") == true }.count
            let tolerance = 4 * (40.0 * 0.75 * 0.25).squareRoot()
            #expect(abs(Double(loud) - 30) <= tolerance, "\(loud) of 40")
            // The repeat window keeps the two loud tracks taking turns.
            let louds = first.compactMap { $0["title"] as? String }.filter { $0.hasPrefix("Rockers - ") }
            #expect(zip(louds, louds.dropFirst()).allSatisfy { $0 != $1 }, "\(louds)")

            // A live source takes over within two seconds, and AutoDJ comes back when it leaves.
            let started = ContinuousClock.now
            let source = try RadioTests.source(port: server.port, mount: "auto", seconds: 4)
            try await RadioFallbackTests.eventually("the source is on the air") {
                try await server.request(.get, "/api/v1/stations/auto").json["live"] as? Bool == true
            }
            let takeover = ContinuousClock.now - started
            #expect(takeover < .seconds(2), "\(takeover)")
            try await RadioTests.waitOnAir(server, mount: "auto", title: "Live from the studio")
            #expect(await RadioTests.finished(source).status == 0)
            try await RadioFallbackTests.eventually("AutoDJ is back") {
                let history = try await Self.history(server, mount: "auto")
                guard let live = history.lastIndex(where: { $0["source"] as? String == "live" }) else { return false }
                let station = try await server.request(.get, "/api/v1/stations/auto")
                return history[(live + 1)...].contains { $0["source"] as? String == "autodj" }
                    && station.json["live"] as? Bool == false && station.json["onAir"] as? Bool == true
            }
            #expect(try await heard >= 75)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func onlyAdminsManagePlaylistsAndBadOnesAreRefused(_ kind: Database.Kind) async throws {
        let library = try Self.library()
        defer { try? FileManager.default.removeItem(at: library) }
        try await TestServer.run(kind) { server in
            let (admin, albums) = try await Self.scan(library, on: server)
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            _ = try await server.request(
                .post, "/api/v1/stations",
                json: #"{"name":"Campus FM","mount":"auto","sourcePassword":"\#(RadioTests.password)"}"#, token: admin)
            let body = Self.playlist("Quiet", #""kind":"rotation","weight":2"#, album: albums["Quiet"])
            let path = "/api/v1/stations/auto/playlists"
            // Who may: nobody signed out, no student, an admin.
            #expect(try await server.request(.get, path).status == .unauthorized)
            #expect(try await server.request(.get, path, token: ann).status == .forbidden)
            #expect(try await server.request(.post, path, json: body).status == .unauthorized)
            #expect(try await server.request(.post, path, json: body, token: ann).status == .forbidden)
            let added = try await server.request(.post, path, json: body, token: admin)
            #expect(added.status == .created && added.json["tracks"] as? Int == 1, "\(added.text)")
            let id = (added.json["id"] as? NSNumber)?.int64Value ?? 0
            for method in [HTTPRequest.Method.put, .delete] {
                let json = method == .put ? body : nil
                #expect(try await server.request(method, "\(path)/\(id)", json: json, token: ann).status == .forbidden)
                #expect(try await server.request(method, "\(path)/\(id)", json: json).status == .unauthorized)
            }
            // Bad playlists: each refused with the field that is wrong.
            let bad: [(String, String)] = [
                (Self.playlist("Nothing", #""kind":"rotation""#, album: 999_999), "sources"),
                (Self.playlist("Heavy", #""kind":"rotation","weight":1000"#, album: albums["Quiet"]), "weight"),
                (
                    Self.playlist(
                        "Never", #""kind":"block","weekdays":[],"from":"08:00","to":"10:00""#, album: albums["Quiet"]),
                    "weekdays"
                ),
                (
                    Self.playlist("Instant", #""kind":"block","from":"08:00","to":"08:00""#, album: albums["Quiet"]),
                    "to"
                ),
                (
                    Self.playlist("Sometime", #""kind":"block","from":"25:00","to":"08:00""#, album: albums["Quiet"]),
                    "from"
                ),
                (#"{"name":"Empty","kind":"rotation","sources":[]}"#, "sources"),
            ]
            for (json, field) in bad {
                let refused = try await server.request(.post, path, json: json, token: admin)
                #expect(
                    refused.status == .unprocessableContent || refused.status == .badRequest, "\(json): \(refused.text)"
                )
                #expect(refused.text.contains(field), "\(json): \(refused.text)")
            }
            // A block playlist reads back as it was written.
            let night = Self.playlist(
                "Night", #""kind":"block","weekdays":[5,6],"from":"23:00","to":"02:00","weight":4"#,
                album: albums["Loud"])
            let changed = try await server.request(.put, "\(path)/\(id)", json: night, token: admin)
            #expect(changed.status == .ok, "\(changed.text)")
            let listed = try await server.request(.get, path, token: admin)
            let item = (listed.json["items"] as? [[String: Any]])?.first ?? [:]
            #expect(item["kind"] as? String == "block" && item["from"] as? String == "23:00")
            #expect(
                item["to"] as? String == "02:00" && item["weekdays"] as? [Int] == [5, 6] && item["tracks"] as? Int == 2)
            #expect(try await server.request(.put, "\(path)/999", json: night, token: admin).status == .notFound)
            // The station went on the air with its first playlist; without any, it goes off.
            try await RadioFallbackTests.eventually("on the air") {
                try await server.request(.get, "/api/v1/stations/auto").json["onAir"] as? Bool == true
            }
            #expect(try await server.request(.delete, "\(path)/\(id)", token: admin).status == .noContent)
            try await RadioFallbackTests.eventually("off the air") {
                try await server.request(.get, "/api/v1/stations/auto").json["onAir"] as? Bool == false
            }
            // The history is public.
            #expect(try await server.request(.get, "/api/v1/stations/auto/history").status == .ok)
            #expect(try await server.request(.get, "/api/v1/stations/nowhere/history").status == .notFound)
        }
    }

    @Test func adminsKeepPlaylistsOnTheStationPageAndListenersSeeWhatPlayed() async throws {
        let library = try Self.library()
        defer { try? FileManager.default.removeItem(at: library) }
        try await TestServer.run { server in
            let (admin, albums) = try await Self.scan(library, on: server)
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            _ = try await server.request(
                .post, "/api/v1/stations",
                json: #"{"name":"Campus FM","mount":"auto","sourcePassword":"\#(RadioTests.password)"}"#, token: admin)
            var visit = WebVisit(server, token: admin, language: "ru")
            let page = try await visit.get("/listen/radio/auto")
            #expect(page.text.contains("id=\"add-playlist\"") && page.text.contains("id=\"autodj-empty\""))
            let quiet = "parent:\(albums["Quiet"] ?? 0)"
            // A block without days comes back with its error, the fields as they were sent.
            let refused = try await visit.post(
                "/listen/radio/auto/playlists",
                [("name", "Утро"), ("source", quiet), ("kind", "block"), ("from", "08:00"), ("to", "10:00")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("field-error") && refused.text.contains("value=\"Утро\""), "\(refused.text)")
            let added = try await visit.post(
                "/listen/radio/auto/playlists",
                [
                    ("name", "Утро"), ("source", quiet), ("kind", "block"), ("days[]", "1"), ("days[]", "5"),
                    ("from", "08:00"), ("to", "10:00"),
                ])
            #expect(added.status == .seeOther, "\(added.text)")
            let listed = try await visit.get("/listen/radio/auto")
            #expect(listed.text.contains("Утро") && listed.text.contains("08:00–10:00"), "\(listed.text)")
            // A listener: no playlists, but what played (AutoDJ plays once somebody listens).
            async let heard = RadioFallbackTests.listen("http://127.0.0.1:\(server.port)/radio/auto", seconds: 3)
            _ = try await heard
            var listener = WebVisit(server, token: ann, language: "bg")
            let seen = try await listener.get("/listen/radio/auto")
            #expect(!seen.text.contains("id=\"add-playlist\""))
            #expect(
                seen.text.contains("id=\"station-history\"") && seen.text.contains("Singers - Quiet"), "\(seen.text)")
            #expect(try await listener.post("/listen/radio/auto/playlists", [("name", "x")]).status == .forbidden)
        }
    }

    @Test func aListenersRequestPlaysNextWithinTheLimits() async throws {
        let library = try Self.library()
        defer { try? FileManager.default.removeItem(at: library) }
        try await TestServer.run { server in
            let (admin, albums) = try await Self.scan(library, on: server)
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            _ = try await server.request(
                .post, "/api/v1/stations",
                json: #"{"name":"Campus FM","mount":"auto","sourcePassword":"\#(RadioTests.password)"}"#, token: admin)
            for body in [
                Self.playlist("Loud", #""kind":"rotation","weight":100"#, album: albums["Loud"]),
                Self.playlist("Quiet", #""kind":"rotation","weight":1"#, album: albums["Quiet"]),
                Self.playlist("Jingles", #""kind":"every","everySongs":50"#, album: albums["Jingles"]),
            ] {
                _ = try await server.request(.post, "/api/v1/stations/auto/playlists", json: body, token: admin)
            }
            // The request list: the rotation's tracks, not the jingles.
            let listed = try await server.request(.get, "/api/v1/stations/auto/requestable")
            let tracks = (listed.json["items"] as? [[String: Any]] ?? []).reduce(into: [String: Int64]()) {
                $0[$1["title"] as? String ?? ""] = ($1["mediaId"] as? NSNumber)?.int64Value
            }
            #expect(
                tracks.keys.sorted() == ["Rockers - Loud", "Rockers - Louder", "Singers - Quiet"], "\(listed.text)")
            let path = "/api/v1/stations/auto/requests"
            func request(_ id: Int64?, token: String? = ann) async throws -> TestResponse {
                try await server.request(.post, path, json: #"{"mediaId":\#(id ?? 0)}"#, token: token)
            }
            #expect(try await request(tracks["Singers - Quiet"], token: nil).status == .unauthorized)
            let first = try await request(tracks["Singers - Quiet"])
            #expect(first.status == .created && first.json["position"] as? Int == 1, "\(first.status) \(first.text)")
            #expect(try await request(tracks["Singers - Quiet"]).status == .conflict)
            #expect(try await request(999_999).status == .unprocessableContent)
            #expect(try await request(tracks["Rockers - Loud"]).status == .created)
            #expect(try await request(tracks["Rockers - Louder"]).status == .created)
            let over = try await request(tracks["Singers - Quiet"])
            #expect(over.status == .tooManyRequests || over.status == .conflict, "\(over.text)")
            let waiting = try await server.request(.get, path)
            #expect(((waiting.json["items"] as? [[String: Any]])?.first?["title"] as? String) == "Singers - Quiet")
            // The quiet track, one in a hundred by weight, plays next (after the track AutoDJ had
            // chosen before the request came): it was requested.
            async let heard = RadioFallbackTests.listen("http://127.0.0.1:\(server.port)/radio/auto", seconds: 4)
            _ = try await heard
            let history = try await Self.history(server, mount: "auto").prefix(2)
            let requested = history.first { $0["source"] as? String == "request" }
            #expect(requested?["title"] as? String == "Singers - Quiet", "\(history)")
            // The page: the request form for a listener.
            var visit = WebVisit(server, token: ann, language: "ru")
            let page = try await visit.get("/listen/radio/auto")
            #expect(page.text.contains("id=\"request-track\"") && page.text.contains("Rockers - Louder"))
            let again = try await visit.post(
                "/listen/radio/auto/requests", [("media", String(tracks["Rockers - Loud"] ?? 0))])
            #expect(again.status == .tooManyRequests && again.text.contains("id=\"request-error\""), "\(again.status)")
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func oneInstancePlaysAutoDJAndTheOthersRelayIt(_ kind: Database.Kind) async throws {
        let library = try Self.library()
        defer { try? FileManager.default.removeItem(at: library) }
        try await TestServer.run(kind) { first in
            let (admin, albums) = try await Self.scan(library, on: first)
            _ = try await first.request(
                .post, "/api/v1/stations",
                json: #"{"name":"Campus FM","mount":"auto","sourcePassword":"\#(RadioTests.password)"}"#, token: admin)
            _ = try await first.request(
                .post, "/api/v1/stations/auto/playlists",
                json: Self.playlist("Loud", #""kind":"rotation","weight":1"#, album: albums["Loud"]), token: admin)
            try await RadioFallbackTests.eventually("AutoDJ is on the air") {
                try await first.request(.get, "/api/v1/stations/auto").json["onAir"] as? Bool == true
            }
            // A second instance starts: the station is on the air already, so it relays it.
            try await TestServer.run(location: first.databaseLocation) { second in
                let heard = try await RadioFallbackTests.listen(
                    "http://127.0.0.1:\(second.port)/radio/auto", seconds: 3)
                #expect(heard > 2, "\(heard)")
                let basic = Data("source:\(RadioTests.password)".utf8).base64EncodedString()
                let clients = try await first.request(
                    .get, "/admin/listclients?mount=/radio/auto", headers: [.authorization: "Basic \(basic)"])
                #expect(clients.text.contains("<UserAgent>Campus radio relay</UserAgent>"), "\(clients.text)")
                let own = try await second.request(
                    .get, "/admin/listclients?mount=/radio/auto", headers: [.authorization: "Basic \(basic)"])
                #expect(!own.text.contains("Campus radio relay"), "\(own.text)")
            }
        }
    }
}
