import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import CampusHTTP

/// Which requests take gzip and which answers are compressed (issue 36, item 3); the answers
/// themselves are checked end to end (Tests/e2e/test_compression.py).
@Suite struct ResponseCompressionTests {
    static func accepts(_ value: String) -> Bool {
        ResponseCompression.acceptsGzip([.acceptEncoding: value])
    }

    @Test func gzipIsTakenOnlyWhenAcceptedWithAWeight() {
        for taken in [
            "gzip", "GZIP", "x-gzip", "gzip, deflate, br", "br;q=1, gzip;q=0.5", "*", "*;q=0.1", "gzip ; q=1",
        ] {
            #expect(Self.accepts(taken), "\(taken)")
        }
        for refused in [
            "", "identity", "br", "deflate", "gzip;q=0", "gzip;q=0.000", "*;q=0", "gzip;q=0, *", "br, *;q=0",
        ] {
            #expect(!Self.accepts(refused), "\(refused)")
        }
        #expect(!ResponseCompression.acceptsGzip([:]))
        // Two Accept-Encoding fields count as one list.
        var fields = HTTPFields()
        fields.append(HTTPField(name: .acceptEncoding, value: "br"))
        fields.append(HTTPField(name: .acceptEncoding, value: "gzip"))
        #expect(ResponseCompression.acceptsGzip(fields))
    }

    @Test func whatBrowsersReadIsCompressedAndMediaNever() {
        for type in [
            "text/html; charset=utf-8", "text/css", "text/javascript; charset=utf-8", "application/json",
            "application/problem+json", "text/calendar; charset=utf-8", "application/rss+xml", "image/svg+xml",
            "application/xml", "application/gpx+xml", "application/manifest+json", "TEXT/PLAIN",
            " application/json ;charset=utf-8", "\tText/Calendar", "application/json;",
        ] {
            #expect(ResponseCompression.isCompressible(contentType: type), "\(type)")
        }
        for type in [
            "audio/mpeg", "audio/mp4", "audio/ogg", "video/mp4", "image/png", "image/jpeg", "image/webp",
            "application/octet-stream", "text/event-stream", "application/zip", "", " ; charset=utf-8",
            "Text/Event-Stream", "application/jsonx", "текст/html",
        ] {
            #expect(!ResponseCompression.isCompressible(contentType: type), "\(type)")
        }
        #expect(!ResponseCompression.isCompressible(contentType: nil))
    }

    /// Bodies compressed once are kept by their tag, but given only for the bytes they were made
    /// of: a version tag two users' answers share never gives one the other's.
    @Test func aKeptBodyIsGivenOnlyForItsOwnBytes() async throws {
        func answer(_ text: String) -> Response {
            Response(
                status: .ok, headers: [.contentType: "application/json", .eTag: "\"v1\""],
                body: ResponseBody(byteBuffer: ByteBuffer(string: String(repeating: text, count: 200))))
        }
        func bytes(_ response: Response) async throws -> ByteBuffer {
            try await BodyCollector.collect(response.body)
        }
        let memo = CompressedBodies()
        let ann = try await ResponseCompression.compress(answer("ann's feed "), gzip: true, memo: memo)
        let ben = try await ResponseCompression.compress(answer("ben's feed "), gzip: true, memo: memo)
        let benAlone = try await ResponseCompression.compress(
            answer("ben's feed "), gzip: true, memo: CompressedBodies())
        #expect(ann.headers[.contentEncoding] == "gzip" && ann.headers[.eTag] == "\"v1-gzip\"")
        #expect(try await bytes(ben) != bytes(ann))
        #expect(try await bytes(ben) == bytes(benAlone))
    }
}
