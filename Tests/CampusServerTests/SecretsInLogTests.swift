import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import SQLKit
import SharedHelpers
import Storage
import Testing

@testable import CampusServer

/// No secret reaches a log line, at any level (issue 35, item 30): a run at trace level that
/// provokes every kind of failure (500s from a broken database, 4xx, wrong passwords, a wrong
/// source password, Subsonic with `p=` and `apiKey=`, a reset link) and searches the whole log
/// for every secret it used. A 500 wrote the bearer token and the decoded body
/// (`NewPlaylist(name: …)`); SQLite and PostgreSQL wrote every statement's values at debug.
@Suite struct SecretsInLogTests {
    @Test(arguments: TestDatabases.kinds)
    func noSecretReachesTheLog(_ kind: Database.Kind) async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .trace
        let (location, cleanup) = try await TestDatabases.location(kind)
        defer { Task { await cleanup() } }

        let secrets = try await TestServer.run(location: location, logger: logger) { server in
            var secrets = [String: String]()
            let password = "Secret-Password-4711"
            secrets["password"] = password
            try await server.register("ann@example.org", password: password)
            try await server.register("boss@example.org", password: password)
            try await server.makeAdmin("boss@example.org")
            let token = try await server.login("ann@example.org", password: password)
            secrets["bearer token"] = token
            let boss = try await server.login("boss@example.org", password: password)
            secrets["admin's bearer token"] = boss
            #expect(try await server.request(.get, "/api/v1/me", token: token).status == .ok)

            // Client errors: a wrong password, a wrong token, a cookie that is no session.
            let wrongPassword = "Wrong-Password-0815"
            secrets["wrong password"] = wrongPassword
            let login = #"{"email":"ann@example.org","password":"\#(wrongPassword)"}"#
            #expect(try await server.request(.post, "/api/v1/auth/login", json: login).status == .unauthorized)
            let wrongToken = "WrongTokenValue0123456789abcdef"
            secrets["wrong token"] = wrongToken
            #expect(try await server.request(.get, "/api/v1/me", token: wrongToken).status == .unauthorized)
            let cookie = "CookieSecretValue-2718281828"
            secrets["cookie"] = cookie
            let cookies: HTTPFields = [.cookie: "\(CookieName.session)=\(cookie)"]
            _ = try await server.request(.get, "/", headers: cookies)

            // Players: an app password (plain and enc:), an API key, and wrong ones.
            let appPassword =
                try await server.request(.post, "/api/v1/me/app-passwords", json: #"{"name":"DSub"}"#, token: token)
                .json["password"] as? String ?? ""
            let apiKey =
                try await server.request(.post, "/api/v1/me/api-keys", json: #"{"name":"Feishin"}"#, token: token)
                .json["key"] as? String ?? ""
            #expect(!appPassword.isEmpty && !apiKey.isEmpty)
            secrets["app password"] = appPassword
            secrets["app password in hexadecimal"] = Array(appPassword.utf8).hexadecimal
            secrets["API key"] = apiKey
            secrets["wrong app password"] = "WrongAppPassword-31415"
            secrets["wrong API key"] = "WrongApiKey-27182818"
            for query in [
                "u=ann@example.org&p=\(appPassword)", "u=ann@example.org&p=enc:\(Array(appPassword.utf8).hexadecimal)",
                "apiKey=\(apiKey)", "u=ann@example.org&p=WrongAppPassword-31415", "apiKey=WrongApiKey-27182818",
            ] {
                _ = try await server.request(.get, "/rest/getPlaylists.view?f=json&v=1.16.1&c=test&\(query)")
            }

            // A station's source password, right and wrong.
            let sourcePassword = "Source-Password-1618"
            secrets["source password"] = sourcePassword
            let station = #"{"name":"Campus FM","mount":"campus","sourcePassword":"\#(sourcePassword)"}"#
            #expect(try await server.request(.post, "/api/v1/stations", json: station, token: boss).status == .created)
            for candidate in [sourcePassword, "Wrong-Source-Password-1"] {
                let basic = Data("source:\(candidate)".utf8).base64EncodedString()
                _ = try await server.request(
                    .get, "/admin/metadata?mount=/radio/campus&mode=updinfo&song=Hello",
                    headers: [.authorization: "Basic \(basic)"])
            }

            // A reset link.
            #expect(
                try await server.request(.post, "/api/v1/auth/password-reset", json: #"{"email":"ann@example.org"}"#)
                    .status == .accepted)
            let mail = try await server.mail.waitFor(count: 1)
            let link = try #require(mail.body.split(separator: "\n").first { $0.contains("token=") })
            secrets["reset token"] = link.components(separatedBy: "token=").last ?? ""

            // 500s from a broken database, with the token, a cookie and a body that holds passwords.
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            let cascade = kind == .postgres ? " CASCADE" : ""
            try await database.write { db in try await db.raw("DROP TABLE playlists\(unsafeRaw: cascade)").run() }
            let playlist = #"{"name":"Secret Playlist Name 42","kind":"track"}"#
            secrets["a request's body"] = "Secret Playlist Name 42"
            let failed = try await server.request(
                .post, "/api/v1/playlists", json: playlist, token: token, headers: cookies)
            #expect(failed.status == .internalServerError)
            _ = try await server.request(.get, "/rest/getPlaylists.view?f=json&v=1.16.1&c=test&apiKey=\(apiKey)")
            try await database.write { db in try await db.raw("DROP TABLE sessions\(unsafeRaw: cascade)").run() }
            await database.close()
            let newPassword = "New-Secret-Password-99"
            secrets["new password"] = newPassword
            let change = #"{"currentPassword":"\#(password)","newPassword":"\#(newPassword)"}"#
            let changed = try await server.request(.post, "/api/v1/me/password", json: change, token: token)
            #expect(changed.status.code >= 400)
            return secrets
        }

        let log = handler.entries.map { "\($0.level) \($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(log.contains("unexpected error"), "the 500s were not logged")
        for (name, secret) in secrets.sorted(by: { $0.key < $1.key }) where !secret.isEmpty {
            #expect(!log.contains(secret), "the \(name) is in the log")
        }
    }

    /// Without a mail server, mail is a file of the data directory readable by its owner only;
    /// the log names the file, never the body (which holds the reset link).
    @Test func mailWithoutAMailServerIsAFileNotALogLine() async throws {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "test") { _ in handler }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("campus-mail-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sender = FileMailSender(dataDirectory: folder.path, logger: logger)
        let link = "https://campus.example.org/password/reset?token=ResetTokenSecret123"
        try await sender.send(to: "ann@example.org", subject: "Reset your password", body: "Open \(link)")
        let files = try FileManager.default.contentsOfDirectory(
            at: folder.appendingPathComponent("mail"), includingPropertiesForKeys: nil)
        #expect(files.count == 1)
        let file = try #require(files.first)
        #expect(try String(contentsOf: file, encoding: .utf8).contains(link))
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let log = handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(log.contains(file.lastPathComponent))
        #expect(!log.contains("ResetTokenSecret123"))
    }
}
