import Formats
import SQLKit
import SharedHelpers
import Timetable

/// An import's big writes: its lessons and their links to groups, teachers and rooms. SQLite takes
/// them as multi-row INSERTs of 1,000 rows. PostgreSQL takes each table's rows in one statement
/// of 10,000 rows that travel as bound arrays (`unnest`) or, for the lessons with their NULLs, as
/// one bound JSON document (`json_to_recordset`): parsing and binding 1,000-row VALUES lists was
/// a fifth of the server's time in an import, and building them most of the importer's after
/// reading the files (docs/BENCHMARKS.md).
extension TimetableStore {
    /// A lesson's link to a group, a teacher or a room (each one at most once in an import).
    struct GroupLink {
        var lesson: Int64
        var group: String
    }

    struct TeacherLink {
        var lesson: Int64
        var teacher: Int64
        var fromTeacherSchedule: Bool
    }

    struct RoomLink {
        var lesson: Int64
        var room: Int64
    }

    /// A lesson and one of its teachers (a link's key).
    struct LessonTeacher: Hashable, Sendable {
        var lesson: Int64
        var teacher: Int64
    }

    /// Rows per PostgreSQL statement of an import.
    public static let bulkChunk = 10_000

    var takesBulkRows: Bool { db.dialect.name == "postgresql" }

    /// The lessons' row ids by identity, and on PostgreSQL which of them this import added, with
    /// what ``linkAddedLessons(_:stored:now:)`` wrote for them: their teacher links (with
    /// `from_teacher_schedule`), and the teachers it had to add before the import's directory
    /// was written, which the directory must then hold.
    public struct StoredLessons: Sendable {
        var ids: [String: Int64] = [:]
        var added = Set<Int64>()
        var teacherLinks: [LessonTeacher: Bool] = [:]
        var placeholderTeachers = Set<String>()

        /// Takes what another batch stored.
        mutating func merge(_ batch: StoredLessons) {
            ids.merge(batch.ids) { $1 }
            added.formUnion(batch.added)
            teacherLinks.merge(batch.teacherLinks) { $1 }
            placeholderTeachers.formUnion(batch.placeholderTeachers)
        }

        /// Takes a statement's rows: an id and identity each, or on PostgreSQL one row of arrays.
        mutating func take(_ rows: [any SQLRow], arrays: Bool) throws {
            for row in rows {
                guard arrays else {
                    ids[try row.decode(column: "identity_hash", as: String.self)] =
                        try row.decode(column: "id", as: Int64.self)
                    continue
                }
                let rowIDs = try row.decode(column: "id", as: [Int64]?.self) ?? []
                let hashes = try row.decode(column: "identity_hash", as: [String]?.self) ?? []
                let inserted = try row.decode(column: "added", as: [Bool]?.self) ?? []
                guard rowIDs.count == hashes.count, rowIDs.count == inserted.count else {
                    throw TimetableStore.ImportError(detail: "a lesson was not stored.")
                }
                for (index, id) in rowIDs.enumerated() {
                    ids[hashes[index]] = id
                    if inserted[index] { added.insert(id) }
                }
            }
        }
    }

