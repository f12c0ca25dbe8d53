import Accounts
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Logging
import Storage
import Testing

@testable import CampusServer

/// What a hostile source client tries (issue 35): guessing a station's password, a `PUT` smuggled
/// onto a connection that began with another request, a head of any size.
@Suite(.serialized) struct RadioSourceHardeningTests {
    static func basic(_ password: String) -> String {
        "Basic " + Data("source:\(password)".utf8).base64EncodedString()
    }

    /// A source's `PUT` with `password`, on a connection of its own, and the server's answer.
    static func put(port: Int, mount: String, password: String) async throws -> String {
        let connection = try RawConnection(port: port)
        await connection.send(
            "PUT /radio/\(mount) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(basic(password))\r\n"
                + "Content-Type: audio/mpeg\r\n\r\n")
        return await connection.answer().head
    }

    @Test func failuresOfOneScopeAreThrottledAndNoOtherScope() {
        enum Reason: Sendable { case wrong }
        let memory = FailureMemory<Reason>(throttle: LoginThrottle(maxFailures: 3, window: .seconds(600)), capacity: 4)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
        func allowed(_ verdict: FailureMemory<Reason>.Verdict) -> Bool {
            if case .allowed = verdict { return true } else { return false }
        }
        func blocked(_ verdict: FailureMemory<Reason>.Verdict) -> Int? {
            if case .blocked(let seconds) = verdict { return seconds } else { return nil }
        }
        let scope = "source campus 10.0.0.1"
        // Three guesses at once: each counts from the moment it begins.
        for guess in 0..<3 { #expect(allowed(memory.begin(scope: scope, digest: "g\(guess)", now: at(Double(guess))))) }
        // The fourth waits until the first leaves the window; other scopes do not.
        #expect(blocked(memory.begin(scope: scope, digest: "g3", now: at(10))) == 590)
        #expect(allowed(memory.begin(scope: "source jazz 10.0.0.1", digest: "g3", now: at(10))))
        #expect(allowed(memory.begin(scope: "source campus 10.0.0.2", digest: "g3", now: at(10))))
        // A guess that failed gets its answer again from memory, and counts once.
        memory.failed(.wrong, scope: scope, digest: "g0", now: at(11))
        if case .failedBefore = memory.begin(scope: scope, digest: "g0", now: at(12)) {} else { Issue.record() }
        // A success forgets its own attempt only: the right password cannot wipe the guesses.
        memory.succeeded(scope: scope, digest: "g2")
        #expect(allowed(memory.begin(scope: scope, digest: "right", now: at(13))))
        memory.succeeded(scope: scope, digest: "right")
        #expect(allowed(memory.begin(scope: scope, digest: "g4", now: at(14))))
        #expect(blocked(memory.begin(scope: scope, digest: "g5", now: at(15))) != nil)
        // Addresses by the thousand cannot make it grow without bound.
        for index in 0..<1000 {
            _ = memory.begin(scope: "source campus 10.1.\(index / 256).\(index % 256)", digest: "x", now: at(800))
        }
        #expect(memory.count <= 4)
    }

    @Test func wrongSourcePasswordsAreThrottledApartFromLogins() async throws {
        try await TestServer.run { server in
            try await server.addStation(mount: "campus", password: RadioTests.password)
            try await server.addStation(mount: "jazz", password: RadioTests.password)
            try await server.register("ann@example.org")
            func metadata(_ mount: String, _ password: String) async throws -> TestResponse {
                try await server.request(
                    .get, "/admin/metadata?mount=/radio/\(mount)&mode=updinfo&song=Hello",
                    headers: [.authorization: Self.basic(password)])
            }
            // An encoder that retries with one wrong password counts once.
            for _ in 0..<8 { #expect(try await metadata("campus", "guess-0").status == .unauthorized) }
            for guess in 1..<5 { #expect(try await metadata("campus", "guess-\(guess)").status == .unauthorized) }
            // The sixth guess waits, and so does the right password from the same address: a
            // guesser learns nothing more for a quarter of an hour.
            let throttled = try await metadata("campus", "guess-5")
            #expect(throttled.status == .tooManyRequests, "\(throttled.text)")
            #expect(Int(throttled.headers[.retryAfter] ?? "") ?? 0 > 800)
            #expect(throttled.json["type"] as? String == "/problems/too-many-attempts")
            #expect(try await metadata("campus", RadioTests.password).status == .tooManyRequests)
            // A source's own PUT counts the same failures.
            let put = try await Self.put(port: server.port, mount: "campus", password: RadioTests.password)
            #expect(put.hasPrefix("HTTP/1.1 429"), "\(put)")
            #expect(put.lowercased().contains("connection: close"))

            // Another station's password is not locked, nor is a user's login.
            #expect(try await metadata("jazz", RadioTests.password).status == .notFound)  // Not on the air.
            _ = try await server.login("ann@example.org")
            // Nor do failed logins lock a source out.
            let wrongLogin = #"{"email":"ann@example.org","password":"wrong horse"}"#
            for _ in 0..<5 {
                #expect(try await server.request(.post, "/api/v1/auth/login", json: wrongLogin).status == .unauthorized)
            }
            #expect(try await server.request(.post, "/api/v1/auth/login", json: wrongLogin).status == .tooManyRequests)
            #expect(try await metadata("jazz", RadioTests.password).status == .notFound)
            #expect(try await metadata("jazz", "not-the-password").status == .unauthorized)

            // Once the window has passed, the right password is taken again.
            server.clock.advance(by: 15 * 60 + 1)
            #expect(try await metadata("campus", RadioTests.password).status == .notFound)
        }
    }

    @Test func aPutAfterAnotherRequestOnItsConnectionIsRefusedAndChangesNothing() async throws {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "test") { _ in handler }
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        defer { Task { await cleanup() } }
        try await TestServer.run(location: location, logger: logger) { server in
            try await server.addStation(mount: "campus", password: RadioTests.password)
            let connection = try RawConnection(port: server.port)
            await connection.send("GET /api/v1/stations/campus HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let first = await connection.answer()
            #expect(first.head.hasPrefix("HTTP/1.1 200"), "\(first.head)")
            // The right password, but no source's connection: no audio can follow the body.
            await connection.send(
                "PUT /radio/campus HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(Self.basic(RadioTests.password))"
                    + "\r\nContent-Type: audio/mpeg\r\nContent-Length: 4\r\n\r\nabcd")
            let second = await connection.answer()
            #expect(second.head.hasPrefix("HTTP/1.1 400"), "\(second.head)")
            #expect(second.head.lowercased().contains("connection: close"))
            // Nothing happened: no source came or went (nothing recorded, no fallback restarted),
            // and the station is still off the air.
            try await Task.sleep(for: .seconds(1))
            let said = handler.entries.map(\.message.description)
            #expect(!said.contains("source connected") && !said.contains("source gone"), "\(said)")
            #expect(try await server.request(.get, "/api/v1/stations/campus").json["onAir"] as? Bool == false)
            // A source on a connection of its own is still taken (refused here only for its
            // password, which is checked).
            let wrong = try await Self.put(port: server.port, mount: "campus", password: "not-the-password")
            #expect(wrong.hasPrefix("HTTP/1.1 401"), "\(wrong)")
        }
    }

    @Test func aSourceHeadOverItsLimitIsAnswered431() async throws {
        try await TestServer.run { server in
            try await server.addStation(mount: "campus", password: RadioTests.password)
            let start = "PUT /radio/campus HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "
            // A head that never ends, and one that ends too late.
            for end in ["", "\r\n\r\n"] {
                let connection = try RawConnection(port: server.port)
                await connection.send(start + String(repeating: "a", count: 16 << 10) + end)
                let answer = await connection.answer()
                #expect(answer.head.hasPrefix("HTTP/1.1 431"), "\(answer.head)")
                #expect(answer.head.contains("application/problem+json"))
                #expect(String(decoding: answer.body, as: UTF8.self).contains("16 KiB"))
            }
            // A head within the limit is read (here refused for its password).
            let connection = try RawConnection(port: server.port)
            let authorization = "Authorization: \(Self.basic("nope-nope"))"
            await connection.send(start + String(repeating: "a", count: 15 << 10) + "\r\n\(authorization)\r\n\r\n")
            let within = await connection.answer()
            #expect(within.head.hasPrefix("HTTP/1.1 401"), "\(within.head)")
        }
    }
}
