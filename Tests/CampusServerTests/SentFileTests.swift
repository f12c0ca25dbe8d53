import CampusTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CampusHTTP
@testable import CampusServer

#if canImport(Glibc)
    import Glibc
#endif

extension ListenServerSuites {
    /// A range up to a chunk (1 MiB) whose bytes the page cache holds is sent by the kernel
    /// (`sendfile`, a file region below the HTTP codec), answered at once; a larger one, or the
    /// whole file, is the router's, a chunk at a time. Either way its bytes are the file's, for
    /// every form of `Range`.
    @Suite struct SentFileTests {
        /// `campus_sent_files` from `/metrics`.
        static func sentFiles(_ server: TestServer) async throws -> Int {
            let metrics = try await server.request(.get, "/metrics").text
            return metrics.split(separator: "\n").first { $0.hasPrefix("campus_sent_files ") }
                .flatMap { $0.split(separator: " ").last.flatMap { Int($0) } } ?? 0
        }

        @Test func rangesAndWholeFilesAreTheFilesBytes() async throws {
            try await TestServer.run { server in
                try await server.register("admin@example.org")
                try await server.makeAdmin("admin@example.org")
                let admin = try await server.login("admin@example.org")
                let root = FileManager.default.temporaryDirectory.appendingPathComponent("campus-sent-\(UUID())")
                defer { try? FileManager.default.removeItem(at: root) }
                // 3 MB: whole, or from a byte on, more than a chunk.
                let file = root.appendingPathComponent("Long/long.mp3")
                try TestLibrary.tone(
                    file, seconds: 95, frequency: 330, codec: ["-c:a", "libmp3lame", "-b:a", "256k"],
                    tags: ["title": "Long", "album": "Long"])
                let bytes = try Data(contentsOf: file)
                #expect(bytes.count > 2_900_000)
                let scan = try await server.request(
                    .post, "/api/v1/library/scan", json: #"{"folder":"\#(root.path)"}"#, token: admin)
                #expect(scan.status == .ok, "\(scan.text)")
                let id = try await server.find("Long", kind: "track", token: admin)
                let stream = "/api/v1/media/\(id)/stream"
                let size = bytes.count
                let forms: [(range: String?, bytes: Range<Int>, status: HTTPResponse.Status)] = [
                    (nil, 0..<size, .ok),
                    ("bytes=0-0", 0..<1, .partialContent),
                    ("bytes=0-65535", 0..<65536, .partialContent),
                    ("bytes=4095-4096", 4095..<4097, .partialContent),
                    ("bytes=1000000-", 1_000_000..<size, .partialContent),
                    ("bytes=-500", (size - 500)..<size, .partialContent),
                    ("bytes=-99999999", 0..<size, .partialContent),
                    ("bytes=123456-99999999", 123_456..<size, .partialContent),
                    ("bytes=\(size - 1)-", (size - 1)..<size, .partialContent),
                ]
                // The first request is the router's, which writes the path down for the early answers.
                #expect(
                    try await server.request(.get, stream, token: admin, headers: [.range: "bytes=0-1"]).status
                        == .partialContent)
                let before = try await Self.sentFiles(server)
                for form in forms {
                    let headers: HTTPFields = form.range.map { [.range: $0] } ?? [:]
                    let answer = try await server.request(.get, stream, token: admin, headers: headers)
                    #expect(answer.status == form.status, "\(form.range ?? "whole")")
                    #expect(Data(buffer: answer.body) == bytes[form.bytes], "\(form.range ?? "whole")")
                    #expect(answer.headers[.contentLength] == String(form.bytes.count))
                    if form.status == .partialContent {
                        #expect(
                            answer.headers[.contentRange]
                                == "bytes \(form.bytes.lowerBound)-\(form.bytes.upperBound - 1)/\(size)")
                    }
                }
                // A stale If-Range asks for the whole file, as it is now.
                let stale = try await server.request(
                    .get, stream, token: admin, headers: [.range: "bytes=0-9", .ifRange: "\"m1-old\""])
                #expect(stale.status == .ok && Data(buffer: stale.body) == bytes)
                let small = forms.filter { $0.bytes.count <= MediaStreamFastPath.chunkLength }.count
                #expect(small == 5)
                #expect(try await Self.sentFiles(server) == before + small)

                // Bytes the page cache does not hold are not sent from the event loop (sendfile
                // would wait for the disk there): they are read on the thread pool, alike.
                let descriptor = open(file.path, O_RDONLY)
                #expect(descriptor >= 0)
                fsync(descriptor)
                #expect(posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0)
                close(descriptor)
                let sent = try await Self.sentFiles(server)
                let cold = try await server.request(
                    .get, stream, token: admin, headers: [.range: "bytes=2000000-2065535"])
                #expect(cold.status == .partialContent && Data(buffer: cold.body) == bytes[2_000_000..<2_065_536])
                #expect(try await Self.sentFiles(server) == sent)
            }
        }
    }
}
