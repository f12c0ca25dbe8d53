import CampusHTTP
import CampusTestSupport
import Foundation
import InMemoryLogging
import Logging
import Testing

@testable import CampusServer

/// Bodies whose framing HTTP/1's parser cannot follow are the client's doing (issue 35, item 11):
/// 400, or 501 for a transfer coding Campus does not implement, one answer, the connection closed,
/// and never an "unexpected error" in the log; a client that leaves half-way is no server error.
@Suite struct RequestFramingTests {
    static let login = "POST /api/v1/auth/login HTTP/1.1\r\nHost: campus\r\nContent-Type: application/json\r\n"

    /// Runs `body` against a server whose log it then returns.
    func withLoggedServer(_ body: @Sendable (TestServer) async throws -> Void) async throws -> [InMemoryLogHandler
        .Entry]
    {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "test") { _ in handler }
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        defer { Task { await cleanup() } }
        try await TestServer.run(location: location, logger: logger) { server in try await body(server) }
        return handler.entries
    }

    @Test(arguments: [
        ("ZZ", "hexadecimal"),
        ("FFFFFFFFFFFFFFFFFF", "hexadecimal"),
        ("-1", "hexadecimal"),
        ("5\r\nabcde\r\nQ", "hexadecimal"),
    ])
    func aChunkSizeThatIsNoNumberIs400(_ size: String, _ words: String) async throws {
        let entries = try await withLoggedServer { server in
            let answer = try await RawConnection.exchange(
                port: server.port, [Self.login + "Transfer-Encoding: chunked\r\n\r\n\(size)\r\nabc\r\n0\r\n\r\n"])
            #expect(RawConnection.statusLines(answer) == ["HTTP/1.1 400 Bad Request"], "\(answer)")
            #expect(answer.contains("application/problem+json"))
            #expect(answer.contains(words))
            #expect(answer.lowercased().contains("connection: close"))
            #expect(try await server.request(.get, "/health").status == .ok)
        }
        #expect(!entries.contains { $0.message.description == "unexpected error" })
        let statuses = entries.filter { $0.message.description == "request" }.compactMap {
            $0.metadata["status"].map { "\($0)" }
        }
        #expect(statuses.contains("400"))
    }

    @Test(arguments: [
        ("xchunked", "xchunked"),
        ("gzip, chunked", "gzip"),
        ("identity", "identity"),
    ])
    func aTransferCodingCampusDoesNotImplementIs501(_ coding: String, _ named: String) async throws {
        let entries = try await withLoggedServer { server in
            let answer = try await RawConnection.exchange(
                port: server.port, [Self.login + "Transfer-Encoding: \(coding)\r\n\r\n5\r\nabcde\r\n0\r\n\r\n"])
            #expect(RawConnection.statusLines(answer) == ["HTTP/1.1 501 Not Implemented"], "\(answer)")
            #expect(answer.contains("“\(named)”"))
            // Not even a request without a body is answered as if it had none.
            let health = try await RawConnection.exchange(
                port: server.port, ["GET /health HTTP/1.1\r\nHost: campus\r\nTransfer-Encoding: \(coding)\r\n\r\n"])
            #expect(RawConnection.statusLines(health) == ["HTTP/1.1 501 Not Implemented"], "\(health)")
        }
        #expect(!entries.contains { $0.message.description == "unexpected error" })
    }

    /// RFC 9112 §6.3: chunked twice, or chunked not last, leaves the body's length unknown: 400.
    @Test(arguments: ["chunked\r\nTransfer-Encoding: chunked", "chunked, gzip"])
    func chunkedTwiceOrNotLastIs400(_ coding: String) async throws {
        _ = try await withLoggedServer { server in
            let answer = try await RawConnection.exchange(
                port: server.port, [Self.login + "Transfer-Encoding: \(coding)\r\n\r\n2\r\n{}\r\n0\r\n\r\n"])
            #expect(RawConnection.statusLines(answer) == ["HTTP/1.1 400 Bad Request"], "\(answer)")
        }
    }

    @Test func theAnswersBeforeABrokenRequestStandAndNothingFollowsIt() async throws {
        _ = try await withLoggedServer { server in
            // A whole request, then one whose body breaks, on one connection.
            let answer = try await RawConnection.exchange(
                port: server.port,
                [
                    "GET /health HTTP/1.1\r\nHost: campus\r\n\r\n"
                        + Self.login + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nZZ\r\n"
                ])
            #expect(
                RawConnection.statusLines(answer) == ["HTTP/1.1 200 OK", "HTTP/1.1 400 Bad Request"], "\(answer)")
        }
    }

    @Test func aClientThatLeavesMidBodyIsNoServerError() async throws {
        let entries = try await withLoggedServer { server in
            // The head promises 100 bytes; 10 come, then the client is gone.
            _ = try await RawConnection.exchange(
                port: server.port,
                [Self.login + "Content-Length: 100\r\n\r\n", #"{"email":""#], halfClose: true, timeout: .seconds(5))
            // A chunked body cut off half-way, the same.
            _ = try await RawConnection.exchange(
                port: server.port, [Self.login + "Transfer-Encoding: chunked\r\n\r\n10\r\n{\"email\""], halfClose: true,
                timeout: .seconds(5))
            #expect(try await server.request(.get, "/health").status == .ok)
        }
        #expect(!entries.contains { $0.level >= .error }, "\(entries.filter { $0.level >= .error })")
        let statuses = entries.filter { $0.message.description == "request" }.compactMap {
            $0.metadata["status"]?.description
        }
        #expect(!statuses.contains("500"))
    }

    @Test func transferCodingsAreReadAsRFC9112Says() {
        #expect(RequestFraming.transferCodingProblem(nil) == nil)
        #expect(RequestFraming.transferCodingProblem("chunked") == nil)
        #expect(RequestFraming.transferCodingProblem(" Chunked ") == nil)
        #expect(RequestFraming.transferCodingProblem("xchunked")?.status == .notImplemented)
        #expect(RequestFraming.transferCodingProblem("gzip, chunked")?.status == .notImplemented)
        #expect(RequestFraming.transferCodingProblem("chunked;q=1, gzip")?.status == .notImplemented)
        #expect(RequestFraming.transferCodingProblem("chunked, chunked")?.status == .badRequest)
        #expect(RequestFraming.transferCodingProblem("")?.status == .badRequest)
        #expect(RequestFraming.transferCodingProblem(",")?.status == .badRequest)
    }
}
