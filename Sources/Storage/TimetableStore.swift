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
    /// The changes of lesson occurrences kept (``TimetableStore/recordChanges(gone:lastIDBefore:today:now:)``),
    /// once per group, teacher and room each concerns.
    public var changes = 0

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
    /// nobody's schedule names any more are removed. Run it inside one write transaction.
    /// The changes of the occurrences in the eight weeks from today (in `timeZone`) are kept
    /// (``recordChanges(gone:lastIDBefore:today:now:)``).
    public func store(_ data: TimetableImport, now: Date, timeZone: TimeZone) async throws -> ImportSummary {
        // The lessons' identities are hashed on the thread pool while the directory is written.
        async let hashing = Self.identityHashes(data.schedules)
        let directory = try await storeDirectory(data, now: now)
        var lessons = try await stageLessons(withSchedules: !data.schedules.isEmpty)
        lessons.stage(data.schedules, hashes: try await hashing)
        return try await storeSchedules(data, directory: directory, staged: lessons, now: now, timeZone: timeZone)
    }

    /// The rest of an import (``store(_:now:)``) once its directory is stored: its schedules,
    /// staged (and some of their lessons stored) in the same transaction already, in the order of
    /// `data.schedules`. Stores the lessons `staged` still holds, the links, and removes the
    /// lessons nobody's schedule names any more, keeping the changes it brought to the eight weeks
    /// from today (in `timeZone`).
    public func storeSchedules(
        _ data: TimetableImport, directory: StoredDirectory, staged: consuming StagedLessons, now: Date,
        timeZone: TimeZone
    ) async throws -> ImportSummary {
        var summary = directory.summary
        summary.schedules = data.schedules.count
        let keptLinks = staged.keptLinks
        let lastIDBefore = staged.lastIDBefore
        guard !data.schedules.isEmpty else {
            if keptLinks { try await dropLinksBefore() }
            try await bumpVersion()
            return summary
        }
        guard staged.schedules == data.schedules.count else { throw ImportError(detail: "a lesson was not stored.") }
        let teacherIDs = directory.teacherIDs
        let roomIDs = directory.roomIDs

        // Lessons: one row per identity, whichever schedules name it. The staged lessons are
        // taken, not copied: the import's only copy changes here.
        var lessons = staged
        if let rest = lessons.takePending() { lessons.record(try await store(rest, now: now)) }
        let keys = lessons.keys
        let order = lessons.order
        let lessonsByIdentity = lessons.lessons
        let lessonIDs = lessons.stored.ids
        summary.lessons = order.count
        // On PostgreSQL each insert said whether it added its lesson; counting the table would
        // count what another import committed meanwhile. SQLite has one writer at a time.
        summary.lessonsAdded =
            takesBulkRows ? lessons.stored.added.count : try await count("lessons") - lessons.countBefore
        try checkPlaceholders(lessons, of: data)

        // Links. A group's schedule replaces the group's links, and the teachers and rooms of its
        // lessons. A teacher's schedule replaces the lessons the teacher's own schedule names
        // (`from_teacher_schedule`) and adds the groups it lists. A lesson stays while a group's
        // link or a teacher's own schedule holds it. On PostgreSQL the lessons the import added
        // were linked when they were stored (``linkAddedLessons(_:stored:now:)``): they are looked
        // at again only if a later schedule touched them, for the teacher links it added or made
        // its teacher's own.
        let added = lessons.stored.added
        let everyLessonAdded = added.count == lessonIDs.count
        func stored(_ key: String) throws -> Int64 {
            guard let id = lessonIDs[key] else { throw ImportError(detail: "a lesson was not stored.") }
            return id
        }
        var groupOwners: [String] = []
        var teacherOwners: [Int64] = []
        var groupScheduleLessons: [Int64] = []
        var teacherScheduleLinks = Set<LessonTeacher>()
        for (scheduleIndex, schedule) in data.schedules.enumerated() {
            switch schedule.owner {
            case .group(let name):
                groupOwners.append(name)
                guard !everyLessonAdded else { continue }  // no lesson of it was there before
                for key in keys[scheduleIndex] {
                    let id = try stored(key)
                    if !added.contains(id) { groupScheduleLessons.append(id) }
                }
            case .teacher(let urlID):
                guard let teacher = teacherIDs[urlID] else {
                    throw ImportError(
                        detail: "the schedule's teacher {teacher} is not in the import.",
                        ["teacher": String(describing: urlID)])
                }
                teacherOwners.append(teacher)
                for key in keys[scheduleIndex] {
                    teacherScheduleLinks.insert(LessonTeacher(lesson: try stored(key), teacher: teacher))
                }
            }
        }
        var knownLessons: [Int64] = []
        var groupLinks: [GroupLink] = []
        var teacherLinks: [TeacherLink] = []
        var roomLinks: [RoomLink] = []
        // Every lesson is looked at, unless the import added them all: then those later schedules
        // touched (and none when they touched none, without looking each one up).
        let revisited =
            !everyLessonAdded ? order : lessons.touched.isEmpty ? [] : order.filter(lessons.touched.contains)
        for key in revisited {
            let id = try stored(key)
            let isAdded = added.contains(id)
            if isAdded, !lessons.touched.contains(key) { continue }
            guard let lesson = lessonsByIdentity[key] else { throw ImportError(detail: "a lesson was not stored.") }
            if !isAdded {
                knownLessons.append(id)
                groupLinks += Self.groupLinks(of: lesson, id: id)
                roomLinks += try Self.roomLinks(of: lesson, id: id, roomIDs: roomIDs)
            }
            for urlID in Set(lesson.teachers).sorted() {
                guard let teacherID = teacherIDs[urlID] else { throw Self.unknownTeacher(urlID, of: lesson) }
                let pair = LessonTeacher(lesson: id, teacher: teacherID)
                let own = teacherScheduleLinks.contains(pair)
                if isAdded, lessons.stored.teacherLinks[pair] == own { continue }
                teacherLinks.append(TeacherLink(lesson: id, teacher: teacherID, fromTeacherSchedule: own))
            }
        }
        try await replaceLinks(ofGroups: groupOwners, with: groupLinks, added: added)
        try await replaceLinks(
            ofTeachers: teacherOwners, groupScheduleLessons: Array(Set(groupScheduleLessons)), with: teacherLinks,
            added: added)
        try await replaceLinks(ofLessons: knownLessons, with: roomLinks, added: added)

        // Lessons nobody's schedule names any more; first, the changes the import brought.
        let unnamed: SQLQueryString = """
            NOT EXISTS (SELECT 1 FROM lesson_groups g WHERE g.lesson_id = lessons.id)
            AND NOT EXISTS (
                SELECT 1 FROM lesson_teachers t WHERE t.lesson_id = lessons.id AND t.from_teacher_schedule = \(bind: true))
            """
        if keptLinks {
            let gone = try await db.raw("SELECT id FROM lessons WHERE \(unnamed)").all(
                decodingColumn: "id", as: Int64.self)
            summary.changes = try await recordChanges(
                gone: Set(gone), lastIDBefore: lastIDBefore, today: LocalDate(now, in: timeZone), now: now)
            try await keepCancelledLessons(gone, now: now)
            try await dropLinksBefore()
            // The transaction sees what it read: these are the lessons to delete.
            try await deleteWhere("lessons", column: "id", in: gone)
            summary.lessonsRemoved = gone.count
        } else {
            let beforeCleanup = try await count("lessons")
            try await db.raw("DELETE FROM lessons WHERE \(unnamed)").run()
            summary.lessonsRemoved = beforeCleanup - (try await count("lessons"))
        }
        try await bumpVersion()
        return summary
    }

    /// Fails the import if a teacher that lessons named while the files were read, and that was
    /// added then with empty names (``linkAddedLessons(_:stored:now:)``), is not in the import:
    /// as it fails when such a teacher is found missing afterwards.
    private func checkPlaceholders(_ lessons: StagedLessons, of data: TimetableImport) throws {
        let unnamed = lessons.stored.placeholderTeachers.subtracting(data.teachers.map(\.urlID))
        guard !unnamed.isEmpty else { return }
        for schedule in data.schedules {
            if case .teacher(let urlID) = schedule.owner, unnamed.contains(urlID) {
                throw ImportError(
                    detail: "the schedule's teacher {teacher} is not in the import.",
                    ["teacher": String(describing: urlID)])
            }
        }
        for key in lessons.order {
            guard let lesson = lessons.lessons[key] else { continue }
            if let urlID = lesson.teachers.sorted().first(where: unnamed.contains) {
                throw Self.unknownTeacher(urlID, of: lesson)
            }
        }
    }

    static func unknownTeacher(_ urlID: String, of lesson: ImportedLesson) -> ImportError {
        ImportError(
            detail: "a lesson of {subject} names the teacher {teacher}, who is not in the import.",
            ["subject": String(describing: lesson.subject), "teacher": String(describing: urlID)])
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
