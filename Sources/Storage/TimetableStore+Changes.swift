import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// A group, teacher or room whose schedule changed.
public enum ChangeTarget: Sendable, Hashable {
    case group(String)
    /// A teacher by URL id.
    case teacher(String)
    /// A room by id.
    case room(Int64)

    public var kind: String {
        switch self {
        case .group: "group"
        case .teacher: "teacher"
        case .room: "room"
        }
    }

    public var key: String {
        switch self {
        case .group(let name): name
        case .teacher(let urlID): urlID
        case .room(let id): String(id)
        }
    }
}

/// A kept schedule change: what changed, for which group, teacher or room, and when an import
/// stored it.
public struct StoredScheduleChange: Sendable, Hashable {
    public var id: Int64
    public var target: ChangeTarget
    public var change: ScheduleChange
    public var seenAt: Date
}

/// Schedule changes, kept (issue 39). An import copies the group and teacher links when it
/// starts (``keepLinksBefore()``); once it has replaced them, the groups and teachers whose links
/// differ are the ones whose schedules may have changed (a lesson's time, days and rooms are part
/// of its identity, so any other change gives it a new row; only its groups and teachers change
/// in place), and the rooms of the lessons whose links changed. A room's lessons before are its
/// lessons now but those the import added (row ids after the last one before it), after those
/// but the ones it is about to delete. Their occurrences in the eight weeks ahead, before and after, are compared
/// (``ScheduleChange/between(_:_:)``) and each change is written once per target it concerns.
extension TimetableStore {
    /// How many days ahead changes are kept: eight weeks.
    public static let changeWindowDays = 56

    private static let linkTables = [
        ("lesson_groups", "group_name"), ("lesson_teachers", "teacher_id"), ("lesson_rooms", "room_id"),
    ]
    /// The links an import copies: a lesson's rooms never change while its row stays.
    private static let keptTables = Array(linkTables.prefix(2))

    /// Copies the links as they are before an import changes them, into temporary tables of the
    /// import's transaction (`before_lesson_groups` …).
    func keepLinksBefore() async throws {
        for (table, column) in Self.keptTables {
            try await db.raw("DROP TABLE IF EXISTS before_\(unsafeRaw: table)").run()
            let drop: SQLQueryString = takesBulkRows ? "ON COMMIT DROP" : ""
            try await db.raw(
                """
                CREATE TEMPORARY TABLE before_\(unsafeRaw: table) \(drop) AS
                SELECT lesson_id, \(unsafeRaw: column) AS target FROM \(unsafeRaw: table)
                """
            ).run()
        }
    }

    /// Drops the copies ``keepLinksBefore()`` made (SQLite keeps temporary tables for the
    /// connection's life; PostgreSQL drops them at commit).
    func dropLinksBefore() async throws {
        guard !takesBulkRows else { return }
        for (table, _) in Self.keptTables {
            try await db.raw("DROP TABLE IF EXISTS before_\(unsafeRaw: table)").run()
        }
    }

