import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// Reading the timetable.
extension TimetableStore {
    /// A stored wall time (minutes after midnight); a value outside a day is a damaged row.
    static func time(_ row: any SQLRow, _ column: String) throws -> WallTime {
        let minutes = try row.decode(column: column, as: Int.self)
        guard let time = WallTime(minutes: minutes) else { throw StoreError.damaged("\(column) = \(minutes)") }
        return time
    }
    public func faculties() async throws -> [Faculty] {
        try await db.raw("SELECT id, name, abbreviation FROM faculties ORDER BY abbreviation").all().map { row in
            Faculty(
                id: try row.decode(column: "id", as: Int.self), name: try row.decode(column: "name", as: String?.self),
                abbreviation: try row.decode(column: "abbreviation", as: String.self))
        }
    }

    public func specialities() async throws -> [Speciality] {
        try await db.raw(
            """
            SELECT id, name, abbreviation, code, faculty_id, education_form_id, education_form_name
            FROM specialities ORDER BY abbreviation, id
            """
        ).all().map { row in
            let formID = try row.decode(column: "education_form_id", as: Int?.self)
            let formName = try row.decode(column: "education_form_name", as: String?.self)
            return Speciality(
                id: try row.decode(column: "id", as: Int.self), name: try row.decode(column: "name", as: String.self),
                abbreviation: try row.decode(column: "abbreviation", as: String.self),
                code: try row.decode(column: "code", as: String?.self),
                facultyID: try row.decode(column: "faculty_id", as: Int?.self),
                educationForm: formID.flatMap { id in formName.map { EducationForm(id: id, name: $0) } })
        }
    }

    public func departments() async throws -> [Department] {
        try await db.raw("SELECT abbreviation, name, iis_id FROM departments ORDER BY abbreviation").all().map { row in
            Department(
                abbreviation: try row.decode(column: "abbreviation", as: String.self),
                name: try row.decode(column: "name", as: String?.self),
                iisID: try row.decode(column: "iis_id", as: Int?.self))
        }
    }

    private static let groupColumns = """
        name, title, course, faculty_id, speciality_id, education_degree, student_count, lessons_start, lessons_end,
        exams_start, exams_end, last_update
        """

    private func group(from row: any SQLRow) throws -> StudyGroup {
        StudyGroup(
            name: try row.decode(column: "name", as: String.self),
            title: try row.decode(column: "title", as: String?.self),
            course: try row.decode(column: "course", as: Int?.self),
            facultyID: try row.decode(column: "faculty_id", as: Int?.self),
            specialityID: try row.decode(column: "speciality_id", as: Int?.self),
            educationDegree: try row.decode(column: "education_degree", as: Int?.self),
            studentCount: try row.decode(column: "student_count", as: Int?.self), term: try term(from: row))
    }

    private func term(from row: any SQLRow) throws -> TermDates {
        func day(_ column: String) throws -> LocalDate? {
            try row.decode(column: column, as: Int?.self).map(LocalDate.init(dayNumber:))
        }
        return TermDates(
            lessonsStart: try day("lessons_start"), lessonsEnd: try day("lessons_end"),
            examsStart: try day("exams_start"), examsEnd: try day("exams_end"), lastChanged: try day("last_update"))
    }

    public func groups() async throws -> [StudyGroup] {
        try await db.raw("SELECT \(unsafeRaw: Self.groupColumns) FROM study_groups ORDER BY name").all().map(
            group(from:))
    }

    public func group(named name: String) async throws -> StudyGroup? {
        try await db.raw("SELECT \(unsafeRaw: Self.groupColumns) FROM study_groups WHERE name = \(bind: name)").first()
            .map(group(from:))
    }

    /// Whether a profile may name this group: one of the timetable's, or any while it has none
    /// (an institution may set up accounts before its first import).
    public func acceptsGroup(_ name: String) async throws -> Bool {
        try await db.raw(
            """
            SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM study_groups WHERE name = \(bind: name))
            OR NOT EXISTS (SELECT 1 FROM study_groups)
            """
        ).first() != nil
    }

    /// The subgroup numbers of a group's lessons (0 for the whole group), none while the group
    /// has no lessons.
    public func subgroups(ofGroup name: String) async throws -> Set<Int> {
        let numbers = try await db.raw(
            """
            SELECT DISTINCT lessons.subgroup AS subgroup FROM lessons
            JOIN lesson_groups ON lesson_groups.lesson_id = lessons.id
            WHERE lesson_groups.group_name = \(bind: name)
            """
        ).all(decodingColumn: "subgroup", as: Int.self)
        return Set(numbers)
    }

