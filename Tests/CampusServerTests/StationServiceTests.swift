import CampusHTTP
import CampusTestSupport
import Foundation
import InputRules
import Listen
import Storage
import Testing

@testable import CampusServer

/// Radio stations: their rules, and a source's password checked against the stored hash.
@Suite struct StationServiceTests {
    @Test(arguments: TestDatabases.kinds)
    func aSourceProvesItselfWithItsStationsPassword(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let service = StationService(database: database, hasher: PasswordHasher(cost: 4), now: { Date() })
            @Sendable func source(_ mount: String, _ password: String) async throws -> Station? {
                try await service.authenticateSource(mount: mount, password: password, from: "127.0.0.1")
            }
            let station = try await service.add(
                .init(name: " Campus FM ", mount: "campus.mp3", genre: "Rock", sourcePassword: "on-air-2026"), by: nil)
            #expect(station.name == "Campus FM" && station.listenerLimit == Station.defaultListenerLimit)
            #expect(try await source("campus.mp3", "on-air-2026") == station)
            #expect(try await source("campus.mp3", "on-air-2025") == nil)
            await #expect { try await source("nope", "x") } throws: { ($0 as? Refusal)?.reason == .notFound }

            // Another station cannot take the mount, by adding or by renaming.
            let other = try await service.add(
                .init(name: "Jazz", mount: "jazz", sourcePassword: "12345678"), by: nil)
            await #expect {
                try await service.add(.init(name: "Again", mount: "jazz", sourcePassword: "12345678"), by: nil)
            } throws: { ($0 as? Refusal)?.reason == .conflict }
            await #expect {
                try await service.update(mount: "jazz", .init(name: "Jazz", mount: "campus.mp3"), by: nil)
            } throws: { ($0 as? Refusal)?.reason == .conflict }
            // A change without a password keeps the old one; with one, only the new one works.
            _ = try await service.update(
                mount: "jazz", .init(name: "Jazz FM", mount: "jazz", listenerLimit: 5), by: nil)
            #expect(try await source("jazz", "12345678")?.listenerLimit == 5)
            _ = try await service.update(
                mount: "jazz", .init(name: "Jazz FM", mount: "jazz", sourcePassword: "new-password"), by: nil)
            #expect(try await source("jazz", "12345678") == nil)
            #expect(try await source("jazz", "new-password")?.id == other.id)
            try await service.remove(mount: "jazz", by: nil)
            #expect(try await service.stations().map(\.mount) == ["campus.mp3"])
        }
    }

    @Test func whatIsWrongWithAStationIsSaid() throws {
        do {
            _ = try StationService.checked(
                .init(
                    name: "  ", mount: "Live Stream", listenerLimit: 0, recordsBroadcasts: true, sourcePassword: "short"
                ),
                id: 0, new: true)
            Issue.record("A station with every field wrong was taken.")
        } catch let failure as ValidationFailure {
            // Recording needs a programme to record into.
            #expect(
                Set(failure.problems.map(\.field)) == [
                    "name", "mount", "listenerLimit", "sourcePassword", "recordsBroadcasts",
                ])
        }
        #expect(Station.isMount("live.mp3") && Station.isMount("a") && Station.isMount("radio_1-b"))
        #expect(
            !Station.isMount(".hidden") && !Station.isMount("a/b")
                && !Station.isMount(String(repeating: "a", count: 65)))
    }
}
