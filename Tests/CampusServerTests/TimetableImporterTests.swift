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
                    let reading = TimetableImporter(database: batched, logger: TestDatabases.logger, timeZone: .gmt)
                    let got = try await reading.importIIS(
                        files: files.map { Fixtures.url("iis/\($0)").path }, batch: 25)
                    var merged = TimetableImport()
                    for file in files { merged.merge(try IIS.read(try Fixtures.data("iis/\(file)"), file: file)) }
                    let expected = try await TimetableImporter(
                        database: atOnce, logger: TestDatabases.logger, timeZone: .gmt
                    )
                    .store(merged)
                    #expect(got == expected, "round \(round)")
                    #expect(got.lessons > 100, "round \(round)")
                    #expect(try await snapshot(batched) == snapshot(atOnce), "round \(round)")
                }
            }
        }
    }

    /// Teachers' own schedules read after their lessons were stored (and on PostgreSQL linked)
    /// with the group's: the links become the teachers' own, and a teacher a teacher's schedule
    /// adds to a lesson is linked too; the group's schedule read again with a teacher more for its
    /// first lesson (stored with the first batch) links that teacher too. Each import stores what
    /// storing its files at once stores.
    @Test(arguments: TestDatabases.kinds)
    func schedulesAfterTheirLessonsWereStoredAddTheirTeachers(_ kind: Database.Kind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (teacherFiles, helper) = try Self.teacherSchedules(from: "151004.json", in: folder)
        let (again, added) = try Self.groupScheduleAgain("151004.json", in: folder)
        // The later files are merged after the list of employees, which is read beside the
        // group's file: the first batches of the group's lessons are taken before them.
        let first = ["151004.json", "employees.json"].map { Fixtures.url("iis/\($0)").path }
        for (later, teacher, ownLinks) in [(teacherFiles, helper, true), ([again], added, false)] {
            let files = first + later.map(\.path)
            try await TestDatabases.withDatabase(kind) { batched in
                try await TestDatabases.withDatabase(kind) { atOnce in
                    let got = try await TimetableImporter(
                        database: batched, logger: TestDatabases.logger, timeZone: .gmt
                    )
                    .importIIS(files: files, batch: 3)
                    var merged = TimetableImport()
                    for file in files {
                        merged.merge(
                            try IIS.read(try InputFile.read(file), file: URL(fileURLWithPath: file).lastPathComponent))
                    }
                    let expected = try await TimetableImporter(
                        database: atOnce, logger: TestDatabases.logger, timeZone: .gmt
                    )
                    .store(merged)
                    #expect(got == expected)
                    #expect(try await snapshot(batched) == snapshot(atOnce), "\(teacher)")
                    let links = try await snapshot(batched).filter { $0.hasPrefix("lesson_teachers:") }
                    #expect(links.count > 20)
                    #expect(links.contains { $0.contains("url_id=\(teacher) own=no") }, "\(teacher)")
                    #expect(links.contains { $0.hasSuffix("own=yes") } == ownLinks, "\(teacher)")
                    if ownLinks { #expect(links.filter { $0.hasSuffix("own=no") }.count == 1, "\(links)") }
                }
            }
        }
    }

    /// The IIS schedules of the teachers of `file`'s lessons, each with that teacher's lessons of
    /// the group's file; one lesson of the first gets a second teacher that the group's file does
    /// not name there. Answers the files and the second teacher's URL id.
    static func teacherSchedules(from file: String, in folder: URL) throws -> ([URL], String) {
        let json = try #require(try JSONSerialization.jsonObject(with: Fixtures.data("iis/\(file)")) as? [String: Any])
        let days = try #require(json["schedules"] as? [String: [[String: Any]]])
        func teachers(of lesson: [String: Any]) -> [[String: Any]] { lesson["employees"] as? [[String: Any]] ?? [] }
        var records: [String: [String: Any]] = [:]
        for lesson in days.keys.sorted().compactMap({ days[$0] }).joined() {
            for teacher in teachers(of: lesson) { if let id = teacher["urlId"] as? String { records[id] = teacher } }
        }
        let ids = records.keys.sorted()
        let first = try #require(ids.first)
        var helper = ""
        var urls: [URL] = []
        for id in ids {
            var schedule = json
            var added = id != first
            var own: [String: [[String: Any]]] = [:]
            for (day, lessons) in days.sorted(by: { $0.key < $1.key }) {
                own[day] = lessons.filter { lesson in teachers(of: lesson).contains { $0["urlId"] as? String == id } }
                    .map {
                        lesson -> [String: Any] in
                        guard !added else { return lesson }
                        let named = Set(teachers(of: lesson).compactMap { $0["urlId"] as? String })
                        guard let other = ids.first(where: { !named.contains($0) }), let record = records[other] else {
                            return lesson
                        }
                        added = true
                        helper = other
                        var lesson = lesson
                        lesson["employees"] = teachers(of: lesson) + [record]
                        return lesson
                    }
            }
            schedule["schedules"] = own
            schedule["studentGroupDto"] = NSNull()
            schedule["employeeDto"] = records[id]
            schedule["exams"] = [Any]()
            let url = folder.appendingPathComponent("\(id).json")
            try JSONSerialization.data(withJSONObject: schedule).write(to: url)
            urls.append(url)
        }
        return (urls, helper)
    }

    /// The group's schedule `file` again, its first lesson (the first an import stores) with one
    /// more teacher, who does not teach it in `file`. Answers the file and that teacher's URL id.
    static func groupScheduleAgain(_ file: String, in folder: URL) throws -> (URL, String) {
        var json = try #require(try JSONSerialization.jsonObject(with: Fixtures.data("iis/\(file)")) as? [String: Any])
        var days = try #require(json["schedules"] as? [String: [[String: Any]]])
        // The reader takes the days in the order of their names.
        let first = try #require(days.keys.sorted().first { !(days[$0] ?? []).isEmpty })
        var lessons = try #require(days[first])
        let named = Set((lessons[0]["employees"] as? [[String: Any]] ?? []).compactMap { $0["urlId"] as? String })
        let record = try #require(
            days.values.joined().flatMap { $0["employees"] as? [[String: Any]] ?? [] }
                .filter { !named.contains($0["urlId"] as? String ?? "") }
                .min { ($0["urlId"] as? String ?? "") < ($1["urlId"] as? String ?? "") })
        lessons[0]["employees"] = (lessons[0]["employees"] as? [[String: Any]] ?? []) + [record]
        days[first] = lessons
        json["schedules"] = days
        let url = folder.appendingPathComponent("again-\(file)")
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        return (url, try #require(record["urlId"] as? String))
    }

    /// Two imports at once into one PostgreSQL database, of groups that share teachers and rooms:
    /// each stores its own (the teachers and rooms one adds for its lessons are found by the
    /// other), and each says how many lessons it added, not what the other committed meanwhile.
    @Test func twoImportsAtOnceEachStoreTheirOwn() async throws {
        guard TestDatabases.kinds.contains(.postgres) else { return }
        try await TestDatabases.withDatabase(.postgres) { database in
            let importer = TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt)
            let files = [["151004.json", "only_exams.json"], ["010101.json", "with_announcement.json"]].map {
                $0.map { Fixtures.url("iis/\($0)").path }
            }
            async let one = importer.importIIS(files: files[0], batch: 5)
            async let two = importer.importIIS(files: files[1], batch: 5)
            let (first, second) = try await (one, two)
            #expect(first.lessonsAdded == first.lessons && first.lessons > 0, "\(first)")
            #expect(second.lessonsAdded == second.lessons && second.lessons > 0, "\(second)")
            let counts = try await database.read { db in try await TimetableStore(db).counts() }
            #expect(counts.lessons == first.lessons + second.lessons)
            let unnamed = try await database.read { db in
                try await db.raw("SELECT COUNT(*) AS n FROM teachers WHERE first_name = ''").first(
                    decodingColumn: "n", as: Int.self)
            }
            #expect(unnamed == 0)
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
            let importer = TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt)
            let files = Fixtures.iisFiles.map { Fixtures.url("iis/\($0)").path } + [bad.path]
            await #expect(throws: (any Error).self) { try await importer.importIIS(files: files, batch: 10) }
            #expect(try await snapshot(database).filter { $0.hasPrefix("lessons:") }.isEmpty)
        }
    }
}