    private static let teacherColumns = """
        id, url_id, first_name, middle_name, last_name, rank, degree, degree_abbreviation, photo_url, email,
        lessons_start, lessons_end, exams_start, exams_end, last_update
        """

    private func teacher(from row: any SQLRow, departments: [Int64: [String]]) throws -> Teacher {
        let id = try row.decode(column: "id", as: Int64.self)
        return Teacher(
            id: id, urlID: try row.decode(column: "url_id", as: String.self),
            firstName: try row.decode(column: "first_name", as: String.self),
            middleName: try row.decode(column: "middle_name", as: String?.self),
            lastName: try row.decode(column: "last_name", as: String.self),
            rank: try row.decode(column: "rank", as: String?.self),
            degree: try row.decode(column: "degree", as: String?.self),
            degreeAbbreviation: try row.decode(column: "degree_abbreviation", as: String?.self),
            departments: departments[id] ?? [], photoURL: try row.decode(column: "photo_url", as: String?.self),
            email: try row.decode(column: "email", as: String?.self), term: try term(from: row))
    }

    public func teachers() async throws -> [Teacher] {
        var departments: [Int64: [String]] = [:]
        for row in try await db.raw("SELECT teacher_id, department FROM teacher_departments ORDER BY department").all()
        {
            departments[try row.decode(column: "teacher_id", as: Int64.self), default: []].append(
                try row.decode(column: "department", as: String.self))
        }
        return try await db.raw("SELECT \(unsafeRaw: Self.teacherColumns) FROM teachers ORDER BY last_name, first_name")
            .all().map { try teacher(from: $0, departments: departments) }
    }

    public func teacher(urlID: String) async throws -> Teacher? {
        guard
            let row = try await db.raw(
                "SELECT \(unsafeRaw: Self.teacherColumns) FROM teachers WHERE url_id = \(bind: urlID)"
            ).first()
        else { return nil }
        let id = try row.decode(column: "id", as: Int64.self)
        let departments = try await db.raw(
            "SELECT department FROM teacher_departments WHERE teacher_id = \(bind: id) ORDER BY department"
        ).all(decodingColumn: "department", as: String.self)
        return try teacher(from: row, departments: [id: departments])
    }

    public func teacherCard(teacherID: Int64) async throws -> TeacherCard? {
        guard
            let row = try await db.raw(
                "SELECT description, subject, marks_attendance, automatic_pass FROM teacher_cards WHERE teacher_id = \(bind: teacherID)"
            ).first()
        else { return nil }
        return TeacherCard(
            description: try row.decode(column: "description", as: String?.self),
            subject: try row.decode(column: "subject", as: String?.self),
            marksAttendance: try row.decode(column: "marks_attendance", as: String?.self)
                .flatMap(TeacherCard.Attendance.init(rawValue:)),
            automaticPassPossible: try row.decode(column: "automatic_pass", as: Bool?.self))
    }

    /// A room's columns, with its place: its own, else its building's (`buildings` joined as `b`).
    private static let roomColumns = """
        r.id, r.name, r.building, r.floor, r.type_name, r.type_abbreviation, r.capacity, r.note, r.department,
        r.off_campus, COALESCE(r.latitude, b.latitude) AS latitude,
        CASE WHEN r.latitude IS NULL THEN b.longitude ELSE r.longitude END AS longitude
        """
    private static let roomsWithBuildings = "rooms r LEFT JOIN buildings b ON b.number = r.building"

    private func room(from row: any SQLRow) throws -> Room {
        let typeName = try row.decode(column: "type_name", as: String?.self)
        let typeAbbreviation = try row.decode(column: "type_abbreviation", as: String?.self)
        return Room(
            id: try row.decode(column: "id", as: Int64.self), name: try row.decode(column: "name", as: String.self),
            building: try row.decode(column: "building", as: Int?.self),
            floor: try row.decode(column: "floor", as: Int?.self),
            type: typeName.map { RoomType(name: $0, abbreviation: typeAbbreviation ?? $0) },
            capacity: try row.decode(column: "capacity", as: Int?.self),
            note: try row.decode(column: "note", as: String?.self),
            departmentAbbreviation: try row.decode(column: "department", as: String?.self),
            isOffCampus: try row.decode(column: "off_campus", as: Bool.self), point: try Self.point(row))
    }