    /// Records the changes of the occurrences from `today` to eight weeks ahead between the
    /// links ``keepLinksBefore()`` kept and the links now, leaving out the lessons `gone` (which
    /// the import is about to delete); lessons with ids above `lastIDBefore` are the import's
    /// new ones. Answers how many changes it wrote.
    func recordChanges(gone: Set<Int64>, lastIDBefore: Int64, today: LocalDate, now: Date) async throws -> Int {
        let calendar = try await SettingsStore(db).value(.studyCalendar).flatMap(StudyCalendar.init(setting:)) ?? .bsuir
        let window = today...today.adding(days: Self.changeWindowDays - 1)

        // Which links changed: the targets they name, and the lessons whose teachers changed.
        var touched: [String: Set<String>] = [:]
        var teachersChanged = Set<Int64>()
        var linksChanged = Set<Int64>()
        for (table, column) in Self.keptTables {
            for row in try await db.raw(
                """
                SELECT lesson_id, target FROM (SELECT lesson_id, \(unsafeRaw: column) AS target FROM \(unsafeRaw: table)
                EXCEPT SELECT lesson_id, target FROM before_\(unsafeRaw: table)) AS added
                UNION SELECT lesson_id, target FROM (SELECT lesson_id, target FROM before_\(unsafeRaw: table)
                EXCEPT SELECT lesson_id, \(unsafeRaw: column) FROM \(unsafeRaw: table)) AS removed
                """
            ).all() {
                let lesson = try row.decode(column: "lesson_id", as: Int64.self)
                let target = try Self.target(row, column)
                touched[table, default: []].insert(target)
                linksChanged.insert(lesson)
                if table == "lesson_teachers" { teachersChanged.insert(lesson) }
            }
        }
        // A lesson that kept its row but not its teachers changed for its groups too; one about
        // to go (its teacher and room links stay until then) is gone for all it names; the rooms
        // of every lesson whose links changed may have changed.
        let stayed = teachersChanged.subtracting(gone)
        for (lessons, tables) in [
            (stayed, ["lesson_groups"]), (gone, ["lesson_teachers"]), (linksChanged.union(gone), ["lesson_rooms"]),
        ] {
            try await touch(Array(lessons), in: tables, &touched)
        }
        guard touched.values.contains(where: { !$0.isEmpty }) else { return 0 }

        // Each touched target's lessons before and after.
        var before: [ChangeTarget: Set<Int64>] = [:]
        var after: [ChangeTarget: Set<Int64>] = [:]
        var teacherKeys: [Int64: String] = [:]
        for (table, column) in Self.linkTables {
            let targets = Array(touched[table] ?? [])
            guard !targets.isEmpty else { continue }
            for part in targets.chunked(Self.chunk) {
                let keys: SQLQueryString =
                    column == "group_name" ? list(Array(part)) : list(Array(part).compactMap { Int64($0) })
                // Rooms from their links now (``recordChanges(gone:lastIDBefore:today:now:)``).
                let rooms = table == "lesson_rooms"
                for (source, live) in [(rooms ? table : "before_\(table)", false), (table, true)] {
                    let select: SQLQueryString = live || rooms ? "\(unsafeRaw: column) AS target" : "target"
                    let filter: SQLQueryString = live || rooms ? "\(unsafeRaw: column)" : "target"
                    for row in try await db.raw(
                        "SELECT lesson_id, \(select) FROM \(unsafeRaw: source) WHERE \(filter) IN (\(keys))"
                    ).all() {
                        let lesson = try row.decode(column: "lesson_id", as: Int64.self)
                        if live, gone.contains(lesson) { continue }
                        if rooms, !live, lesson > lastIDBefore { continue }
                        let target: ChangeTarget
                        switch table {
                        case "lesson_groups": target = .group(try row.decode(column: "target", as: String.self))
                        case "lesson_teachers":
                            let id = try row.decode(column: "target", as: Int64.self)
                            teacherKeys[id] = ""
                            target = .teacher(String(id))
                        default: target = .room(try row.decode(column: "target", as: Int64.self))
                        }
                        if live {
                            after[target, default: []].insert(lesson)
                        } else {
                            before[target, default: []].insert(lesson)
                        }
                    }
                }
            }
        }
        // Teachers are kept by URL id.
        let teacherIDs = Array(teacherKeys.keys)
        for part in teacherIDs.chunked(Self.chunk) {
            for row in try await db.raw("SELECT id, url_id FROM teachers WHERE id IN (\(list(Array(part))))").all() {
                teacherKeys[try row.decode(column: "id", as: Int64.self)] = try row.decode(
                    column: "url_id", as: String.self)
            }
        }

        // The lessons as they are now, and with the teachers they had for those whose teachers changed.
        let ids = Set(before.values.joined()).union(after.values.joined())
        let lessons = Dictionary(
            uniqueKeysWithValues: try await self.lessons(ids: Array(ids), in: window).map { ($0.id, $0) })
        let earlierTeachers = try await teachersBefore(of: Array(teachersChanged.intersection(lessons.keys)))
        var rows: [[(any Encodable & Sendable)?]] = []
        let seen = now.milliseconds
        // A schedule seen for the first time (a new group, or a room in use from now on) is no
        // change: only targets that had lessons are compared.
        for target in before.keys {
            let stored: ChangeTarget
            if case .teacher(let id) = target {
                guard let key = Int64(id).flatMap({ teacherKeys[$0] }), !key.isEmpty else { continue }
                stored = .teacher(key)
            } else {
                stored = target
            }
            let old = (before[target] ?? []).compactMap { id -> Lesson? in
                guard var lesson = lessons[id] else { return nil }
                if let teachers = earlierTeachers[id] { lesson.teachers = teachers }
                return lesson
            }
            let new = (after[target] ?? []).compactMap { lessons[$0] }
            let changes = ScheduleChange.between(
                Schedule.occurrences(of: old, in: window, calendar: calendar),
                Schedule.occurrences(of: new, in: window, calendar: calendar))
            for change in changes {
                rows.append(Self.row(change, of: stored, seenAt: seen))
            }
        }
        try await insert(
            "schedule_changes",
            columns: [
                "target_kind", "target", "kind", "subject", "type_id", "subgroup", "day", "old_lesson", "old_day",
                "old_start", "old_end", "old_rooms", "old_teachers", "new_lesson", "new_day", "new_start", "new_end",
                "new_rooms", "new_teachers", "seen_at",
            ], rows: rows)
        // Whoever follows these schedules is told by the server (``NotificationStore``), from
        // this list written in the same transaction: an import beside a running server is told too.
        if !rows.isEmpty {
            try await db.raw(
                """
                INSERT INTO change_notices (change_id) SELECT id FROM schedule_changes WHERE seen_at = \(bind: seen)
                ON CONFLICT DO NOTHING
                """
            ).run()
        }
        return rows.count
    }

