import Accounts
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Localization
import Storage
import Testing

@testable import CampusServer

/// Issue 40's admin overview: the version, this instance among those alive, the database's
/// size, the jobs, the queues, the disk and the last backup; for admins only.
@Suite struct OverviewTests {
    @Test(arguments: TestDatabases.kinds)
    func adminsSeeTheServerAtAGlance(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            try await server.register("ann@example.org")
            let admin = try await server.login("admin@example.org")
            let ann = try await server.login("ann@example.org")
            func page(_ token: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.accept: "text/html"]
                if let token { headers[.cookie] = "campus_session=\(token)" }
                return try await server.request(.get, "/admin", headers: headers)
            }
            #expect(try await page(nil).status == .seeOther)
            #expect(try await page(ann).status == .forbidden)

            var overview = try await page(admin)
            #expect(overview.status == .ok)
            let version = try #require(
                (try await server.request(.get, "/openapi.json").json["info"] as? [String: Any])?["version"] as? String)
            #expect(overview.text.contains(#"<dd id="overview-version">\#(version)</dd>"#))
            #expect(overview.text.contains(kind == .sqlite ? "SQLite, " : "PostgreSQL, "))
            #expect(overview.text.contains("No backup yet"))
            // The jobs this server runs, each with its next run.
            for job in ["housekeeping", "reminders", "podcast-refresh"] {
                #expect(overview.text.contains(#"data-job="\#(job)""#), "\(job)")
            }

            // A backup made: the overview names it and its folder; the disk counts the upload.
            let upload = URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("uploads/talk.mp3")
            try FileManager.default.createDirectory(
                at: upload.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 1, count: 3 * 1024 * 1024).write(to: upload)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("campus-backup-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            try await Backups(database: database, mediaDirectory: server.dataDirectory, logger: TestDatabases.logger)
                .make(in: folder, by: .commandLine)
            await database.close()
            overview = try await page(admin)
            #expect(overview.text.contains(folder.path))
            #expect(!overview.text.contains("No backup yet"))
            #expect(overview.text.contains("3.0 MiB · 1 file"))
        }
    }

    @Test func sizesAndDurationsReadAsPeopleWriteThem() {
        let t = Translator.source
        #expect(ServerOverviewPage.size(512, t: t) == "0.5 KiB")
        #expect(ServerOverviewPage.size(5 * 1024 * 1024 + 104_858, t: t) == "5.1 MiB")
        #expect(ServerOverviewPage.size(3 * 1024 * 1024 * 1024, t: t) == "3.0 GiB")
        #expect(ServerOverviewPage.duration(59, t: t) == "0 minutes")
        #expect(ServerOverviewPage.duration(3 * 86_400 + 3600 + 120, t: t) == "3 days 1 hour 2 minutes")
    }
}
