import CampusTestSupport
import Formats
import Foundation
import Storage
import Testing
import Timetable

@testable import CampusServer

/// `importIIS` stores an import's lessons in batches while it still reads the files: what it
/// stores must be what storing the merged files at once stores.
@Suite struct TimetableImporterTests {
    @Test(arguments: TestDatabases.kinds)
    func lessonsStoredWhileReadingAreThoseOfOneStore(_ kind: Database.Kind) async throws {
        // A schedule twice: the second copy's lessons were stored by an earlier batch.
        let names = Fixtures.iisFiles + ["151004.json"]
        let rounds = [names, names.reversed().filter { $0 != "010101.json" }]
        try await TestDatabases.withDatabase(kind) { batched in
            try await TestDatabases.withDatabase(kind) { atOnce in
                for (round, files) in rounds.enumerated() {
                    let reading = TimetableImporter(database: batched, logger: TestDatabases.logger)
                    let got = try await reading.importIIS(
                        files: files.map { Fixtures.url("iis/\($0)").path }, batch: 25)
                    var merged = TimetableImport()
                    for file in files { merged.merge(try IIS.read(try Fixtures.data("iis/\(file)"), file: file)) }
                    let expected = try await TimetableImporter(database: atOnce, logger: TestDatabases.logger)
                        .store(merged)
                    #expect(got == expected, "round \(round)")
                    #expect(got.lessons > 100, "round \(round)")
                    #expect(try await snapshot(batched) == snapshot(atOnce), "round \(round)")
                }
            }
        }
    }

    /// A file that cannot be read fails the import after lessons were already stored in batches:
    /// nothing of it stays.
    @Test(arguments: TestDatabases.kinds)
    func aBadFileAfterStoredBatchesLeavesNothing(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let bad = folder.appendingPathComponent("broken.json")
            try Data("{\"schedules\": [".utf8).write(to: bad)
            let importer = TimetableImporter(database: database, logger: TestDatabases.logger)
            let files = Fixtures.iisFiles.map { Fixtures.url("iis/\($0)").path } + [bad.path]
            await #expect(throws: (any Error).self) { try await importer.importIIS(files: files, batch: 10) }
            #expect(try await snapshot(database).filter { $0.hasPrefix("lessons:") }.isEmpty)
        }
    }
}
