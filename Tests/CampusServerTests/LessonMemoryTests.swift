import CampusHTTP
import CampusTestSupport
import Foundation
import InputRules
import Storage
import Testing
import Timetable

@testable import CampusServer
@testable import Formats

/// Schedules from memory are the schedules the database gives: the same lessons for every owner
/// and range, irregular day bounds included, and a new version reads again.
@Suite struct LessonMemoryTests {
    @Test(arguments: TestDatabases.kinds)
    func memoryAnswersWhatTheDatabaseAnswers(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            var data = TimetableImport()
            for file in Fixtures.iisFiles { data.merge(try IIS.read(try Fixtures.data("iis/\(file)"), file: file)) }
            _ = try await TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt).store(
                data)
            // Lessons whose bounds Lesson.dateRange cannot hold: only a first day; the last day
            // before the first.
            let (onlyFirst, inverted) = try await database.write { db -> (Int64, Int64) in
                let ids = try await db.raw("SELECT id FROM lessons WHERE date_day IS NULL ORDER BY id LIMIT 2").all()
                    .map { try $0.decode(column: "id", as: Int64.self) }
                let first = try #require(LocalDate(iso: "2023-10-02")).dayNumber
                let last = try #require(LocalDate(iso: "2023-10-04")).dayNumber
                try await db.raw(
                    "UPDATE lessons SET start_day = \(bind: first), end_day = NULL WHERE id = \(bind: ids[0])"
                )
                .run()
                try await db.raw(
                    "UPDATE lessons SET start_day = \(bind: last), end_day = \(bind: first) WHERE id = \(bind: ids[1])"
                ).run()
                return (ids[0], ids[1])
            }
            let zone = try #require(TimeZone(identifier: "Europe/Minsk"))
            let version = VersionBox()
            let remembering = TimetableService(
                database: database, timeZone: zone, now: { Date() }, version: { version.value })
            let reading = TimetableService(database: database, timeZone: zone, now: { Date() })
            let teachers = try await database.read { db in try await TimetableStore(db).teachers() }.prefix(20)
            let rooms = try await database.read { db in try await TimetableStore(db).rooms() }.prefix(20)
            var targets: [TimetableService.Target] = [.group("151004"), .group("010101")]
            targets += teachers.map { .teacher($0.urlID) } + rooms.map { .room($0.id) }
            var monday = try #require(LocalDate(iso: "2023-08-28"))
            var compared = 0
            var sawIrregular: Set<Int64> = []
            for _ in 0..<45 {
                let week = monday...monday.adding(days: 6)
                for target in targets {
                    let fromMemory = try await remembering.lessons(of: [target], in: week).map(\.id)
                    let fromDatabase = try await reading.lessons(of: [target], in: week).map(\.id)
                    #expect(fromMemory == fromDatabase.sorted(), "\(target) \(week)")
                    compared += fromMemory.count
                    sawIrregular.formUnion(Set(fromMemory).intersection([onlyFirst, inverted]))
                }
                monday = monday.adding(days: 7)
            }
            #expect(compared > 1000 && sawIrregular.contains(onlyFirst))
            let both = try await remembering.lessons(of: [.group("151004"), .group("010101")], in: nil).map(\.id)
            #expect(
                both
                    == (try await reading.lessons(of: [.group("151004"), .group("010101")], in: nil).map(\.id)).sorted()
            )

            // A change with a new version is read again; a missing owner stays a 404.
            try await database.write { db in
                try await db.raw("DELETE FROM lesson_groups WHERE group_name = '151004'").run()
            }
            #expect(try await !remembering.lessons(of: [.group("151004")], in: nil).isEmpty)
            version.value = "2"
            #expect(try await remembering.lessons(of: [.group("151004")], in: nil).isEmpty)
            await #expect(throws: Refusal.self) { try await remembering.lessons(of: [.group("nope")], in: nil) }
        }
    }
}

/// A version a test moves on.
final class VersionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = "1"
    var value: String {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
