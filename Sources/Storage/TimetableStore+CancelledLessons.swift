import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// Lessons imports removed, kept for a while (``TimetableStore/keepCancelledLessons(_:now:)``)
/// so that calendar feeds can cancel their events under the UIDs subscribers know.
extension TimetableStore {
    /// The lessons removed at `since` or later that any of these groups, teachers (by id) or
    /// rooms had, as they were, with their rooms, teachers and groups.
    public func cancelledLessons(groups: [String], teachers: [Int64], rooms: [Int64], since: Date) async throws
        -> [Lesson]
    {
        let wantedGroups = Set(groups)
        let wantedTeachers = Set(teachers.map(String.init))
        let wantedRooms = Set(rooms.map(String.init))
        var found: [(lesson: Lesson, teachers: [Int64], rooms: [Int64])] = []
        for row in try await db.raw(
            "SELECT * FROM cancelled_lessons WHERE cancelled_at >= \(bind: since.milliseconds) ORDER BY id"
        ).all() {
            func lines(_ column: String) throws -> [String] {
                try row.decode(column: column, as: String.self).split(separator: "\n").map(String.init)
            }
            let lessonGroups = try lines("groups")
            let lessonTeachers = try lines("teachers")
            let lessonRooms = try lines("rooms")
            guard
                !wantedGroups.isDisjoint(with: lessonGroups) || !wantedTeachers.isDisjoint(with: lessonTeachers)
                    || !wantedRooms.isDisjoint(with: lessonRooms)
            else { continue }
            var lesson = try Self.lesson(row)
            lesson.groups = lessonGroups.sorted()
            found.append((lesson, lessonTeachers.compactMap { Int64($0) }, lessonRooms.compactMap { Int64($0) }))
        }
        guard !found.isEmpty else { return [] }
        var teacherNames: [Int64: TeacherReference] = [:]
        let teacherIDs = Array(Set(found.flatMap(\.teachers)))
        for part in teacherIDs.chunked(Self.chunk) where !part.isEmpty {
            for row in try await db.raw(
                "SELECT id, url_id, first_name, middle_name, last_name FROM teachers WHERE id IN (\(list(Array(part))))"
            ).all() {
                teacherNames[try row.decode(column: "id", as: Int64.self)] = try Self.teacherReference(row)
            }
        }
        var roomNames: [Int64: RoomReference] = [:]
        let roomIDs = Array(Set(found.flatMap(\.rooms)))
        for part in roomIDs.chunked(Self.chunk) where !part.isEmpty {
            for row in try await db.raw("SELECT id, name, building FROM rooms WHERE id IN (\(list(Array(part))))").all()
            {
                let room = Room(
                    id: try row.decode(column: "id", as: Int64.self),
                    name: try row.decode(column: "name", as: String.self),
                    building: try row.decode(column: "building", as: Int?.self))
                roomNames[room.id] = RoomReference(id: room.id, name: room.displayName)
            }
        }
        return found.map { entry in
            var lesson = entry.lesson
            lesson.teachers = entry.teachers.compactMap { teacherNames[$0] }.sorted { $0.name < $1.name }
            lesson.rooms = entry.rooms.compactMap { roomNames[$0] }.sorted { $0.name < $1.name }
            return lesson
        }
    }

    /// Forgets the changes seen before `seen`, and the removed lessons kept since before `cancelled`.
    public func forgetChanges(seenBefore seen: Date, cancelledBefore cancelled: Date) async throws {
        try await db.raw("DELETE FROM schedule_changes WHERE seen_at < \(bind: seen.milliseconds)").run()
        try await db.raw("DELETE FROM cancelled_lessons WHERE cancelled_at < \(bind: cancelled.milliseconds)").run()
    }
}