    /// The place in a row's `latitude` and `longitude`.
    static func point(_ row: any SQLRow) throws -> MapPoint? {
        MapPoint(
            latitude: try row.decode(column: "latitude", as: Double?.self),
            longitude: try row.decode(column: "longitude", as: Double?.self))
    }

    public func rooms() async throws -> [Room] {
        try await db.raw(
            "SELECT \(unsafeRaw: Self.roomColumns) FROM \(unsafeRaw: Self.roomsWithBuildings) ORDER BY r.building, r.name"
        ).all().map(room(from:))
    }

    public func room(id: Int64) async throws -> Room? {
        try await db.raw(
            "SELECT \(unsafeRaw: Self.roomColumns) FROM \(unsafeRaw: Self.roomsWithBuildings) WHERE r.id = \(bind: id)"
        ).first().map(room(from:))
    }

    public func lessonTypes() async throws -> [LessonType] {
        let stored = try await db.raw("SELECT id, name, abbreviation, colour, is_exam FROM lesson_types ORDER BY id")
            .all()
            .map { row in
                LessonType(
                    id: try row.decode(column: "id", as: String.self),
                    name: try row.decode(column: "name", as: String.self),
                    abbreviation: try row.decode(column: "abbreviation", as: String.self),
                    colour: try row.decode(column: "colour", as: String.self),
                    isExam: try row.decode(column: "is_exam", as: Bool.self))
            }
        // Before the first import the defaults are all there is.
        return stored.isEmpty ? LessonType.defaults : stored
    }

    /// Changes a lesson type's name, abbreviation and colour (seed 000 lets users edit them).
    public func updateLessonType(_ type: LessonType) async throws -> Bool {
        try await upsertLessonTypesIfMissing()
        let updated = try await db.raw(
            """
            UPDATE lesson_types SET name = \(bind: type.name), abbreviation = \(bind: type.abbreviation),
            colour = \(bind: type.colour) WHERE id = \(bind: type.id) RETURNING id
            """
        ).first()
        if updated != nil { try await bumpVersion() }
        return updated != nil
    }

    private func upsertLessonTypesIfMissing() async throws {
        for type in LessonType.defaults {
            try await db.raw(
                """
                INSERT INTO lesson_types (id, name, abbreviation, colour, is_exam) VALUES
                (\(bind: type.id), \(bind: type.name), \(bind: type.abbreviation), \(bind: type.colour), \(bind: type.isExam))
                ON CONFLICT DO NOTHING
                """
            ).run()
        }
    }