    /// Adds the targets that `tables` link to these lessons now to `touched` (by table).
    private func touch(_ lessons: [Int64], in tables: [String], _ touched: inout [String: Set<String>]) async throws {
        for part in lessons.chunked(Self.chunk) {
            for (table, column) in Self.linkTables where tables.contains(table) {
                for row in try await db.raw(
                    "SELECT \(unsafeRaw: column) AS target FROM \(unsafeRaw: table) WHERE lesson_id IN (\(list(Array(part))))"
                ).all() {
                    touched[table, default: []].insert(try Self.target(row, column))
                }
            }
        }
    }

    private static func target(_ row: any SQLRow, _ column: String) throws -> String {
        column == "group_name"
            ? try row.decode(column: "target", as: String.self)
            : String(try row.decode(column: "target", as: Int64.self))
    }

    /// Keeps the lessons an import is about to delete (`gone`) in `cancelled_lessons`, with the
    /// groups, teachers and rooms they had when it began, for calendar feeds to cancel their
    /// events (``cancelledLessons(groups:teachers:rooms:since:)``).
    func keepCancelledLessons(_ gone: [Int64], now: Date) async throws {
        let aggregate = takesBulkRows ? "string_agg(%@, E'\\n')" : "group_concat(%@, char(10))"
        func names(_ table: String, _ value: String) -> SQLQueryString {
            let joined = aggregate.replacingOccurrences(of: "%@", with: value)
            return
                "COALESCE((SELECT \(unsafeRaw: joined) FROM before_\(unsafeRaw: table) b WHERE b.lesson_id = l.id), '')"
        }
        let text = takesBulkRows ? "b.target::text" : "CAST(b.target AS TEXT)"
        // A lesson's room links stay until it is deleted.
        let roomText = takesBulkRows ? "r.room_id::text" : "CAST(r.room_id AS TEXT)"
        let rooms: SQLQueryString = """
            COALESCE((SELECT \(unsafeRaw: aggregate.replacingOccurrences(of: "%@", with: roomText))
            FROM lesson_rooms r WHERE r.lesson_id = l.id), '')
            """
        for part in gone.chunked(Self.chunk) {
            try await db.raw(
                """
                INSERT INTO cancelled_lessons (id, subject, subject_full, type_id, start_minute, end_minute, weekday,
                weeks, subgroup, start_day, end_day, date_day, note, announcement, exam, groups, teachers, rooms,
                cancelled_at)
                SELECT l.id, l.subject, l.subject_full, l.type_id, l.start_minute, l.end_minute, l.weekday, l.weeks,
                l.subgroup, l.start_day, l.end_day, l.date_day, l.note, l.announcement, l.exam,
                \(names("lesson_groups", "b.target")), \(names("lesson_teachers", text)),
                \(rooms), \(bind: now.milliseconds)
                FROM lessons l WHERE l.id IN (\(list(Array(part))))
                ON CONFLICT (id) DO NOTHING
                """
            ).run()
        }
    }

