import Foundation
import SQLKit
import Timetable

/// A lesson's links to its groups and rooms, and, on PostgreSQL, the links of the lessons an
/// import adds written with the batch that adds them, while the importer still reads the next
/// files: after the reading the database had been writing the import's 114,500 links on one core
/// while the importer, on the other, waited (docs/BENCHMARKS.md). A lesson's groups and rooms are
/// part of its identity, so a lesson the import adds has them for good, whichever schedules name
/// it later; its teachers and their `from_teacher_schedule` may grow with later schedules, which
/// the rest of the import adds.
extension TimetableStore {
    /// A lesson's links to its groups, each group once.
    static func groupLinks(of lesson: ImportedLesson, id: Int64) -> [GroupLink] {
        Set(lesson.groups).sorted().map { GroupLink(lesson: id, group: $0) }
    }

    /// A lesson's links to its rooms: two names of one room are one link.
    static func roomLinks(of lesson: ImportedLesson, id: Int64, roomIDs: [RoomKey: Int64]) throws -> [RoomLink] {
        var linked = Set<Int64>()
        var links: [RoomLink] = []
        for room in Set(lesson.rooms).sorted() {
            guard let roomID = roomIDs[room] else {
                throw ImportError(
                    detail: "a lesson of {subject} names the room {room}, which is not in the import.",
                    ["subject": String(describing: lesson.subject), "room": String(describing: room.displayName)])
            }
            if linked.insert(roomID).inserted { links.append(RoomLink(lesson: id, room: roomID)) }
        }
        return links
    }

    /// A room that only lessons name, as the directory stores it.
    static func roomNamedByLessons(_ key: RoomKey) -> ImportedRoom {
        ImportedRoom(key: key, floor: nil, isOffCampus: key.name.first?.isNumber != true)
    }

    /// Links the lessons of `batch` that `stored` says the import added to their groups, rooms
    /// and teachers (PostgreSQL only), and notes in `stored` the teacher links it wrote and the
    /// teachers it added. The groups, rooms and teachers they name are written first if they are
    /// new, as the directory's upsert writes a group or room that only lessons name; that upsert,
    /// later in the import, gives them what the import says of them (a teacher added here has
    /// empty names until then, and an import that does not hold such a teacher fails). A link to
    /// a teacher is `from_teacher_schedule` if the teacher's own schedule was staged before the
    /// batch; what later schedules add is linked with the rest of the import.
    func linkAddedLessons(_ batch: PendingLessons, stored: inout StoredLessons, now: Date) async throws {
        guard takesBulkRows else { return }
        let added: [(key: String, id: Int64, lesson: ImportedLesson)] = batch.rows.compactMap { key, lesson in
            guard let id = stored.ids[key], stored.added.contains(id) else { return nil }
            return (key, id, lesson)
        }
        guard !added.isEmpty else { return }
        let groups = Set(added.flatMap(\.lesson.groups)).sorted()
        try await db.raw(
            """
            INSERT INTO study_groups (name, updated_at) SELECT unnest(\(bind: groups)::text[]), \(bind: now.epoch)
            ON CONFLICT DO NOTHING
            """
        ).run()
        let roomIDs = try await namedRooms(Set(added.flatMap(\.lesson.rooms)))
        let teachers = try await namedTeachers(Set(added.flatMap(\.lesson.teachers)), now: now)
        stored.placeholderTeachers.formUnion(teachers.added)
        var teacherLinks: [TeacherLink] = []
        for (key, id, lesson) in added {
            let own = batch.ownTeachers[key] ?? []
            for urlID in Set(lesson.teachers).sorted() {
                guard let teacher = teachers.ids[urlID] else { throw ImportError(detail: "a lesson was not stored.") }
                let link = TeacherLink(lesson: id, teacher: teacher, fromTeacherSchedule: own.contains(urlID))
                teacherLinks.append(link)
                stored.teacherLinks[LessonTeacher(lesson: id, teacher: teacher)] = link.fromTeacherSchedule
            }
        }
        try await insert(added.flatMap { Self.groupLinks(of: $0.lesson, id: $0.id) }, added: stored.added)
        try await insert(
            try added.flatMap { try Self.roomLinks(of: $0.lesson, id: $0.id, roomIDs: roomIDs) }, added: stored.added)
        try await insert(teacherLinks, added: stored.added, conflict: "")
    }

    /// The ids of teachers that lessons name, each one that is not stored yet added with empty
    /// names (PostgreSQL); and which were added. The ids are read by a statement of their own,
    /// after the insert: one that met a teacher another import had just committed sees it then.
    private func namedTeachers(_ urlIDs: Set<String>, now: Date) async throws -> (ids: [String: Int64], added: [String])
    {
        guard !urlIDs.isEmpty else { return ([:], []) }
        let sorted = urlIDs.sorted()
        let added = try await db.raw(
            """
            INSERT INTO teachers (url_id, first_name, last_name, updated_at)
            SELECT unnest(\(bind: sorted)::text[]), '', '', \(bind: now.epoch) ON CONFLICT (url_id) DO NOTHING
            RETURNING url_id
            """
        ).all(decodingColumn: "url_id", as: String.self)
        var ids: [String: Int64] = [:]
        for row in try await db.raw("SELECT id, url_id FROM teachers WHERE url_id = ANY(\(bind: sorted))").all() {
            ids[try row.decode(column: "url_id", as: String.self)] = try row.decode(column: "id", as: Int64.self)
        }
        return (ids, added)
    }

    /// The ids of rooms that lessons name, each written first if it is new (PostgreSQL; read
    /// after the insert, as ``namedTeachers(_:now:)`` reads teachers).
    private func namedRooms(_ keys: Set<RoomKey>) async throws -> [RoomKey: Int64] {
        guard !keys.isEmpty else { return [:] }
        let rooms = keys.sorted().map(Self.roomNamedByLessons)
        let names = rooms.map(\.key.name)
        let buildings = rooms.map { $0.key.building ?? -1 }
        try await db.raw(
            """
            INSERT INTO rooms (name, building, building_key, off_campus)
            SELECT name, NULLIF(building_key, -1), building_key, off_campus FROM unnest(\(bind: names)::text[],
            \(bind: buildings)::integer[], \(bind: rooms.map(\.isOffCampus))::boolean[]) AS k(name, building_key, off_campus)
            ON CONFLICT (name, building_key) DO NOTHING
            """
        ).run()
        let rows = try await db.raw(
            """
            SELECT r.id, r.name, r.building_key FROM rooms AS r
            JOIN unnest(\(bind: names)::text[], \(bind: buildings)::integer[]) AS k(name, building_key)
            ON r.name = k.name AND r.building_key = k.building_key
            """
        ).all()
        var ids: [RoomKey: Int64] = [:]
        for row in rows { ids[try Self.roomKey(of: row)] = try row.decode(column: "id", as: Int64.self) }
        return ids
    }

    /// The key of a row of `rooms` (its `name` and `building_key`).
    static func roomKey(of row: any SQLRow) throws -> RoomKey {
        let building = try row.decode(column: "building_key", as: Int.self)
        return RoomKey(name: try row.decode(column: "name", as: String.self), building: building < 0 ? nil : building)
    }
}
