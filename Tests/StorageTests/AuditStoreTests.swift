import Accounts
import CampusTestSupport
import Foundation
import Testing

@testable import Storage

/// The audit log's rows (issue 40), on both databases: an entry lands with its action's
/// transaction or not at all, is found by every filter, and goes after its keeping time.
@Suite struct AuditStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct Refused: Error {}

    func entry(_ action: AuditAction, _ actor: AuditActor, kind: String, id: String?, at: Date) -> AuditEntry {
        AuditEntry(
            at: at, action: action, actor: actor, target: AuditTarget(kind: kind, id: id, label: "label \(kind)"),
            before: "user", after: String(repeating: "x", count: 800))
    }

    @Test(arguments: TestDatabases.kinds)
    func anEntryLandsWithItsTransactionAndIsFoundByEveryFilter(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let admin = AuditActor(accountID: 7, name: "admin@example.org", address: "203.0.113.9")
            // A transaction that fails takes its entry back with it.
            await #expect(throws: Refused.self) {
                try await database.write { [now] db in
                    try await AuditStore(db).record(entry(.roleChanged, admin, kind: "user", id: "3", at: now))
                    throw Refused()
                }
            }
            let empty = try await database.read { db in
                try await AuditStore(db).entries(AuditFilter(), limit: 10, offset: 0)
            }
            #expect(empty.total == 0 && empty.entries.isEmpty)

            try await database.write { [now] db in
                let store = AuditStore(db)
                try await store.record(entry(.roleChanged, admin, kind: "user", id: "3", at: now))
                try await store.record(entry(.stationCreated, admin, kind: "station", id: "1", at: now + 60))
                try await store.record(
                    entry(.timetableSynced, .scheduledJob, kind: "timetable", id: nil, at: now + 120))
            }
            func find(_ filter: AuditFilter, limit: Int = 10, offset: Int = 0) async throws -> (
                entries: [AuditEntry], total: Int
            ) {
                try await database.read { db in try await AuditStore(db).entries(filter, limit: limit, offset: offset) }
            }
            let all = try await find(AuditFilter())
            #expect(all.total == 3)
            #expect(all.entries.map(\.action) == [.timetableSynced, .stationCreated, .roleChanged], "newest first")
            let role = try #require(all.entries.last)
            #expect(role.actor == admin)
            #expect(role.target == AuditTarget(kind: "user", id: "3", label: "label user"))
            #expect(role.before == "user" && role.after?.count == AuditEntry.maxDetail)
            #expect(role.at == now)
            #expect(all.entries.first?.actor == .scheduledJob)

            #expect(try await find(AuditFilter(action: .stationCreated)).entries.map(\.target.id) == ["1"])
            #expect(try await find(AuditFilter(actorID: 7)).total == 2)
            #expect(try await find(AuditFilter(targetKind: "user", targetID: "3")).total == 1)
            #expect(try await find(AuditFilter(targetKind: "user", targetID: "4")).total == 0)
            #expect(try await find(AuditFilter(since: now + 60)).total == 2)
            #expect(try await find(AuditFilter(until: now + 60)).total == 1)
            let page = try await find(AuditFilter(), limit: 1, offset: 1)
            #expect(page.total == 3 && page.entries.map(\.action) == [.stationCreated])

            // Housekeeping removes what is older than the keeping time, and nothing else.
            try await database.write { [now] db in try await AuditStore(db).removeEntries(before: now + 60) }
            #expect(try await find(AuditFilter()).entries.map(\.action) == [.timetableSynced, .stationCreated])
        }
    }
}
