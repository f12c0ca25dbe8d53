import CampusTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import CampusServer

/// HLS beside the Icecast stream (issue 42): AAC segments ffprobe reads, a rolling playlist with
/// the right cache headers, a late listener at the live edge.
@Suite struct RadioHLSTests {
    /// The segment numbers a playlist lists.
    static func segments(_ playlist: String) -> [Int] {
        playlist.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("live-"), line.hasSuffix(".ts") else { return nil }
            return Int(line.dropFirst(5).dropLast(3))
        }
    }

    @Test func aStationIsServedAsHLSAtTheLiveEdge() async throws {
        try await TestServer.run { server in
            try await server.addStation(mount: "campus.mp3", password: RadioTests.password)
            let source = try RadioTests.source(port: server.port, mount: "campus.mp3", seconds: 120)
            defer { if source.isRunning { kill(source.processIdentifier, SIGKILL) } }
            try await RadioTests.waitOnAir(server, mount: "campus.mp3", title: "Live")
            #expect(try await server.request(.get, "/radio/nowhere/live.m3u8").status == .notFound)
            let first = try await server.request(.get, "/radio/campus.mp3/live.m3u8")
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.headers[.contentType] == "application/vnd.apple.mpegurl")
            #expect(first.headers[.cacheControl]?.contains("no-cache") == true)
            #expect(first.text.hasPrefix("#EXTM3U") && !first.text.contains("#EXT-X-ENDLIST"), "\(first.text)")
            let early = Self.segments(first.text)
            #expect(!early.isEmpty)
            // A segment: cached, and AAC that ffprobe reads, about four seconds long.
            let segment = try await server.request(.get, "/radio/campus.mp3/live-\(early[0]).ts")
            #expect(segment.status == .ok && segment.headers[.cacheControl]?.contains("immutable") == true)
            #expect(try await server.request(.get, "/radio/campus.mp3/live-x.ts").status == .notFound)
            #expect(try await server.request(.get, "/radio/campus.mp3/..%2Fsecret").status == .notFound)
            let probe = try TestLibrary.run(
                "ffprobe",
                [
                    "-v", "error", "-show_entries", "stream=codec_name:format=duration", "-of", "csv=p=0",
                    "http://127.0.0.1:\(server.port)/radio/campus.mp3/live.m3u8",
                ])
            let probed = String(decoding: probe, as: UTF8.self)
            #expect(probed.contains("aac"), "\(probed)")
            // Twelve seconds later the playlist has moved on: a listener who joins now starts at
            // newer segments, and the playlist stays within its length.
            try await Task.sleep(for: .seconds(12))
            let later = Self.segments(try await server.request(.get, "/radio/campus.mp3/live.m3u8").text)
            #expect((later.last ?? 0) > (early.last ?? 0), "\(early) → \(later)")
            #expect(later.count <= RadioHLS.playlistSize)
            // A late listener reading the live playlist hears audio: three seconds that ffmpeg
            // decodes from it.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("hls-\(UUID()).wav")
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try TestLibrary.run(
                "ffmpeg",
                [
                    "-v", "error", "-i", "http://127.0.0.1:\(server.port)/radio/campus.mp3/live.m3u8", "-t", "3", "-y",
                    file.path,
                ])
            let heard = try RadioFallbackTests.duration(file.path)
            #expect(abs(heard - 3) < 0.2, "\(heard)")
        }
    }
}
