import CampusTestSupport
import Foundation
import Listen
import Storage
import Testing

@testable import CampusServer

/// A source's first title, said while the source is still connecting (as ffmpeg or butt send it
/// as soon as they can), reaches both this instance's broadcast and the database the other
/// instances read: whichever way the update and the connection interleave.
@Suite struct RadioTitleRaceTests {
    /// A radio of its own on `database`, recording into `folder`, with no other instance.
    static func radio(_ database: Database, recordingInto folder: URL) -> LiveRadio {
        LiveRadio(
            hub: RadioHub(), database: database,
            recordings: RadioRecordings(
                database: database, directory: folder.path, timeZone: .gmt, logger: TestDatabases.logger,
                now: { Date() }),
            slots: TranscodeSlots(total: 1, perHolder: 1), relayBase: "http://127.0.0.1:9",
            logger: TestDatabases.logger, now: { Date() })
    }

    @Test(arguments: TestDatabases.kinds)
    func aTitleSaidWhileTheSourceConnectsIsKeptEverywhere(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("campus-race-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let radio = Self.radio(database, recordingInto: folder)
            // Many connections, each raced by a source that says its title until it is taken:
            // the update may read the database before the announcement and find the broadcast
            // after it was taken, or write between the two.
            for round in 0..<40 {
                let mount = "race\(round)"
                let station = try #require(
                    try await database.write { db in
                        try await RadioStore(db).add(
                            Listen.Station(id: 0, name: "Race \(round)", mount: mount), sourcePasswordHash: "-",
                            now: Date())
                    })
                let title = "Title \(round)"
                async let connected = radio.connect(station, contentType: "audio/mpeg")
                var taken = false
                for _ in 0..<10_000 where !taken {
                    taken = try await radio.setTitle(mount: mount, title)
                    if !taken { await Task.yield() }
                }
                let feed = try await connected
                #expect(taken)
                let stored = try await database.read { db in try await RadioStore(db).announcement(mount: mount) }
                #expect(stored?.title == title, "round \(round): the database says \(stored?.title ?? "nothing")")
                #expect(feed.broadcast.title == title, "round \(round): the broadcast says \(feed.broadcast.title)")
                feed.ended()
            }
            await radio.finishWork()
        }
    }
}
