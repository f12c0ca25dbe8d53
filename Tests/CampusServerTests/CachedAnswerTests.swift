import CampusTestSupport
import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CampusHTTP
@testable import CampusServer

extension TimetableServerSuites {
    /// A kept answer asked for again is answered at once, on the connection's event loop
    /// (``CachedAnswer``), with what the router and the compression sent the first time: status,
    /// headers and bytes, plain or gzip, and 304 for a client that has it in either form.
    @Suite struct CachedAnswerTests {
        @Test func aKeptAnswerIsAnsweredAtOnceAlike() async throws {
            try await TestServer.run { server in
                try await server.importFixtures(["151004.json"])
                let path = "/api/v1/groups/151004/schedule"
                let route = "cached"
                let immediate = "campus_immediate_answers"
                let before = try await EarlyAnswerChecks.counted(route, on: server, metric: immediate)
                let asks: [(query: String, headers: HTTPFields)] = [
                    ("from=2023-09-25&to=2023-10-01", [:]),
                    ("from=2023-10-02&to=2023-10-08", [.acceptEncoding: "gzip, deflate, br"]),
                    ("from=2023-10-09&to=2023-10-15", [.acceptEncoding: "gzip;q=0, identity"]),
                    ("from=2023-10-16&to=2023-10-22&subgroup=1", [.acceptEncoding: "*"]),
                ]
                for ask in asks {
                    let uri = "\(path)?\(ask.query)"
                    // The first goes through the router (and is kept), the second is answered at once.
                    let routed = try await server.request(.get, uri, headers: ask.headers)
                    let again = try await server.request(.get, uri, headers: ask.headers)
                    #expect(routed.status == .ok && again.status == .ok)
                    #expect(EarlyAnswerChecks.fields(again) == EarlyAnswerChecks.fields(routed), "\(ask.headers)")
                    #expect(Data(buffer: again.body) == Data(buffer: routed.body))
                    let gzip = ask.headers[.acceptEncoding].map { $0.hasPrefix("gzip,") || $0 == "*" } ?? false
                    #expect((again.headers[.contentEncoding] == "gzip") == gzip)
                    #expect(again.headers[.vary] == "Accept-Encoding")
                    if gzip {
                        var body = again.body
                        let plain = try await server.request(.get, uri)
                        #expect(try body.decompress(with: .gzip()) == plain.body)
                    }
                    // A client that has the answer, in the form it was given, gets 304 at once.
                    let tag = try #require(again.headers[.eTag])
                    #expect(tag.hasSuffix("-gzip\"") == gzip)
                    var conditional = ask.headers
                    conditional[.ifNoneMatch] = tag
                    let unchanged = try await server.request(.get, uri, headers: conditional)
                    #expect(unchanged.status == .notModified)
                    #expect(unchanged.body.readableBytes == 0)
                    #expect(unchanged.headers[.eTag] == routed.headers[.eTag].map { $0.replacing("-gzip", with: "") })
                    let since = try #require(again.headers[.lastModified])
                    let calendar = try await server.request(.get, uri, headers: [.ifModifiedSince: since])
                    #expect(calendar.status == .notModified)
                    // Security headers are the router's: kept with the answer.
                    #expect(again.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                }
                // At least three at once per ask: the second and the two 304s.
                let answered = try await EarlyAnswerChecks.counted(route, on: server, metric: immediate)
                #expect(answered >= before + 3 * asks.count, "\(answered - before)")
                // A HEAD is the router's, as before (it says what the GET would).
                let head = try await server.request(.head, "\(path)?\(asks[0].query)")
                #expect(head.status == .ok && head.body.readableBytes == 0)
            }
        }
    }
}
