import Accounts
import CampusTestSupport
import Formats
import Foundation
import HTTPTypes
import Storage
import Testing
import Timetable

@testable import CampusServer

extension TestServer {
    /// The audit log as an admin reads it through the API, newest first.
    func audit(_ query: String = "", token: String) async throws -> [[String: Any]] {
        let response = try await request(.get, "/api/v1/audit\(query)", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return response.json["items"] as? [[String: Any]] ?? []
    }

    /// How many entries the log holds of each action.
    func auditCounts(token: String) async throws -> [String: Int] {
        let entries = try await audit("?limit=200", token: token)
        return entries.reduce(into: [:]) { counts, entry in counts[entry["action"] as? String ?? "", default: 0] += 1 }
    }
}

extension [String: Any] {
    var actorName: String? { (self["actor"] as? [String: Any])?["name"] as? String }
    var actorID: Int64? { ((self["actor"] as? [String: Any])?["userId"] as? NSNumber)?.int64Value }
    var actorAddress: String? { (self["actor"] as? [String: Any])?["address"] as? String }
    var targetLabel: String? { (self["target"] as? [String: Any])?["label"] as? String }
    var targetID: String? { (self["target"] as? [String: Any])?["id"] as? String }
}

extension ListenServerSuites {
    /// Issue 40: every privileged action of the library, the radio and the accounts leaves
    /// exactly one entry — who, what, which target, before and after, from which address — and
    /// only admins read the log.
    @Suite(.serialized) struct AuditTests {
        @Test(arguments: TestDatabases.kinds)
        func privilegedActionsLeaveOneEntryEach(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            try await TestServer.run(location: location) { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let adminID = try #require(
                    (try await server.request(.get, "/api/v1/me", token: cast.admin)
                        .json["id"] as? NSNumber)?.int64Value)
                let annID = try #require(
                    (try await server.request(.get, "/api/v1/me", token: cast.ann)
                        .json["id"] as? NSNumber)?.int64Value)

                // The command line made the admin; the admin scanned the library.
                var entries = try await server.audit(token: cast.admin)
                #expect(entries.map { $0["action"] as? String } == ["library.scanned", "account.role"])
                let made = try #require(entries.last)
                #expect(made.actorName == "command line" && made.actorID == nil && made.actorAddress == nil)
                #expect(made.targetLabel == "admin@example.org")
                #expect(made["before"] as? String == "user" && made["after"] as? String == "admin")
                let scanned = try #require(entries.first)
                #expect(scanned.actorID == adminID && scanned.actorName == "admin@example.org")
                #expect(scanned.actorAddress == "127.0.0.1")
                #expect(scanned.targetLabel == cast.library.root.path)

                // Only admins read it.
                #expect(try await server.request(.get, "/api/v1/audit").status == .unauthorized)
                #expect(try await server.request(.get, "/api/v1/audit", token: cast.ann).status == .forbidden)
                #expect(
                    try await server.request(.get, "/admin/audit", headers: [.accept: "text/html"]).status == .seeOther)
                #expect(
                    try await server.request(
                        .get, "/admin/audit", headers: [.accept: "text/html", .cookie: "campus_session=\(cast.ann)"]
                    ).status == .forbidden)

                // A role change; a refused one (the last admin) leaves nothing.
                let role = try await server.request(
                    .put, "/api/v1/users/\(annID)/role", json: #"{"role":"organizer"}"#, token: cast.admin)
                #expect(role.status == .ok, "\(role.text)")
                let demote = try await server.request(
                    .put, "/api/v1/users/\(adminID)/role", json: #"{"role":"user"}"#, token: cast.admin)
                #expect(demote.status == .conflict)
                entries = try await server.audit("?action=account.role", token: cast.admin)
                #expect(entries.count == 2)
                #expect(entries.first?.targetID == "\(annID)" && entries.first?.actorID == adminID)
                #expect(entries.first?["before"] as? String == "user")
                #expect(entries.first?["after"] as? String == "organizer")

                // A report resolved.
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let report = try await server.request(
                    .post, "/api/v1/reports", json: #"{"target":"album:\#(albumID)","reason":"copyright"}"#,
                    token: cast.ann)
                let reportID = try #require((report.json["id"] as? NSNumber)?.int64Value)
                #expect(
                    try await server.request(.post, "/api/v1/reports/\(reportID)/resolve", token: cast.admin).status
                        == .ok)

                // A station added, changed and removed; the source password never reaches the log.
                let station =
                    #"{"name":"Campus FM","mount":"campus","genre":"Rock","region":"Minsk","sourcePassword":"on-air-2026"}"#
                let added = try await server.request(.post, "/api/v1/stations", json: station, token: cast.admin)
                #expect(added.status == .created, "\(added.text)")
                let changed = try await server.request(
                    .patch, "/api/v1/stations/campus", json: #"{"name":"Campus FM 2","mount":"campus"}"#,
                    token: cast.admin)
                #expect(changed.status == .ok, "\(changed.text)")
                #expect(
                    try await server.request(.delete, "/api/v1/stations/campus", token: cast.admin).status == .noContent
                )

