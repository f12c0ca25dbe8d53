import CampusTestSupport
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CampusHTTP
@testable import CampusServer

/// What an early answer (``EarlyAnswerResponder``) sends is what the router and the middleware
/// send for the same request; anything it is not sure of goes to the router.
enum EarlyAnswerChecks {
    /// The headers of a response but its date, which moves. `Last-Modified` is the second its
    /// answer was made: two answers made apart may cross a second, so it is named only when it
    /// is within two seconds of now (a failure shows the value).
    static func fields(_ response: TestResponse) -> [String] {
        response.headers.filter { $0.name != .date }.map { field in
            if field.name == .lastModified, let date = HTTPDate.date(field.value),
                abs(date.timeIntervalSinceNow) <= 2
            {
                return "last-modified: now"
            }
            return "\(field.name.canonicalName): \(field.value)"
        }.sorted()
    }

    /// How many requests of `route` the early answers counted (`/metrics`), or of those how
    /// many were answered at once (`campus_immediate_answers`).
    static func counted(_ route: String, on server: TestServer, metric: String = "hb_requests") async throws -> Int {
        let metrics = try await server.request(.get, "/metrics").text
        return metrics.split(separator: "\n").filter {
            $0.hasPrefix("\(metric){") && $0.contains("http_route=\"\(route)\"")
        }.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
    }
}

extension ListenServerSuites {
    @Suite struct EarlyStreamAnswerTests {
        @Test func aStreamAskedForAgainIsAnsweredBeforeTheRouterAlike() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let id = try #require(try await server.tracks(ofAlbum: albumID, token: cast.ann).first)
                let stream = "/api/v1/media/\(id)/stream"
                let route = "/api/v1/media/{mediaId}/stream"
                let before = try await EarlyAnswerChecks.counted(route, on: server)
                let immediate = "campus_immediate_answers"
                let beforeImmediate = try await EarlyAnswerChecks.counted(route, on: server, metric: immediate)
                // The first request goes through the router, which writes the path down; the
                // same requests again are answered early (at once: the session, the item and the
                // bytes are in memory), with the same status, headers and bytes.
                let asks: [HTTPFields] = [
                    [.range: "bytes=0-99"], [.range: "bytes=-500"], [:], [.range: "bytes=99999999-"],
                ]
                var routed: [TestResponse] = []
                for headers in asks {
                    routed.append(try await server.request(.get, stream, token: cast.ann, headers: headers))
                }
                #expect(routed.map(\.status) == [.partialContent, .partialContent, .ok, .rangeNotSatisfiable])
                for (headers, first) in zip(asks, routed) {
                    let again = try await server.request(.get, stream, token: cast.ann, headers: headers)
                    #expect(again.status == first.status)
                    #expect(EarlyAnswerChecks.fields(again) == EarlyAnswerChecks.fields(first))
                    #expect(Data(buffer: again.body) == Data(buffer: first.body))
                }
                #expect(try await EarlyAnswerChecks.counted(route, on: server) >= before + asks.count)
                #expect(
                    try await EarlyAnswerChecks.counted(route, on: server, metric: immediate)
                        >= beforeImmediate + asks.count)
                // What an early answer is not sure of goes to the router: no or other credentials,
                // a query, a Range header over its limit, a signed-out token.
                #expect(try await server.request(.get, stream).status == .unauthorized)
                #expect(
                    try await server.request(.get, stream, headers: [.authorization: "Basic YTpi"]).status
                        == .unauthorized)
                #expect(try await server.request(.get, stream, token: "not-a-token").status == .unauthorized)
                // The web app's player signs in with its session cookie; a bearer token, when
                // there is one, is what counts.
                let cookie: HTTPFields = [.range: "bytes=0-9", .cookie: "campus_session=\(cast.ann)"]
                #expect(try await server.request(.get, stream, headers: cookie).status == .partialContent)
                #expect(
                    try await server.request(.get, stream, token: "not-a-token", headers: cookie).status
                        == .unauthorized)
                let long: HTTPFields = [.range: "bytes=" + String(repeating: "0", count: 120) + "-"]
                #expect(
                    try await server.request(.get, stream, token: cast.ann, headers: long).status
                        == .unprocessableContent)
                #expect(
                    try await server.request(.get, "\(stream)?format=mp3&bitrate=9999", token: cast.ann).status
                        == .unprocessableContent)
                // A Range header with a control character (a C1 control sent as UTF-8) breaks the
                // document's pattern: 422 early or not, transcoded or not (schemathesis found the
                // whole file answered).
                // A byte that is not UTF-8 (Python's clients send U+0084 as one byte) reaches the
                // server as U+FFFD: a Range is printable ASCII.
                for query in ["", "?format=mp3&bitrate=32"] {
                    for range in ["\u{84}", "\u{FFFD}", "bytes=0-\u{FFFD}9"] {
                        let refused = try await server.request(
                            .get, stream + query, token: cast.ann, headers: [.range: range])
                        #expect(refused.status == .unprocessableContent, "\(query) \(range)")
                        #expect(refused.text.contains("Range"), "\(refused.text)")
                    }
                }
                #expect(try await server.request(.post, "/api/v1/auth/logout", token: cast.ben).status == .noContent)
                #expect(try await server.request(.get, stream, token: cast.ben).status == .unauthorized)
            }
        }
    }
}

