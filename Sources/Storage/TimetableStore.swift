import Crypto
import Foundation
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
    /// nobody's schedule names any more are removed. Run it inside one write transaction.
    public func store(_ data: TimetableImport, now: Date) async throws -> ImportSummary {
        var summary = ImportSummary()
        summary.schedules = data.schedules.count
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
        guard !data.schedules.isEmpty else {
            try await bumpVersion()
            return summary
        }

        // Lessons: one row per identity, whichever schedules name it.
        let keys = try await Self.identityHashes(data.schedules)
        var lessonsByIdentity: [String: ImportedLesson] = [:]
        var order: [String] = []
        for (scheduleIndex, schedule) in data.schedules.enumerated() {
            for (lessonIndex, lesson) in schedule.lessons.enumerated() {
                let key = keys[scheduleIndex][lessonIndex]
                if var existing = lessonsByIdentity[key] {
                    existing.teachers = Array(Set(existing.teachers + lesson.teachers)).sorted()
                    lessonsByIdentity[key] = existing
                } else {
                    lessonsByIdentity[key] = lesson
                    order.append(key)
                }
            }
        }
        summary.lessons = order.count
        let before = try await count("lessons")
        var lessonIDs: [String: Int64] = [:]
        for part in order.chunked(Self.chunk) {
            var query: SQLQueryString = """
                INSERT INTO lessons (identity_hash, subject, subject_full, type_id, start_minute, end_minute, weekday,
                weeks, subgroup, start_day, end_day, date_day, note, announcement, exam) VALUES\u{20}
                """
            query += Self.values(
                part.lazy.compactMap { key -> [(any Encodable & Sendable)?]? in
                    guard let lesson = lessonsByIdentity[key] else { return nil }
                    let weeks = lesson.weeks.reduce(0) { $0 | (1 << $1) }
                    return [
                        key, lesson.subject, lesson.subjectFullName, lesson.typeID, lesson.start.minutes,
                        lesson.end.minutes, lesson.weekday?.rawValue, weeks, lesson.subgroup,
                        lesson.dateRange?.lowerBound.dayNumber, lesson.dateRange?.upperBound.dayNumber,
                        lesson.date?.dayNumber, lesson.note, lesson.isAnnouncement, lesson.isExam,
                    ]
                })
            query += """
                 ON CONFLICT (identity_hash) DO UPDATE SET subject_full = excluded.subject_full,
                 note = excluded.note RETURNING id, identity_hash
                """
            for row in try await db.raw(query).all() {
                lessonIDs[try row.decode(column: "identity_hash", as: String.self)] =
                    try row.decode(column: "id", as: Int64.self)
            }
        }
        summary.lessonsAdded = try await count("lessons") - before

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
                guard let id = lessonIDs[key] else { throw ImportError(message: "a lesson was not stored.") }
                return id
            }
            switch schedule.owner {
            case .group(let name):
                groupOwners.append(name)
                groupScheduleLessons.formUnion(ids)
            case .teacher(let urlID):
                guard let id = teacherIDs[urlID] else {
                    throw ImportError(message: "the schedule's teacher \(urlID) is not in the import.")
                }
                teacherOwners.append(id)
                for lessonID in ids { teacherScheduleLinks.insert(LessonTeacher(lesson: lessonID, teacher: id)) }
            }
        }
        try await deleteWhere("lesson_groups", column: "group_name", in: groupOwners)
        for part in teacherOwners.chunked(Self.chunk) {
            try await db.raw(
                "DELETE FROM lesson_teachers WHERE from_teacher_schedule = \(bind: true) AND teacher_id IN (\(list(Array(part))))"
            ).run()
        }
        for part in Array(groupScheduleLessons).chunked(Self.chunk) {
            try await db.raw(
                "DELETE FROM lesson_teachers WHERE from_teacher_schedule = \(bind: false) AND lesson_id IN (\(list(Array(part))))"
            ).run()
        }
        try await deleteWhere("lesson_rooms", column: "lesson_id", in: Array(lessonIDs.values))
        var groupLinks: [[(any Encodable & Sendable)?]] = []
        var teacherLinks: [[(any Encodable & Sendable)?]] = []
        var roomLinks: [[(any Encodable & Sendable)?]] = []
        for key in order {
            guard let lesson = lessonsByIdentity[key], let id = lessonIDs[key] else {
                throw ImportError(message: "a lesson was not stored.")
            }
            for group in Set(lesson.groups).sorted() { groupLinks.append([id, group]) }
            for urlID in Set(lesson.teachers).sorted() {
                guard let teacherID = teacherIDs[urlID] else {
                    throw ImportError(
                        message: "a lesson of \(lesson.subject) names the teacher \(urlID), who is not in the import.")
                }
                teacherLinks.append([
                    id, teacherID, teacherScheduleLinks.contains(LessonTeacher(lesson: id, teacher: teacherID)),
                ])
            }
            for room in Set(lesson.rooms).sorted() {
                guard let roomID = roomIDs[room] else {
                    throw ImportError(
                        message:
                            "a lesson of \(lesson.subject) names the room \(room.displayName), which is not in the import."
                    )
                }
                roomLinks.append([id, roomID])
            }
        }
        try await insert(
            "lesson_groups", columns: ["lesson_id", "group_name"], rows: groupLinks, ignoringConflicts: true)
        try await insert(
            "lesson_teachers", columns: ["lesson_id", "teacher_id", "from_teacher_schedule"], rows: teacherLinks,
            conflict: """
                ON CONFLICT (lesson_id, teacher_id) DO UPDATE SET
                from_teacher_schedule = (lesson_teachers.from_teacher_schedule OR excluded.from_teacher_schedule)
                """)
        try await insert("lesson_rooms", columns: ["lesson_id", "room_id"], rows: roomLinks, ignoringConflicts: true)

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

    public struct ImportError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { "The import is inconsistent: \(message)" }
    }

    private func count(_ table: String) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Each schedule's lesson identity hashes, in lesson order; computed on every core (on
    /// NIO's thread pool: tasks started from an event loop stay on it).
    private static func identityHashes(_ schedules: [ImportedSchedule]) async throws -> [[String]] {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let size = max(1, (schedules.count + width - 1) / width)
        return try await withThrowingTaskGroup(of: (Int, [[String]]).self) { group in
            for start in stride(from: 0, to: schedules.count, by: size) {
                let part = schedules[start..<min(start + size, schedules.count)]
                group.addTask {
                    try await NIOThreadPool.singleton.runIfActive {
                        (start, part.map { $0.lessons.map { hash($0.identity) } })
                    }
                }
            }
            var result = [[String]](repeating: [], count: schedules.count)
            for try await (start, hashes) in group {
                for (offset, item) in hashes.enumerated() { result[start + offset] = item }
            }
            return result
        }
    }

    private static func hash(_ identity: String) -> String {
        SHA256.hash(data: Data(identity.utf8)).prefix(20).hexadecimal
    }

    /// The VALUES of a multi-row INSERT. Integers, booleans and NULL are written as SQL literals
    /// (they cannot carry anything but a number), everything else is bound: fewer binds and
    /// fragments make big imports faster.
    private static func values(_ rows: some Sequence<[(any Encodable & Sendable)?]>) -> SQLQueryString {
        var query: SQLQueryString = ""
        var text = ""
        for (rowIndex, row) in rows.enumerated() {
            text += rowIndex == 0 ? "(" : ", ("
            for (index, value) in row.enumerated() {
                if index > 0 { text += ", " }
                if let value {
                    append(value, to: &query, text: &text)
                } else {
                    text += "NULL"
                }
            }
            text += ")"
        }
        query += "\(unsafeRaw: text)"
        return query
    }

    /// Appends a value: an integer or boolean to the SQL text, anything else as a bind after it.
    private static func append(_ value: any Encodable & Sendable, to query: inout SQLQueryString, text: inout String) {
        switch value {
        case let number as Int: text += String(number)
        case let number as Int64: text += String(number)
        case let flag as Bool: text += flag ? "TRUE" : "FALSE"
        default:
            query += "\(unsafeRaw: text)\(bind: value)"
            text = ""
        }
    }

    /// A multi-row INSERT, in chunks.
    private func insert(
        _ table: String, columns: [String], rows: [[(any Encodable & Sendable)?]], ignoringConflicts: Bool = false,
        conflict: String? = nil
    ) async throws {
        for part in rows.chunked(Self.chunk) {
            var query: SQLQueryString =
                "INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: columns.joined(separator: ", "))) VALUES "
            query += Self.values(part)
            if let conflict {
                query += SQLQueryString(" " + conflict)
            } else if ignoringConflicts {
                query += " ON CONFLICT DO NOTHING"
            }
            try await db.raw(query).run()
        }
    }

    /// A comma-separated list of values, as in `IN (…)`.
    func list<T: Encodable & Sendable>(_ values: [T]) -> SQLQueryString {
        var query: SQLQueryString = ""
        var text = ""
        for (index, value) in values.enumerated() {
            if index > 0 { text += ", " }
            Self.append(value, to: &query, text: &text)
        }
        query += "\(unsafeRaw: text)"
        return query
    }

    private func deleteWhere<T: Encodable & Sendable>(_ table: String, column: String, in values: [T]) async throws {
        for part in values.chunked(Self.chunk) {
            try await db.raw("DELETE FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) IN (\(list(Array(part))))")
                .run()
        }
    }

    private func upsertFaculties(_ faculties: [Faculty]) async throws {
        let merged = faculties.merged(by: \.id)
        try await insert(
            "faculties", columns: ["id", "name", "abbreviation"],
            rows: merged.values.sorted { $0.id < $1.id }.map { [$0.id, $0.name, $0.abbreviation] },
            conflict: """
                ON CONFLICT (id) DO UPDATE SET name = COALESCE(excluded.name, faculties.name),
                abbreviation = excluded.abbreviation
                """)
    }

    private func upsertSpecialities(_ specialities: [Speciality]) async throws {
        let merged = specialities.merged(by: \.id)
        try await insert(
            "specialities",
            columns: ["id", "name", "abbreviation", "code", "faculty_id", "education_form_id", "education_form_name"],
            rows: merged.values.sorted { $0.id < $1.id }.map {
                [$0.id, $0.name, $0.abbreviation, $0.code, $0.facultyID, $0.educationForm?.id, $0.educationForm?.name]
            },
            conflict: """
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, abbreviation = excluded.abbreviation,
                code = COALESCE(excluded.code, specialities.code),
                faculty_id = COALESCE(excluded.faculty_id, specialities.faculty_id),
                education_form_id = COALESCE(excluded.education_form_id, specialities.education_form_id),
                education_form_name = COALESCE(excluded.education_form_name, specialities.education_form_name)
                """)
    }

    private func upsertDepartments(_ departments: [Department]) async throws {
        let merged = departments.merged(by: \.abbreviation)
        try await insert(
            "departments", columns: ["abbreviation", "name", "iis_id"],
            rows: merged.values.sorted { $0.abbreviation < $1.abbreviation }.map {
                [$0.abbreviation, $0.name, $0.iisID]
            },
            conflict: """
                ON CONFLICT (abbreviation) DO UPDATE SET name = COALESCE(excluded.name, departments.name),
                iis_id = COALESCE(excluded.iis_id, departments.iis_id)
                """)
    }

    private func upsertLessonTypes(_ ids: Set<String>) async throws {
        let known = Dictionary(LessonType.defaults.map { ($0.id, $0) }) { a, _ in a }
        let types = LessonType.defaults + ids.subtracting(known.keys).sorted().map(LessonType.unknown)
        try await insert(
            "lesson_types", columns: ["id", "name", "abbreviation", "colour", "is_exam"],
            rows: types.map { [$0.id, $0.name, $0.abbreviation, $0.colour, $0.isExam] }, ignoringConflicts: true)
    }

    /// Every group the import names, with the term dates of the groups whose schedules it holds.
    private func upsertGroups(_ data: TimetableImport, now: Date) async throws -> Int {
        var groups: [String: ImportedGroup] = [:]
        func add(_ group: ImportedGroup) {
            guard let old = groups[group.name] else {
                groups[group.name] = group
                return
            }
            groups[group.name] = ImportedGroup(
                name: group.name, title: group.title ?? old.title, course: group.course ?? old.course,
                facultyID: group.facultyID ?? old.facultyID, specialityID: group.specialityID ?? old.specialityID,
                educationDegree: group.educationDegree ?? old.educationDegree,
                studentCount: group.studentCount ?? old.studentCount, iisID: group.iisID ?? old.iisID)
        }
        data.groups.forEach(add)
        var terms: [String: (TermDates?, LocalDate?)] = [:]
        for schedule in data.schedules {
            if case .group(let name) = schedule.owner {
                add(ImportedGroup(name: name))
                terms[name] = (schedule.term, schedule.lastUpdate)
            }
            for lesson in schedule.lessons { lesson.groups.forEach { add(ImportedGroup(name: $0)) } }
        }
        let columns = [
            "name", "title", "course", "faculty_id", "speciality_id", "education_degree", "student_count", "iis_id",
            "lessons_start", "lessons_end", "exams_start", "exams_end", "last_update", "updated_at",
        ]
        let keep = """
            title = COALESCE(excluded.title, study_groups.title), course = COALESCE(excluded.course, study_groups.course),
            faculty_id = COALESCE(excluded.faculty_id, study_groups.faculty_id),
            speciality_id = COALESCE(excluded.speciality_id, study_groups.speciality_id),
            education_degree = COALESCE(excluded.education_degree, study_groups.education_degree),
            student_count = COALESCE(excluded.student_count, study_groups.student_count),
            iis_id = COALESCE(excluded.iis_id, study_groups.iis_id), updated_at = excluded.updated_at
            """
        func row(_ group: ImportedGroup) -> [(any Encodable & Sendable)?] {
            let (term, lastUpdate) = terms[group.name] ?? (nil, nil)
            return [
                group.name, group.title, group.course, group.facultyID, group.specialityID, group.educationDegree,
                group.studentCount, group.iisID, term?.lessonsStart?.dayNumber, term?.lessonsEnd?.dayNumber,
                term?.examsStart?.dayNumber, term?.examsEnd?.dayNumber, lastUpdate?.dayNumber, now.epoch,
            ]
        }
        let sorted = groups.values.sorted { $0.name < $1.name }
        // Groups whose schedule is here get that schedule's term dates; the others keep theirs.
        try await insert(
            "study_groups", columns: columns, rows: sorted.filter { terms[$0.name] != nil }.map(row),
            conflict: """
                ON CONFLICT (name) DO UPDATE SET \(keep), lessons_start = excluded.lessons_start,
                lessons_end = excluded.lessons_end, exams_start = excluded.exams_start, exams_end = excluded.exams_end,
                last_update = COALESCE(excluded.last_update, study_groups.last_update)
                """)
        try await insert(
            "study_groups", columns: columns, rows: sorted.filter { terms[$0.name] == nil }.map(row),
            conflict: "ON CONFLICT (name) DO UPDATE SET \(keep)")
        return groups.count
    }

    /// Every teacher the import names; returns their ids by URL id.
    private func upsertTeachers(_ data: TimetableImport, now: Date) async throws -> [String: Int64] {
        let teachers = data.teachers.merged(by: \.urlID)
        var terms: [String: (TermDates?, LocalDate?)] = [:]
        for schedule in data.schedules {
            if case .teacher(let urlID) = schedule.owner { terms[urlID] = (schedule.term, schedule.lastUpdate) }
        }
        let columns = [
            "url_id", "first_name", "middle_name", "last_name", "rank", "degree", "degree_abbreviation", "photo_url",
            "email", "iis_id", "lessons_start", "lessons_end", "exams_start", "exams_end", "last_update", "updated_at",
        ]
        let keep = """
            first_name = excluded.first_name, last_name = excluded.last_name,
            middle_name = COALESCE(excluded.middle_name, teachers.middle_name),
            rank = COALESCE(excluded.rank, teachers.rank), degree = COALESCE(excluded.degree, teachers.degree),
            degree_abbreviation = COALESCE(excluded.degree_abbreviation, teachers.degree_abbreviation),
            photo_url = COALESCE(excluded.photo_url, teachers.photo_url), email = COALESCE(excluded.email, teachers.email),
            iis_id = COALESCE(excluded.iis_id, teachers.iis_id), updated_at = excluded.updated_at
            """
        func row(_ teacher: ImportedTeacher) -> [(any Encodable & Sendable)?] {
            let (term, lastUpdate) = terms[teacher.urlID] ?? (nil, nil)
            return [
                teacher.urlID, teacher.firstName, teacher.middleName, teacher.lastName, teacher.rank, teacher.degree,
                teacher.degreeAbbreviation, teacher.photoURL, teacher.email, teacher.iisID,
                term?.lessonsStart?.dayNumber, term?.lessonsEnd?.dayNumber, term?.examsStart?.dayNumber,
                term?.examsEnd?.dayNumber, lastUpdate?.dayNumber, now.epoch,
            ]
        }
        let sorted = teachers.values.sorted { $0.urlID < $1.urlID }
        try await insert(
            "teachers", columns: columns, rows: sorted.filter { terms[$0.urlID] != nil }.map(row),
            conflict: """
                ON CONFLICT (url_id) DO UPDATE SET \(keep), lessons_start = excluded.lessons_start,
                lessons_end = excluded.lessons_end, exams_start = excluded.exams_start, exams_end = excluded.exams_end,
                last_update = COALESCE(excluded.last_update, teachers.last_update)
                """)
        try await insert(
            "teachers", columns: columns, rows: sorted.filter { terms[$0.urlID] == nil }.map(row),
            conflict: "ON CONFLICT (url_id) DO UPDATE SET \(keep)")
        var wanted = Set(teachers.keys)
        for schedule in data.schedules {
            if case .teacher(let urlID) = schedule.owner { wanted.insert(urlID) }
            for lesson in schedule.lessons { wanted.formUnion(lesson.teachers) }
        }
        var ids: [String: Int64] = [:]
        for part in Array(wanted).chunked(Self.chunk) {
            var query: SQLQueryString = "SELECT id, url_id FROM teachers WHERE url_id IN ("
            for (index, urlID) in part.enumerated() {
                if index > 0 { query += ", " }
                query += "\(bind: urlID)"
            }
            query += ")"
            for row in try await db.raw(query).all() {
                ids[try row.decode(column: "url_id", as: String.self)] = try row.decode(column: "id", as: Int64.self)
            }
        }
        // Departments as the import gives them replace the stored ones.
        let withDepartments = sorted.filter { $0.departments != nil }
        try await deleteWhere(
            "teacher_departments", column: "teacher_id", in: withDepartments.compactMap { ids[$0.urlID] })
        try await upsertDepartments(
            withDepartments.flatMap { $0.departments ?? [] }.map { Department(abbreviation: $0) })
        try await insert(
            "teacher_departments", columns: ["teacher_id", "department"],
            rows: withDepartments.flatMap { teacher in
                Set(teacher.departments ?? []).sorted().compactMap { department in
                    ids[teacher.urlID].map { [$0, department] as [(any Encodable & Sendable)?] }
                }
            }, ignoringConflicts: true)
        return ids
    }

    /// Every room the import names; returns their ids by key.
    private func upsertRooms(_ data: TimetableImport) async throws -> [RoomKey: Int64] {
        var rooms = data.rooms.merged(by: \.key)
        for schedule in data.schedules {
            for key in schedule.lessons.flatMap(\.rooms) where rooms[key] == nil {
                rooms[key] = ImportedRoom(key: key, floor: nil, isOffCampus: key.name.first?.isNumber != true)
            }
        }
        try await upsertDepartments(
            rooms.values.compactMap { $0.departmentAbbreviation.map { Department(abbreviation: $0) } })
        try await insert(
            "rooms",
            columns: [
                "name", "building", "building_key", "floor", "type_name", "type_abbreviation", "capacity", "note",
                "department", "off_campus", "iis_id",
            ],
            rows: rooms.values.sorted { $0.key < $1.key }.map { room -> [(any Encodable & Sendable)?] in
                [
                    room.key.name, room.key.building, room.key.building ?? -1, room.floor, room.type?.name,
                    room.type?.abbreviation, room.capacity, room.note, room.departmentAbbreviation, room.isOffCampus,
                    room.iisID,
                ]
            },
            conflict: """
                ON CONFLICT (name, building_key) DO UPDATE SET floor = COALESCE(excluded.floor, rooms.floor),
                type_name = COALESCE(excluded.type_name, rooms.type_name),
                type_abbreviation = COALESCE(excluded.type_abbreviation, rooms.type_abbreviation),
                capacity = COALESCE(excluded.capacity, rooms.capacity), note = COALESCE(excluded.note, rooms.note),
                department = COALESCE(excluded.department, rooms.department), off_campus = excluded.off_campus,
                iis_id = COALESCE(excluded.iis_id, rooms.iis_id)
                """)
        var ids: [RoomKey: Int64] = [:]
        for part in Array(rooms.keys).chunked(Self.chunk) {
            var query: SQLQueryString = "SELECT id, name, building_key FROM rooms WHERE "
            for (index, key) in part.enumerated() {
                if index > 0 { query += " OR " }
                query += "(name = \(bind: key.name) AND building_key = \(bind: key.building ?? -1))"
            }
            for row in try await db.raw(query).all() {
                let building = try row.decode(column: "building_key", as: Int.self)
                let key = RoomKey(
                    name: try row.decode(column: "name", as: String.self), building: building < 0 ? nil : building)
                ids[key] = try row.decode(column: "id", as: Int64.self)
            }
        }
        return ids
    }

    private func storeTeacherCards(_ cards: [String: TeacherCard], teacherIDs: [String: Int64]) async throws {
        let rows: [[(any Encodable & Sendable)?]] = cards.sorted { $0.key < $1.key }.compactMap { urlID, card in
            guard let id = teacherIDs[urlID] else { return nil }
            let values: [(any Encodable & Sendable)?] = [
                id, card.description, card.subject, card.marksAttendance?.rawValue, card.automaticPassPossible,
            ]
            return values.map { $0 ?? Optional<String>.none }
        }
        try await insert(
            "teacher_cards", columns: ["teacher_id", "description", "subject", "marks_attendance", "automatic_pass"],
            rows: rows,
            conflict: """
                ON CONFLICT (teacher_id) DO UPDATE SET description = excluded.description, subject = excluded.subject,
                marks_attendance = excluded.marks_attendance, automatic_pass = excluded.automatic_pass
                """)
    }

    private func upsertSubjects(_ subjects: [ImportedSubject]) async throws {
        let unique = Dictionary(subjects.map { ($0.id, $0) }) { _, new in new }
        try await insert(
            "subjects",
            columns: ["id", "name", "faculty", "speciality", "year", "trimester", "kind", "number_of_groups"],
            rows: unique.values.sorted { $0.id < $1.id }.map {
                [$0.id, $0.name, $0.faculty, $0.speciality, $0.year, $0.trimester, $0.kind.rawValue, $0.numberOfGroups]
            },
            conflict: """
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, faculty = excluded.faculty,
                speciality = excluded.speciality, year = excluded.year, trimester = excluded.trimester,
                kind = excluded.kind, number_of_groups = excluded.number_of_groups
                """)
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
