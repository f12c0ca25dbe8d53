import Crypto
import Foundation
import Localization
import NIOPosix
import SQLKit
import SharedHelpers
import Timetable

/// What an import changed.
public struct ImportSummary: Sendable, Equatable {
    public var schedules = 0
    public var lessons = 0
    public var lessonsAdded = 0
    public var lessonsRemoved = 0
    public var groups = 0
    public var teachers = 0
    public var rooms = 0

    public init() {}
}

/// The timetable in the database: the directory (faculties … rooms), lessons and their links to
/// groups, teachers and rooms. Every method runs on the `SQLDatabase` it is given, so the caller
/// chooses the transaction.
public struct TimetableStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    /// Rows per multi-row statement: well under both databases' limits on bound values.
    static let chunk = 1000

    // MARK: Importing

    /// Stores an import as an upsert: faculties, specialities, departments, groups, teachers and
    /// rooms by their keys (fields the import leaves nil keep their stored values); each schedule
    /// replaces its owner's lessons. A lesson is one row whoever's schedule names it; lessons that
    /// nobody's schedule names any more are removed. Run it inside one write transaction; with
    /// `staged`, the import's schedules were staged (and some of their lessons stored) in that
    /// transaction already, in the order of `data.schedules`.
    public func store(_ data: TimetableImport, now: Date, staged: StagedLessons? = nil) async throws -> ImportSummary {
        var summary = ImportSummary()
        summary.schedules = data.schedules.count
        // The lessons' identities are hashed on the thread pool while the directory is written.
        async let hashing = Self.identityHashes(staged == nil ? data.schedules : [])
        try await upsertFaculties(data.faculties)
        try await upsertSpecialities(data.specialities)
        try await upsertDepartments(data.departments)
        try await upsertLessonTypes(Set(data.schedules.flatMap { $0.lessons.compactMap(\.typeID) }))
        summary.groups = try await upsertGroups(data, now: now)
        let teacherIDs = try await upsertTeachers(data, now: now)
        summary.teachers = teacherIDs.count
        let roomIDs = try await upsertRooms(data)
        summary.rooms = roomIDs.count
        try await storeTeacherCards(data.teacherCards, teacherIDs: teacherIDs)
        try await upsertSubjects(data.subjects)
        try await storeWindowNotes(data.windowNotes)
        if let pairs = data.pairTimes { try await SettingsStore(db).set(.pairTimes, to: pairs.text) }
        guard !data.schedules.isEmpty else {
            try await bumpVersion()
            return summary
        }

        // Lessons: one row per identity, whichever schedules name it.
        var lessons: StagedLessons
        if let staged {
            guard staged.schedules == data.schedules.count else {
                throw ImportError(detail: "a lesson was not stored.")
            }
            lessons = staged
        } else {
            lessons = try await stageLessons()
            lessons.stage(data.schedules, hashes: try await hashing)
        }
        if let rest = lessons.takePending() { lessons.record(try await store(rest)) }
        let keys = lessons.keys
        let order = lessons.order
        let lessonsByIdentity = lessons.lessons
        let lessonIDs = lessons.stored.ids
        summary.lessons = order.count
        summary.lessonsAdded = try await count("lessons") - lessons.countBefore

        // Links. A group's schedule replaces the group's links, and the teachers and rooms of its
        // lessons. A teacher's schedule replaces the lessons the teacher's own schedule names
        // (`from_teacher_schedule`) and adds the groups it lists. A lesson stays while a group's
        // link or a teacher's own schedule holds it.
        var groupOwners: [String] = []
        var teacherOwners: [Int64] = []
        var groupScheduleLessons = Set<Int64>()
        var teacherScheduleLinks = Set<LessonTeacher>()
        for (scheduleIndex, schedule) in data.schedules.enumerated() {
            let ids = try keys[scheduleIndex].map { key in
                guard let id = lessonIDs[key] else { throw ImportError(detail: "a lesson was not stored.") }
                return id
            }
            switch schedule.owner {
            case .group(let name):
                groupOwners.append(name)
                groupScheduleLessons.formUnion(ids)
            case .teacher(let urlID):
                guard let id = teacherIDs[urlID] else {
                    throw ImportError(
                        detail: "the schedule's teacher {teacher} is not in the import.",
                        ["teacher": String(describing: urlID)])
                }
                teacherOwners.append(id)
                for lessonID in ids { teacherScheduleLinks.insert(LessonTeacher(lesson: lessonID, teacher: id)) }
            }
        }
        var groupLinks: [GroupLink] = []
        var teacherLinks: [TeacherLink] = []
        var roomLinks: [RoomLink] = []
        for key in order {
            guard let lesson = lessonsByIdentity[key], let id = lessonIDs[key] else {
                throw ImportError(detail: "a lesson was not stored.")
            }
            for group in Set(lesson.groups).sorted() { groupLinks.append(GroupLink(lesson: id, group: group)) }
            for urlID in Set(lesson.teachers).sorted() {
                guard let teacherID = teacherIDs[urlID] else {
                    throw ImportError(
                        detail: "a lesson of {subject} names the teacher {teacher}, who is not in the import.",
                        ["subject": String(describing: lesson.subject), "teacher": String(describing: urlID)])
                }
                teacherLinks.append(
                    TeacherLink(
                        lesson: id, teacher: teacherID,
                        fromTeacherSchedule: teacherScheduleLinks.contains(
                            LessonTeacher(lesson: id, teacher: teacherID))))
            }
            var linkedRooms = Set<Int64>()  // two names of one room are one link
            for room in Set(lesson.rooms).sorted() {
                guard let roomID = roomIDs[room] else {
                    throw ImportError(
                        detail:
                            "a lesson of {subject} names the room {room}, which is not in the import.",
                        [
                            "subject": String(describing: lesson.subject),
                            "room": String(describing: room.displayName),
                        ]
                    )
                }
                if linkedRooms.insert(roomID).inserted { roomLinks.append(RoomLink(lesson: id, room: roomID)) }
            }
        }
        try await replaceLinks(ofGroups: groupOwners, with: groupLinks, added: lessons.stored.added)
        try await replaceLinks(
            ofTeachers: teacherOwners, groupScheduleLessons: Array(groupScheduleLessons), with: teacherLinks,
            added: lessons.stored.added)
        try await replaceLinks(ofLessons: Array(lessonIDs.values), with: roomLinks, added: lessons.stored.added)

        // Lessons nobody's schedule names any more.
        let beforeCleanup = try await count("lessons")
        try await db.raw(
            """
            DELETE FROM lessons WHERE NOT EXISTS (SELECT 1 FROM lesson_groups g WHERE g.lesson_id = lessons.id)
            AND NOT EXISTS (
                SELECT 1 FROM lesson_teachers t WHERE t.lesson_id = lessons.id AND t.from_teacher_schedule = \(bind: true))
            """
        ).run()
        summary.lessonsRemoved = beforeCleanup - (try await count("lessons"))
        try await bumpVersion()
        return summary
    }

    private struct LessonTeacher: Hashable {
        var lesson: Int64
        var teacher: Int64
    }

    /// An import that contradicts itself (a lesson names a teacher the import does not hold).
    public struct ImportError: PhrasedError {
        /// Said after "The import is inconsistent:".
        public var reason: Phrase

        /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
        /// are `values`, as for a ``FieldProblem``.
        init(detail message: String, _ values: [String: String] = [:]) { reason = Phrase(message, values) }

        public var phrase: Phrase { Phrase("The import is inconsistent: {reason}", parts: ["reason": reason]) }
    }

    // MARK: Version

    /// Changes whenever the timetable changes; caches compare it to know when they are stale.
    public func version() async throws -> String {
        try await SettingsStore(db).value(.timetableVersion) ?? "0"
    }

    /// Marks the timetable changed (for settings that change how it reads, such as the calendar).
    public func touch() async throws { try await bumpVersion() }

    func bumpVersion() async throws {
        try await SettingsStore(db).set(.timetableVersion, to: UUID().uuidString)
    }
}