                // The home feed configured.
                let feed = #"{"blocks":[{"type":"genres","title":"Genres","source":"genres"}]}"#
                #expect(
                    try await server.request(.put, "/api/v1/feed/blocks", json: feed, token: cast.admin).status == .ok)

                // Ben deletes his account: the entry names him after he is gone.
                #expect(
                    try await server.request(
                        .delete, "/api/v1/me", json: #"{"password":"correct horse"}"#, token: cast.ben
                    ).status
                        == .noContent)

                let counts = try await server.auditCounts(token: cast.admin)
                #expect(
                    counts == [
                        "account.role": 2, "library.scanned": 1, "report.resolved": 1, "station.created": 1,
                        "station.changed": 1, "station.deleted": 1, "feed.changed": 1, "account.deleted": 1,
                    ])
                let all = try await server.audit("?limit=200", token: cast.admin)
                #expect(!all.contains { "\($0)".contains("on-air-2026") })
                let deleted = try #require(all.first { $0["action"] as? String == "account.deleted" })
                #expect(deleted.targetLabel == "ben@example.org" && deleted.actorName == "ben@example.org")
                let renamed = try #require(all.first { $0["action"] as? String == "station.changed" })
                #expect((renamed["before"] as? String)?.hasPrefix("Campus FM at /campus") == true)
                #expect((renamed["after"] as? String)?.hasPrefix("Campus FM 2 at /campus") == true)

                // Filters and paging.
                let stations = try await server.audit("?targetKind=station", token: cast.admin)
                #expect(
                    stations.map { $0["action"] as? String } == [
                        "station.deleted", "station.changed", "station.created",
                    ])
                let paged = try await server.request(.get, "/api/v1/audit?limit=2&offset=1", token: cast.admin)
                #expect(paged.json["total"] as? Int == 9)
                #expect((paged.json["items"] as? [[String: Any]])?.count == 2)
                #expect(try await server.audit("?actor=\(annID)", token: cast.admin).isEmpty)
                #expect(try await server.audit("?since=2100-01-01T00:00:00Z", token: cast.admin).isEmpty)
                let badAction = try await server.request(.get, "/api/v1/audit?action=nothing", token: cast.admin)
                #expect(badAction.status == .badRequest || badAction.status == .unprocessableContent)

                // The admin's page lists them, with the client's address.
                let session = try await server.request(
                    .get, "/admin/audit?targetKind=station",
                    headers: [.accept: "text/html", .cookie: "campus_session=\(cast.admin)"])
                #expect(session.status == .ok, "\(session.text.prefix(300))")
                #expect(session.text.contains("Campus FM 2") && session.text.contains("127.0.0.1"))
                #expect(!session.text.contains("Genres"))
            }
        }
    }
}

/// Competitions and the timetable: deletion, an organizer's correction of a result, imports and
/// the directory an admin edits each leave one entry.
@Suite struct CompeteAndTimetableAuditTests {
    @Test(arguments: TestDatabases.kinds)
    func correctionsDeletionsAndImportsAreLogged(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner)
            for token in [cast.ann, cast.ben] {
                _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: token)
            }
            // The organizer enters Ann's result, enters Ben's, and corrects Ann's after a protest.
            for (participant, value) in [(cast.annID, 3100), (cast.benID, 2999), (cast.annID, 3050)] {
                let set = try await server.request(
                    .put, "/api/v1/competitions/\(id)/participants/\(participant)/result",
                    json: #"{"value": \#(value)}"#, token: cast.owner)
                #expect(set.status == .ok, "\(set.text)")
            }
            #expect(
                try await server.request(.delete, "/api/v1/competitions/\(id)", token: cast.owner).status == .noContent)

            // The timetable: an import from the command line, and a building an admin places.
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            var data = TimetableImport()
            for file in Fixtures.iisFiles { data.merge(try IIS.read(try Fixtures.data("iis/\(file)"), file: file)) }
            _ = try await TimetableImporter(
                database: database, logger: TestDatabases.logger, timeZone: .gmt, actor: .commandLine
            ).store(data)
            await database.close()
            let place = #"{"name":"Корпус 5","latitude":53.9117,"longitude":27.5949}"#
            #expect(try await server.request(.put, "/api/v1/buildings/5", json: place, token: cast.admin).status == .ok)

            let counts = try await server.auditCounts(token: cast.admin)
            #expect(
                counts == [
                    "account.role": 1, "result.corrected": 3, "competition.deleted": 1, "timetable.imported": 1,
                    "timetable.directory": 1,
                ])
            let corrected = try await server.audit("?action=result.corrected", token: cast.admin)
            #expect(corrected.allSatisfy { $0.actorID == cast.ownerID })
            let annsCorrection = try #require(corrected.first)
            #expect(corrected.last?["before"] == nil && corrected.last?["after"] as? String == "51:40")
            #expect(annsCorrection["before"] as? String == "51:40" && annsCorrection["after"] as? String == "50:50")
            let deleted = try #require(try await server.audit("?action=competition.deleted", token: cast.admin).first)
            #expect(deleted.targetLabel == "Campus 10K" && deleted.targetID == "\(id)")
            let imported = try #require(try await server.audit("?action=timetable.imported", token: cast.admin).first)
            #expect(imported.actorName == "command line")
            #expect((imported["after"] as? String)?.contains("lessons") == true)
            // An organizer is not an admin.
            #expect(try await server.request(.get, "/api/v1/audit", token: cast.owner).status == .forbidden)
        }
    }
}
