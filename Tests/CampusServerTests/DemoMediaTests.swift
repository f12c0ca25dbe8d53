import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing

@testable import CampusServer

extension ListenServerSuites {
    /// Issue 35: a plain `campus serve --demo` started with an empty library and no station. The
    /// demo carries its media, made with ffmpeg in its data directory, and a station that plays
    /// its programme from the start; a second start keeps both.
    @Suite(.serialized) struct DemoMediaTests {
        @Test func theDemoCarriesItsMediaAndAStationOnTheAir() async throws {
            let data = FileManager.default.temporaryDirectory
                .appendingPathComponent("campus-demo-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            let (location, cleanup) = try await TestDatabases.location(.sqlite)
            defer { Task { await cleanup() } }
            let configure: (inout ServerConfiguration) -> Void = {
                $0.demo = true
                $0.demoMedia = true
                $0.language = "en"
                $0.dataDirectory = data.path
            }
            for start in 1...2 {
                try await TestServer.run(location: location, configure: configure) { server in
                    #expect(!DemoMedia.lacks(mediaDirectory: data.path).contains(.ffmpeg))
                    let made = data.appendingPathComponent("demo-media/.complete").path
                    #expect(FileManager.default.fileExists(atPath: made))
                    let student = try await server.login("student@campus.test", password: "campus-student")
                    // Two albums, a podcast, an audiobook and the lectures.
                    for (kind, count) in [("album", 2), ("podcast", 1), ("audiobook", 1), ("programme", 1)] {
                        let listed = server.jsonArray(
                            try await server.request(.get, "/api/v1/collections/\(kind)", token: student))
                        #expect(listed.count == count, "start \(start): \(kind)")
                    }
                    // The station is on the air with its programme, before any source connects.
                    var station: [String: Any] = [:]
                    try await RadioFallbackTests.eventually("the demo station is on the air") {
                        station = try await server.request(.get, "/api/v1/stations/\(DemoMedia.mount)").json
                        return station["onAir"] as? Bool == true
                    }
                    #expect(station["name"] as? String == "Campus Radio")
                    #expect(station["live"] as? Bool == false, "the programme plays, not a source")
                    let heard = try await RadioFallbackTests.listen(
                        "http://127.0.0.1:\(server.port)/radio/\(DemoMedia.mount)", seconds: 2)
                    #expect(heard > 1, "start \(start): \(heard) s heard")
                    let stations = try await server.request(.get, "/api/v1/stations", token: student)
                    #expect((stations.json["items"] as? [[String: Any]])?.count == 1, "one station, made once")
                }
            }
        }
    }
}