    /// The teachers these lessons had when the import began.
    private func teachersBefore(of lessons: [Int64]) async throws -> [Int64: [TeacherReference]] {
        var teachers: [Int64: [TeacherReference]] = [:]
        for lesson in lessons { teachers[lesson] = [] }
        for part in lessons.chunked(Self.chunk) {
            for row in try await db.raw(
                """
                SELECT b.lesson_id, t.url_id, t.first_name, t.middle_name, t.last_name FROM before_lesson_teachers b
                JOIN teachers t ON t.id = b.target WHERE b.lesson_id IN (\(list(Array(part))))
                """
            ).all() {
                teachers[try row.decode(column: "lesson_id", as: Int64.self), default: []].append(
                    try Self.teacherReference(row))
            }
        }
        return teachers
    }

    private static func row(_ change: ScheduleChange, of target: ChangeTarget, seenAt: Int64) -> [(
        any Encodable & Sendable
    )?] {
        let old = change.before
        let new = change.after
        return [
            target.kind, target.key, change.kind.rawValue, change.subject, change.typeID, change.subgroup,
            change.date?.dayNumber ?? 0, change.beforeLesson, old?.date.dayNumber, old?.start.minutes,
            old?.end.minutes, old.map { $0.rooms.joined(separator: "\n") },
            old.map { $0.teachers.joined(separator: "\n") },
            change.afterLesson, new?.date.dayNumber, new?.start.minutes, new?.end.minutes,
            new.map { $0.rooms.joined(separator: "\n") }, new.map { $0.teachers.joined(separator: "\n") }, seenAt,
        ]
    }

    // MARK: Reading

    /// The changes kept for these targets that were seen at `since` or later, newest first (at
    /// most `limit`).
    public func changes(of targets: [ChangeTarget], since: Date, limit: Int) async throws -> [StoredScheduleChange] {
        guard !targets.isEmpty else { return [] }
        let conditions = targets.map { target -> SQLQueryString in
            "(target_kind = \(bind: target.kind) AND target = \(bind: target.key))"
        }
        var query: SQLQueryString = "SELECT * FROM schedule_changes WHERE seen_at >= \(bind: since.milliseconds) AND ("
        query += conditions.joined(separator: " OR ")
        query += ") ORDER BY seen_at DESC, day, id LIMIT \(bind: limit)"
        return try await db.raw(query).all().map(Self.storedChange)
    }

    /// The changes with these ids (those still kept), in the order they were recorded.
    public func changes(ids: [Int64]) async throws -> [StoredScheduleChange] {
        var found: [StoredScheduleChange] = []
        for part in ids.chunked(Self.chunk) {
            found += try await db.raw("SELECT * FROM schedule_changes WHERE id IN (\(list(Array(part))))").all()
                .map(Self.storedChange)
        }
        return found.sorted { $0.id < $1.id }
    }

    private static func storedChange(_ row: any SQLRow) throws -> StoredScheduleChange {
        func slot(_ prefix: String) throws -> ScheduleChange.Slot? {
            guard let day = try row.decode(column: prefix + "_day", as: Int?.self),
                let start = try row.decode(column: prefix + "_start", as: Int?.self).flatMap(WallTime.init(minutes:)),
                let end = try row.decode(column: prefix + "_end", as: Int?.self).flatMap(WallTime.init(minutes:))
            else { return nil }
            func names(_ column: String) throws -> [String] {
                let text = try row.decode(column: prefix + column, as: String?.self) ?? ""
                return text.isEmpty ? [] : text.split(separator: "\n").map(String.init)
            }
            return ScheduleChange.Slot(
                date: LocalDate(dayNumber: day), start: start, end: end,
                rooms: try names("_rooms"), teachers: try names("_teachers"))
        }
        let key = try row.decode(column: "target", as: String.self)
        let target: ChangeTarget
        switch try row.decode(column: "target_kind", as: String.self) {
        case "teacher": target = .teacher(key)
        case "room": target = .room(Int64(key) ?? 0)
        default: target = .group(key)
        }
        let change = ScheduleChange(
            kind: ScheduleChange.Kind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .added,
            subject: try row.decode(column: "subject", as: String.self),
            typeID: try row.decode(column: "type_id", as: String?.self),
            subgroup: try row.decode(column: "subgroup", as: Int.self), before: try slot("old"), after: try slot("new"),
            beforeLesson: try row.decode(column: "old_lesson", as: Int64?.self),
            afterLesson: try row.decode(column: "new_lesson", as: Int64?.self))
        return StoredScheduleChange(
            id: try row.decode(column: "id", as: Int64.self), target: target, change: change,
            seenAt: Date(milliseconds: try row.decode(column: "seen_at", as: Int64.self)))
    }
}