    /// The lessons of any of these groups, teachers and rooms, and these lessons by id (each lesson
    /// once) — or with `all`, every lesson — that can take place in `range`, with their rooms,
    /// teachers and groups.
    public func lessons(
        groups: [String] = [], teachers: [Int64] = [], rooms: [Int64] = [], ids: [Int64] = [], all: Bool = false,
        in range: ClosedRange<LocalDate>? = nil
    ) async throws -> [Lesson] {
        var sources: [SQLQueryString] = []
        if all {
            sources.append("SELECT id AS lesson_id FROM lessons")
        }
        if !ids.isEmpty {
            sources.append("SELECT id AS lesson_id FROM lessons WHERE id IN (\(list(ids)))")
        }
        if !groups.isEmpty {
            sources.append("SELECT lesson_id FROM lesson_groups WHERE group_name IN (\(list(groups)))")
        }
        if !teachers.isEmpty {
            sources.append("SELECT lesson_id FROM lesson_teachers WHERE teacher_id IN (\(list(teachers)))")
        }
        if !rooms.isEmpty {
            sources.append("SELECT lesson_id FROM lesson_rooms WHERE room_id IN (\(list(rooms)))")
        }
        guard !sources.isEmpty else { return [] }
        var query: SQLQueryString = """
            SELECT id, subject, subject_full, type_id, start_minute, end_minute, weekday, weeks, subgroup, start_day,
            end_day, date_day, note, announcement, exam FROM lessons WHERE id IN (
            """
        query += sources.joined(separator: " UNION ")
        query += ")"
        if let range {
            let first = range.lowerBound.dayNumber
            let last = range.upperBound.dayNumber
            query += """
                 AND ((date_day IS NOT NULL AND date_day BETWEEN \(bind: first) AND \(bind: last))
                 OR (date_day IS NULL AND (start_day IS NULL OR start_day <= \(bind: last))
                 AND (end_day IS NULL OR end_day >= \(bind: first))))
                """
        }
        var lessons: [Lesson] = []
        var index: [Int64: Int] = [:]
        for row in try await db.raw(query).all() {
            let lesson = try Self.lesson(row)
            index[lesson.id] = lessons.count
            lessons.append(lesson)
        }
        let ids = Array(index.keys)
        for part in ids.chunked(Self.chunk) {
            let idList = list(Array(part))
            for row in try await db.raw(
                """
                SELECT lr.lesson_id, r.id, r.name, r.building, COALESCE(r.latitude, b.latitude) AS latitude,
                CASE WHEN r.latitude IS NULL THEN b.longitude ELSE r.longitude END AS longitude
                FROM lesson_rooms lr JOIN rooms r ON r.id = lr.room_id LEFT JOIN buildings b ON b.number = r.building
                WHERE lr.lesson_id IN (\(idList)) ORDER BY r.building, r.name
                """
            ).all() {
                let room = Room(
                    id: try row.decode(column: "id", as: Int64.self),
                    name: try row.decode(column: "name", as: String.self),
                    building: try row.decode(column: "building", as: Int?.self))
                guard let at = index[try row.decode(column: "lesson_id", as: Int64.self)] else { continue }
                lessons[at].rooms.append(RoomReference(id: room.id, name: room.displayName, point: try Self.point(row)))
            }
            for row in try await db.raw(
                """
                SELECT lt.lesson_id, t.url_id, t.first_name, t.middle_name, t.last_name FROM lesson_teachers lt
                JOIN teachers t ON t.id = lt.teacher_id WHERE lt.lesson_id IN (\(idList)) ORDER BY t.last_name
                """
            ).all() {
                guard let at = index[try row.decode(column: "lesson_id", as: Int64.self)] else { continue }
                lessons[at].teachers.append(try Self.teacherReference(row))
            }
            for row in try await db.raw(
                "SELECT lesson_id, group_name FROM lesson_groups WHERE lesson_id IN (\(idList)) ORDER BY group_name"
            ).all() {
                guard let at = index[try row.decode(column: "lesson_id", as: Int64.self)] else { continue }
                lessons[at].groups.append(try row.decode(column: "group_name", as: String.self))
            }
        }
        return lessons
    }

    /// The day bounds of these lessons that ``Lesson/dateRange`` cannot say: a weekly lesson with
    /// only a first or a last day, or with its last day before its first (as a source sent it).
    /// A range asked of ``lessons(groups:teachers:rooms:ids:in:)`` compares these days as stored.
    public func irregularDayBounds(of ids: [Int64]) async throws -> [Int64: (first: Int?, last: Int?)] {
        var bounds: [Int64: (first: Int?, last: Int?)] = [:]
        for part in ids.chunked(Self.chunk) {
            for row in try await db.raw(
                """
                SELECT id, start_day, end_day FROM lessons WHERE id IN (\(list(Array(part)))) AND date_day IS NULL
                AND (start_day IS NOT NULL OR end_day IS NOT NULL)
                AND NOT (start_day IS NOT NULL AND end_day IS NOT NULL AND start_day <= end_day)
                """
            ).all() {
                bounds[try row.decode(column: "id", as: Int64.self)] = (
                    try row.decode(column: "start_day", as: Int?.self), try row.decode(column: "end_day", as: Int?.self)
                )
            }
        }
        return bounds
    }

    /// The last-update dates of the schedules stored for groups and teachers (IIS sync compares
    /// them with the server's).
    public func lastUpdates() async throws -> [ScheduleOwner: LocalDate] {
        var result: [ScheduleOwner: LocalDate] = [:]
        for row in try await db.raw("SELECT name, last_update FROM study_groups WHERE last_update IS NOT NULL").all() {
            result[.group(try row.decode(column: "name", as: String.self))] =
                LocalDate(dayNumber: try row.decode(column: "last_update", as: Int.self))
        }
        for row in try await db.raw("SELECT url_id, last_update FROM teachers WHERE last_update IS NOT NULL").all() {
            result[.teacher(try row.decode(column: "url_id", as: String.self))] =
                LocalDate(dayNumber: try row.decode(column: "last_update", as: Int.self))
        }
        return result
    }

    /// How much timetable there is.
    public func counts() async throws -> (groups: Int, teachers: Int, rooms: Int, lessons: Int) {
        func count(_ table: String) async throws -> Int {
            try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first(decodingColumn: "n", as: Int.self)
                ?? 0
        }
        return (
            try await count("study_groups"), try await count("teachers"), try await count("rooms"),
            try await count("lessons")
        )
    }
}
