import CampusTestSupport
import Foundation
import SQLKit
import Storage
import Testing

/// A lesson's links to its groups, teachers and rooms name only rows that exist and go with
/// them: SQLite's foreign keys, PostgreSQL's statement triggers (migration step 25), the same
/// rules on both.
@Suite struct LessonLinkReferenceTests {
    @Test(arguments: TestDatabases.kinds)
    func linksNameOnlyWhatExistsAndGoWithIt(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            try await Self.addLessons(to: database)
            let refused = [
                "INSERT INTO lesson_groups (lesson_id, group_name) VALUES (2, 'g2'), (9, 'g1')",
                "INSERT INTO lesson_groups (lesson_id, group_name) VALUES (2, 'g2'), (1, 'nowhere')",
                "INSERT INTO lesson_teachers (lesson_id, teacher_id, from_teacher_schedule) VALUES (9, 1, FALSE)",
                "INSERT INTO lesson_teachers (lesson_id, teacher_id, from_teacher_schedule) VALUES (2, 9, FALSE)",
                "INSERT INTO lesson_rooms (lesson_id, room_id) VALUES (9, 1)",
                "INSERT INTO lesson_rooms (lesson_id, room_id) VALUES (2, 9)",
                "UPDATE lesson_groups SET lesson_id = 9 WHERE lesson_id = 1",
                "UPDATE lesson_teachers SET teacher_id = 9",
                "UPDATE study_groups SET name = 'g9' WHERE name = 'g1'",
                "UPDATE teachers SET id = 9",
                "UPDATE lessons SET id = 9 WHERE id = 1",
            ]
            for statement in refused {
                await #expect(throws: (any Error).self, "\(statement)") {
                    try await database.write { db in try await db.raw(SQLQueryString(statement)).run() }
                }
            }
            #expect(try await Self.links(in: database) == ["1 g1", "1 t1", "1 r1", "2 g1"])

            try await database.write { db in
                try await db.raw("UPDATE study_groups SET name = 'g3' WHERE name = 'g2'").run()
                try await db.raw("INSERT INTO lesson_groups (lesson_id, group_name) VALUES (2, 'g3')").run()
                try await db.raw("DELETE FROM lessons WHERE id = 1").run()
            }
            #expect(try await Self.links(in: database) == ["2 g1", "2 g3"])
            try await database.write { db in try await db.raw("DELETE FROM study_groups WHERE name = 'g1'").run() }
            #expect(try await Self.links(in: database) == ["2 g3"])
            if kind == .postgres {
                await #expect(throws: (any Error).self) {
                    try await database.write { db in try await db.raw("TRUNCATE lessons CASCADE").run() }
                }
            }
        }
    }

    /// A link written while its lesson is deleted by another transaction: whichever comes
    /// second waits for the first, as a foreign key's lock makes it, and no link outlives its
    /// lesson. Each case fails without the lock (a check that only reads).
    @Test func concurrentDeletesLeaveNoLinkWithoutItsLesson() async throws {
        guard TestDatabases.kinds.contains(.postgres) else { return }
        try await TestDatabases.withDatabase(.postgres) { database in
            try await Self.addLessons(to: database)
            // The delete first: the link, written while the delete is not committed, fails.
            try await Self.whileUncommitted("DELETE FROM lessons WHERE id = 2", in: database) {
                await #expect(throws: (any Error).self) {
                    try await database.write { db in
                        try await db.raw("INSERT INTO lesson_groups (lesson_id, group_name) VALUES (2, 'g2')").run()
                    }
                }
            }
            // The link first: the delete waits for it to commit, then deletes it too.
            try await Self.whileUncommitted(
                "INSERT INTO lesson_groups (lesson_id, group_name) VALUES (1, 'g2')", in: database
            ) {
                try await database.write { db in try await db.raw("DELETE FROM lessons WHERE id = 1").run() }
            }
            #expect(try await Self.links(in: database) == [])
        }
    }

    /// Runs `body` while a transaction that ran `statement` is open; the transaction commits
    /// 300 ms later (`body` may wait for it).
    static func whileUncommitted(
        _ statement: String, in database: Database, _ body: () async throws -> Void
    ) async throws {
        let (ran, ranNow) = AsyncStream<Void>.makeStream()
        async let holding: Void = database.write { db in
            defer { ranNow.finish() }
            try await db.raw(SQLQueryString(statement)).run()
            ranNow.yield()
            try await Task.sleep(for: .milliseconds(300))
        }
        for await _ in ran { break }
        try await body()
        try await holding
    }

    /// Two groups, two lessons, a teacher and a room; lesson 1 has a link of each kind, lesson 2
    /// is in group g1.
    static func addLessons(to database: Database) async throws {
        try await database.write { db in
            try await db.raw("INSERT INTO study_groups (name, updated_at) VALUES ('g1', 0), ('g2', 0)").run()
            try await db.raw(
                """
                INSERT INTO lessons (id, identity_hash, subject, start_minute, end_minute, weeks, subgroup,
                                     announcement, exam)
                VALUES (1, 'a', 'Maths', 540, 635, 15, 0, FALSE, FALSE), (2, 'b', 'Physics', 645, 740, 15, 0, FALSE, FALSE)
                """
            ).run()
            try await db.raw(
                "INSERT INTO teachers (id, url_id, first_name, last_name, updated_at) VALUES (1, 't', 'A', 'B', 0)"
            ).run()
            try await db.raw("INSERT INTO rooms (id, name, building_key, off_campus) VALUES (1, '101', 1, FALSE)").run()
            try await db.raw("INSERT INTO lesson_groups (lesson_id, group_name) VALUES (1, 'g1'), (2, 'g1')").run()
            try await db.raw(
                "INSERT INTO lesson_teachers (lesson_id, teacher_id, from_teacher_schedule) VALUES (1, 1, FALSE)"
            ).run()
            try await db.raw("INSERT INTO lesson_rooms (lesson_id, room_id) VALUES (1, 1)").run()
        }
    }

    /// Every link as "lesson group", "lesson tTEACHER" or "lesson rROOM", ordered by lesson, then groups, teachers, rooms.
    static func links(in database: Database) async throws -> [String] {
        try await database.read { db in
            try await db.raw(
                """
                SELECT lesson_id, group_name AS key, 1 AS kind FROM lesson_groups
                UNION ALL SELECT lesson_id, 't' || teacher_id, 2 FROM lesson_teachers
                UNION ALL SELECT lesson_id, 'r' || room_id, 3 FROM lesson_rooms
                ORDER BY 1, 3, 2
                """
            ).all().map { row in
                "\(try row.decode(column: "lesson_id", as: Int64.self)) \(try row.decode(column: "key", as: String.self))"
            }
        }
    }
}