    /// Stores lessons given with their identity hashes (a new identity is added, a known one gets
    /// the new full subject and note) and answers each identity's row id.
    func storeLessons(_ lessons: [(String, ImportedLesson)]) async throws -> StoredLessons {
        var stored = StoredLessons()
        stored.ids.reserveCapacity(lessons.count)
        let returning: SQLQueryString = """
             ON CONFLICT (identity_hash) DO UPDATE SET subject_full = excluded.subject_full,
             note = excluded.note RETURNING id, identity_hash
            """
        let columns = """
            INSERT INTO lessons (identity_hash, subject, subject_full, type_id, start_minute, end_minute, weekday,
            weeks, subgroup, start_day, end_day, date_day, note, announcement, exam)
            """
        let db = db
        let bulk = takesBulkRows
        // One statement runs while the next is written and the last one's ids are read.
        try await withThrowingTaskGroup(of: [any SQLRow].self) { running in
            for rows in lessons.chunked(bulk ? Self.bulkChunk : Self.chunk) {
                var query: SQLQueryString
                if bulk {
                    // The ids come back as one row of arrays (10,000 rows took PostgresNIO longer
                    // than the statement); `xmax = 0`: the row was inserted, not updated. A known
                    // lesson whose full subject and note are as stored is not written again
                    // (most of a repeated import): its id is read (`kept` sees the rows as they
                    // were before the statement; it looks up only the identities `stored` did not
                    // return, none in a first import).
                    query = """
                        WITH r AS (SELECT * FROM json_to_recordset(\(bind: Self.json(rows))::json) AS r(h text,
                        s text, f text, t text, a integer, b integer, d integer, w integer, g integer, p integer,
                        q integer, o integer, n text, x boolean, e boolean)),
                        stored AS (\(unsafeRaw: columns) SELECT h, s, f, t, a, b, d, w, g, p, q, o, n, x, e FROM r
                        ON CONFLICT (identity_hash) DO UPDATE SET subject_full = excluded.subject_full,
                        note = excluded.note WHERE (lessons.subject_full, lessons.note)
                        IS DISTINCT FROM (excluded.subject_full, excluded.note)
                        RETURNING id, identity_hash, (xmax = 0) AS added),
                        kept AS (SELECT l.id, l.identity_hash, FALSE AS added FROM r JOIN lessons AS l ON l.identity_hash = r.h
                        WHERE NOT EXISTS (SELECT 1 FROM stored WHERE stored.identity_hash = r.h)),
                        every AS (SELECT * FROM stored UNION ALL SELECT * FROM kept)
                        SELECT array_agg(id) AS id, array_agg(identity_hash) AS identity_hash,
                        array_agg(added) AS added FROM every
                        """
                } else {
                    query = "\(unsafeRaw: columns) VALUES "
                    query += Self.values(
                        rows.map { key, lesson -> [(any Encodable & Sendable)?] in
                            [
                                key, lesson.subject, lesson.subjectFullName, lesson.typeID, lesson.start.minutes,
                                lesson.end.minutes, lesson.weekday?.rawValue, Self.weekMask(lesson), lesson.subgroup,
                                lesson.dateRange?.lowerBound.dayNumber, lesson.dateRange?.upperBound.dayNumber,
                                lesson.date?.dayNumber, lesson.note, lesson.isAnnouncement, lesson.isExam,
                            ]
                        })
                }
                if !bulk { query += returning }
                let previous = try await running.next()
                running.addTask { [query] in try await db.raw(query).all() }
                if let previous { try stored.take(previous, arrays: bulk) }
            }
            while let rows = try await running.next() { try stored.take(rows, arrays: bulk) }
        }
        return stored
    }

    /// Writes links: those of lessons this import added cannot be stored yet (nobody else sees
    /// the new rows before the import commits), so they are plain INSERTs; the others may meet a
    /// stored link and go through `conflict`.
    private func insertLinks<Link>(
        _ links: [Link], of lesson: (Link) -> Int64, added: Set<Int64>, conflict: SQLQueryString,
        _ statement: (ArraySlice<Link>) -> SQLQueryString
    ) async throws {
        var fresh: [Link] = []
        var known: [Link] = []
        for link in links { if added.contains(lesson(link)) { fresh.append(link) } else { known.append(link) } }
        for part in fresh.chunked(Self.bulkChunk) { try await db.raw(statement(part)).run() }
        for part in known.chunked(Self.bulkChunk) {
            try await db.raw(statement(part) + " " + conflict).run()
        }
    }

    static func weekMask(_ lesson: ImportedLesson) -> Int { lesson.weeks.reduce(0) { $0 | (1 << $1) } }

