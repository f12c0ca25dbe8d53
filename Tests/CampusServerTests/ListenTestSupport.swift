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
            throw ExternalTool.Failed(
                detail: "{program} failed: {reason}", ["program": command, "reason": arguments.joined(separator: " ")])
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
            tags: [
                "title": "Third", "artist": "Orchestra", "album": "Suite", "tracknumber": "3", "genre": "Classical",
                "explicit": "1",
            ])
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

    /// The ids of an album's tracks, in album order.
    func tracks(ofAlbum albumID: Int64, token: String) async throws -> [Int64] {
        let album = try await request(.get, "/api/v1/albums/\(albumID)", token: token)
        return (album.json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
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
