import CampusTestSupport
import Foundation
import SQLKit
import Testing
import Timetable

@testable import Storage

/// PostgreSQL replaces an import's links by deleting only the stale ones and inserting the rest
/// with conflict rules; SQLite deletes them all and inserts them again. A run of changing
/// imports (group and teacher schedules, lessons several teachers give, notes) must leave both
/// databases with the same lessons and links after every import.
@Suite struct RepeatedImportTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let groups = ["100001", "100002", "100003"]
    let teachers = ["t-one", "t-two", "t-three"]

    /// A small deterministic generator (the same run on both databases and on every machine).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func subset<T>(_ items: [T]) -> [T] { items.filter { _ in next(2) == 0 } }
    }

    /// Eight lessons with fixed identities (subject, time, rooms, groups); teachers and notes
    /// change from import to import.
    func lessonPool() -> [ImportedLesson] {
        (0..<8).map { index in
            ImportedLesson(
                subject: "Предмет \(index)", typeID: index % 2 == 0 ? "ЛК" : "ПЗ",
                start: WallTime(minutes: 480 + index * 100)!, end: WallTime(minutes: 560 + index * 100)!,
                weekday: .monday, rooms: [RoomKey(name: "\(200 + index % 3)", building: 1)],
                groups: index % 3 == 0 ? groups : [groups[index % 3]])
        }
    }

    func makeImport(_ generator: inout Generator) -> TimetableImport {
        var data = TimetableImport()
        data.teachers = teachers.map { ImportedTeacher(urlID: $0, firstName: "Имя", lastName: $0) }
        var pool = lessonPool()
        for index in pool.indices {
            pool[index].teachers = generator.subset(teachers)
            if generator.next(3) == 0 { pool[index].note = "заметка \(generator.next(2))" }
        }
        for group in generator.subset(groups) {
            let lessons = generator.subset(pool.filter { $0.groups.contains(group) })
            data.schedules.append(ImportedSchedule(owner: .group(group), lessons: lessons))
        }
        for teacher in generator.subset(teachers) {
            var lessons = generator.subset(pool)
            for index in lessons.indices where !lessons[index].teachers.contains(teacher) {
                lessons[index].teachers.append(teacher)
            }
            data.schedules.append(ImportedSchedule(owner: .teacher(teacher), lessons: lessons))
        }
        return data
    }

    /// Lessons and links by natural keys (identity hash, group, teacher, room name), sorted.
    func state(_ database: Database) async throws -> [String] {
        let queries: [(String, SQLQueryString)] = [
            ("lesson", "SELECT identity_hash, COALESCE(note, '∅') AS other FROM lessons"),
            (
                "group",
                "SELECT l.identity_hash, g.group_name AS other FROM lesson_groups g JOIN lessons l ON l.id = g.lesson_id"
            ),
            (
                "teacher",
                """
                SELECT l.identity_hash, t.url_id || ' ' || CASE WHEN lt.from_teacher_schedule THEN 'true' ELSE 'false' END
                AS other FROM lesson_teachers lt JOIN lessons l ON l.id = lt.lesson_id JOIN teachers t ON t.id = lt.teacher_id
                """
            ),
            (
                "room",
                """
                SELECT l.identity_hash, r.name AS other FROM lesson_rooms lr JOIN lessons l ON l.id = lr.lesson_id
                JOIN rooms r ON r.id = lr.room_id
                """
            ),
        ]
        return try await database.read { db in
            var lines: [String] = []
            for (kind, query) in queries {
                for row in try await db.raw(query).all() {
                    lines.append(
                        "\(kind) \(try row.decode(column: "identity_hash", as: String.self)) "
                            + (try row.decode(column: "other", as: String.self)))
                }
            }
            return lines.sorted()
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func postgresLinksAsSQLiteAfterEveryImport(_ seed: UInt64) async throws {
        guard TestDatabases.kinds.contains(.postgres) else { return }
        var generator = Generator(state: seed)
        let imports = (0..<10).map { _ in makeImport(&generator) }
        try await TestDatabases.withDatabase(.sqlite) { sqlite in
            try await TestDatabases.withDatabase(.postgres) { postgres in
                var flags = Set<Bool>()
                for (step, data) in imports.enumerated() {
                    let onSQLite = try await sqlite.write { db in
                        try await TimetableStore(db).store(data, now: now, timeZone: .gmt)
                    }
                    let onPostgres = try await postgres.write { db in
                        try await TimetableStore(db).store(data, now: now, timeZone: .gmt)
                    }
                    #expect(onSQLite == onPostgres, "seed \(seed), import \(step)")
                    let expected = try await state(sqlite)
                    #expect(try await state(postgres) == expected, "seed \(seed), import \(step)")
                    for line in expected where line.hasPrefix("teacher ") { flags.insert(line.hasSuffix("true")) }
                }
                #expect(flags == [true, false], "the run holds links with and without the teacher's schedule")
            }
        }
    }
}