    /// The lessons as a JSON array of objects with one-letter keys (an absent key is NULL).
    static func json(_ rows: some Sequence<(String, ImportedLesson)>) -> String {
        var writer = JSONWriter(capacity: 1 << 20)
        writer.array(rows) { writer, row in
            let (key, lesson) = row
            writer.object { writer in
                writer.field("h", key)
                writer.field("s", lesson.subject)
                writer.field("f", lesson.subjectFullName)
                writer.field("t", lesson.typeID)
                writer.field("a", lesson.start.minutes)
                writer.field("b", lesson.end.minutes)
                writer.field("d", lesson.weekday?.rawValue)
                writer.field("w", weekMask(lesson))
                writer.field("g", lesson.subgroup)
                writer.field("p", lesson.dateRange?.lowerBound.dayNumber)
                writer.field("q", lesson.dateRange?.upperBound.dayNumber)
                writer.field("o", lesson.date?.dayNumber)
                writer.field("n", lesson.note)
                writer.field("x", lesson.isAnnouncement)
                writer.field("e", lesson.isExam)
            }
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Replaces the links of the groups whose schedules an import holds with the import's group
    /// links. On PostgreSQL the links the import keeps stay: the stale ones are deleted and the
    /// others inserted, and an insert that meets its stored link writes nothing and checks no
    /// foreign key (deleting and writing them all again was most of a repeated import's time).
    /// There the links of the lessons the import added were written with them
    /// (``linkAddedLessons(_:stored:now:)``) and are never stale: `links` holds the other lessons'.
    func replaceLinks(ofGroups owners: [String], with links: [GroupLink], added: Set<Int64>) async throws {
        guard takesBulkRows else {
            try await deleteWhere("lesson_groups", column: "group_name", in: owners)
            return try await insert(links, added: added)
        }
        try await deleteStale(
            "lesson_groups",
            in: "o.group_name = ANY(\(bind: owners)) AND NOT (o.lesson_id = ANY(\(bind: Array(added))))",
            keeping: links.map(\.lesson), "group_name", links.map(\.group), as: "text[]")
        try await insert(links, added: added)
    }

    /// Replaces the room links of the import's lessons that it did not add (`lessons`; on
    /// PostgreSQL those it added were linked with them) with its room links, as
    /// ``replaceLinks(ofGroups:with:added:)`` does for groups.
    func replaceLinks(ofLessons lessons: [Int64], with links: [RoomLink], added: Set<Int64>) async throws {
        guard takesBulkRows else {
            try await deleteWhere("lesson_rooms", column: "lesson_id", in: lessons)
            return try await insert(links, added: added)
        }
        try await deleteStale(
            "lesson_rooms", in: "o.lesson_id = ANY(\(bind: lessons))",
            keeping: links.map(\.lesson), "room_id", links.map(\.room), as: "bigint[]")
        try await insert(links, added: added)
    }

    /// Deletes the links of `table` in `scope` (rows as `o`) that are not among the import's
    /// links of known lessons: `lessons[i]` with `others[i]` in `column` (an array of SQL `type`).
    private func deleteStale(
        _ table: String, in scope: SQLQueryString, keeping lessons: [Int64], _ column: String,
        _ others: some Encodable & Sendable, as type: String
    ) async throws {
        try await db.raw(
            """
            DELETE FROM \(unsafeRaw: table) AS o WHERE \(scope) AND NOT EXISTS (SELECT 1 FROM
            unnest(\(bind: lessons)::bigint[], \(bind: others)::\(unsafeRaw: type)) AS n(l, x)
            WHERE n.l = o.lesson_id AND n.x = o.\(unsafeRaw: column))
            """
        ).run()
    }

    func insert(_ links: [GroupLink], added: Set<Int64>) async throws {
        guard takesBulkRows else {
            return try await insert(
                "lesson_groups", columns: ["lesson_id", "group_name"], rows: links.map { [$0.lesson, $0.group] },
                ignoringConflicts: true)
        }
        try await insertLinks(links, of: \.lesson, added: added, conflict: "ON CONFLICT DO NOTHING") { part in
            """
            INSERT INTO lesson_groups (lesson_id, group_name)
            SELECT * FROM unnest(\(bind: part.map(\.lesson))::bigint[], \(bind: part.map(\.group))::text[])
            """
        }
    }

    /// Replaces teacher links as an import does: the links from the owners' own schedules
    /// (`from_teacher_schedule`) and the other links of the group schedules' lessons give way to
    /// the import's; a link that stays keeps `from_teacher_schedule` if it had it and is not one
    /// of those replaced. On PostgreSQL the links that stay are not deleted and written again (as
    /// ``replaceLinks(ofGroups:with:added:)``): a link of the replaced kinds takes the import's
    /// flag, another one keeps a flag it had, which is what deleting it first gave.
    func replaceLinks(
        ofTeachers owners: [Int64], groupScheduleLessons: [Int64], with links: [TeacherLink], added: Set<Int64>
    ) async throws {
        guard takesBulkRows else {
            try await deleteWhere(
                "lesson_teachers", column: "teacher_id", in: owners, and: "from_teacher_schedule = \(bind: true)")
            try await deleteWhere(
                "lesson_teachers", column: "lesson_id", in: groupScheduleLessons,
                and: "from_teacher_schedule = \(bind: false)")
            return try await insert(
                "lesson_teachers", columns: ["lesson_id", "teacher_id", "from_teacher_schedule"],
                rows: links.map { [$0.lesson, $0.teacher, $0.fromTeacherSchedule] },
                conflict: """
                    ON CONFLICT (lesson_id, teacher_id) DO UPDATE SET
                    from_teacher_schedule = (lesson_teachers.from_teacher_schedule OR excluded.from_teacher_schedule)
                    """)
        }
        // The added lessons' links were written with them (``linkAddedLessons(_:stored:now:)``) and
        // are never stale; `links` holds only what later schedules gave them.
        let kept = links.filter { !added.contains($0.lesson) }
        let known = groupScheduleLessons.filter { !added.contains($0) }
        for scope: SQLQueryString in [
            "o.teacher_id = ANY(\(bind: owners)) AND o.from_teacher_schedule AND NOT (o.lesson_id = ANY(\(bind: Array(added))))",
            "o.lesson_id = ANY(\(bind: known)) AND NOT o.from_teacher_schedule",
        ] {
            try await deleteStale(
                "lesson_teachers", in: scope, keeping: kept.map(\.lesson), "teacher_id", kept.map(\.teacher),
                as: "bigint[]")
        }
        // A stored link without the flag takes the import's; one with it keeps it unless its
        // teacher's schedule is in the import.
        try await insert(
            links, added: [],
            conflict: """
                ON CONFLICT (lesson_id, teacher_id) DO UPDATE SET from_teacher_schedule = excluded.from_teacher_schedule
                WHERE (NOT lesson_teachers.from_teacher_schedule AND excluded.from_teacher_schedule)
                OR (lesson_teachers.from_teacher_schedule AND NOT excluded.from_teacher_schedule
                AND lesson_teachers.teacher_id = ANY(\(bind: owners)))
                """)
    }

    /// Inserts teacher links (PostgreSQL): those of `added` lessons as they are, the others
    /// through `conflict`.
    func insert(_ links: [TeacherLink], added: Set<Int64>, conflict: SQLQueryString) async throws {
        try await insertLinks(links, of: \.lesson, added: added, conflict: conflict) { part in
            """
            INSERT INTO lesson_teachers (lesson_id, teacher_id, from_teacher_schedule)
            SELECT * FROM unnest(\(bind: part.map(\.lesson))::bigint[],
            \(bind: part.map(\.teacher))::bigint[], \(bind: part.map(\.fromTeacherSchedule))::boolean[])
            """
        }
    }

    func insert(_ links: [RoomLink], added: Set<Int64>) async throws {
        guard takesBulkRows else {
            return try await insert(
                "lesson_rooms", columns: ["lesson_id", "room_id"], rows: links.map { [$0.lesson, $0.room] },
                ignoringConflicts: true)
        }
        try await insertLinks(links, of: \.lesson, added: added, conflict: "ON CONFLICT DO NOTHING") { part in
            """
            INSERT INTO lesson_rooms (lesson_id, room_id)
            SELECT * FROM unnest(\(bind: part.map(\.lesson))::bigint[], \(bind: part.map(\.room))::bigint[])
            """
        }
    }

    /// Deletes the rows of `table` whose `column` is one of `values` (and that match `condition`).
    func deleteWhere<T: Encodable & Sendable>(
        _ table: String, column: String, in values: [T], and condition: SQLQueryString? = nil
    ) async throws {
        let extra: SQLQueryString = condition.map { " AND " + $0 } ?? ""
        if takesBulkRows {
            for part in values.chunked(Self.bulkChunk) {
                try await db.raw(
                    "DELETE FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) = ANY(\(bind: Array(part)))\(extra)"
                ).run()
            }
            return
        }
        for part in values.chunked(Self.chunk) {
            try await db.raw(
                "DELETE FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) IN (\(list(Array(part))))\(extra)"
            ).run()
        }
    }
}