extension TimetableServerSuites {
    @Suite struct EarlyScheduleAnswerTests {
        @Test func aKnownScheduleIsAnsweredBeforeTheRouterAlike() async throws {
            try await TestServer.run { server in
                try await server.importFixtures(["151004.json"])
                let path = "/api/v1/groups/151004/schedule"
                // The same group by a path the router has not seen: percent-encoded digits.
                let other = "/api/v1/groups/%31%35%31%30%30%34/schedule"
                let before = try await EarlyAnswerChecks.counted("schedule", on: server)
                let first = try await server.request(.get, "\(path)?from=2023-09-18&to=2023-09-24")
                #expect(first.status == .ok)
                for query in ["from=2023-09-25&to=2023-10-01", "from=2023-10-02&to=2023-10-08&subgroup=1"] {
                    let early = try await server.request(.get, "\(path)?\(query)")
                    let routed = try await server.request(.get, "\(other)?\(query)")
                    #expect(early.status == .ok && routed.status == .ok)
                    #expect(early.text == routed.text)
                    #expect(EarlyAnswerChecks.fields(early) == EarlyAnswerChecks.fields(routed))
                    // Kept in the answer cache, as the router's answers are.
                    let etag = try #require(early.headers[.eTag])
                    let kept = try await server.request(.get, "\(path)?\(query)", headers: [.ifNoneMatch: etag])
                    #expect(kept.status == .notModified)
                }
                #expect(try await EarlyAnswerChecks.counted("schedule", on: server) >= before + 2)
                // A query openapi.yaml refuses, or a range the timetable refuses, is the router's problem.
                let subgroup = try await server.request(.get, "\(path)?subgroup=10")
                #expect(subgroup.status == .unprocessableContent)
                #expect(subgroup.headers[.contentType] == "application/problem+json")
                let bad = try await server.request(.get, "\(path)?from=25.09.2023")
                #expect(bad.status == .unprocessableContent)
                #expect((bad.json["detail"] as? String)?.contains("2023-09-25") == true)
                let backwards = try await server.request(.get, "\(path)?from=2023-10-01&to=2023-09-01")
                #expect(backwards.status == .unprocessableContent)
            }
        }

        /// A week not asked for before, of a group whose lessons are in memory, is made at once on
        /// the event loop (``EarlyScheduleAnswer`` as an ``ImmediateAnswer``): the bytes and headers
        /// the router sends, plain or gzip, kept in the answer cache; never another version's.
        @Test func aFreshWeekIsMadeAtOnceAlike() async throws {
            try await TestServer.run { server in
                try await server.importFixtures(["151004.json"])
                let path = "/api/v1/groups/151004/schedule"
                let other = "/api/v1/groups/%31%35%31%30%30%34/schedule"
                let immediate = "campus_immediate_answers"
                let before = try await EarlyAnswerChecks.counted("schedule", on: server, metric: immediate)
                #expect(try await server.request(.get, "\(path)?from=2023-09-04&to=2023-09-10").status == .ok)
                // Each week is asked for the first time, so no kept answer can be what is sent.
                let weeks = ["2023-09-11", "2023-09-18", "2023-09-25", "2023-10-02", "2023-10-09", "2023-10-16"]
                for (index, monday) in weeks.enumerated() {
                    let query = "from=\(monday)&subgroup=\(index % 3)"
                    let headers: HTTPFields = index.isMultiple(of: 2) ? [:] : [.acceptEncoding: "gzip"]
                    let made = try await server.request(.get, "\(path)?\(query)", headers: headers)
                    let routed = try await server.request(.get, "\(other)?\(query)", headers: headers)
                    #expect(made.status == .ok && routed.status == .ok)
                    #expect(Data(buffer: made.body) == Data(buffer: routed.body), "\(query)")
                    #expect(EarlyAnswerChecks.fields(made) == EarlyAnswerChecks.fields(routed), "\(query)")
                    #expect((made.headers[.contentEncoding] == "gzip") == !index.isMultiple(of: 2))
                    let tag = try #require(made.headers[.eTag])
                    let kept = try await server.request(.get, "\(path)?\(query)", headers: [.ifNoneMatch: tag])
                    #expect(kept.status == .notModified || !index.isMultiple(of: 2))
                }
                // The version is read at most a second before, so on a busy machine some go early instead.
                let made = try await EarlyAnswerChecks.counted("schedule", on: server, metric: immediate)
                #expect(made > before, "\(made - before)")
                // A recoloured lesson type moves the version on: what is made at once is the new timetable's.
                let week = "\(path)?from=2023-10-23&to=2023-10-29"
                let old = try await server.request(.get, week)
                try await server.register("admin@example.org")
                try await server.makeAdmin("admin@example.org")
                let admin = try await server.login("admin@example.org")
                let colour = ##"{"name":"Лекция","abbreviation":"Лек","colour":"#123456"}"##
                #expect(
                    try await server.request(.put, "/api/v1/lesson-types/%D0%9B%D0%9A", json: colour, token: admin)
                        .status == .ok)
                #expect(try await server.request(.get, "\(path)?from=2023-09-04").status == .ok)
                let new = try await server.request(.get, week)
                let routed = try await server.request(.get, week.replacing(path, with: other))
                #expect(new.text == routed.text)
                #expect(new.text != old.text)
                #expect(new.text.contains("#123456"))
            }
        }
    }
}
