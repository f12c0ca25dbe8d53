import Crypto
import Foundation
import NIOPosix
import SQLKit
import SharedHelpers
import Timetable

/// The directory an import names (faculties, specialities, departments, lesson types, groups,
/// teachers, rooms, teacher cards, subjects), upserted so that what the import leaves out is kept.
extension TimetableStore {
    /// What storing an import's directory gave: the ids of the teachers and rooms it names.
    public struct StoredDirectory: Sendable {
        var teacherIDs: [String: Int64]
        var roomIDs: [RoomKey: Int64]
        var summary: ImportSummary
    }

    /// Upserts everything an import names but its lessons and their links (window notes and pair
    /// times included); ``storeSchedules(_:directory:staged:now:)`` stores the rest.
    public func storeDirectory(_ data: TimetableImport, now: Date) async throws -> StoredDirectory {
        try await upsertFaculties(data.faculties)
        try await upsertSpecialities(data.specialities)
        try await upsertDepartments(data.departments)
        try await upsertLessonTypes(Set(data.schedules.flatMap { $0.lessons.compactMap(\.typeID) }))
        var summary = ImportSummary()
        summary.groups = try await upsertGroups(data, now: now)
        let teacherIDs = try await upsertTeachers(data, now: now)
        summary.teachers = teacherIDs.count
        let roomIDs = try await upsertRooms(data)
        summary.rooms = roomIDs.count
        try await storeTeacherCards(data.teacherCards, teacherIDs: teacherIDs)
        try await upsertSubjects(data.subjects)
        try await storeWindowNotes(data.windowNotes)
        if let pairs = data.pairTimes { try await SettingsStore(db).set(.pairTimes, to: pairs.text) }
        return StoredDirectory(teacherIDs: teacherIDs, roomIDs: roomIDs, summary: summary)
    }

    func upsertFaculties(_ faculties: [Faculty]) async throws {
        let merged = faculties.merged(by: \.id)
        try await insert(
            "faculties", columns: ["id", "name", "abbreviation"],
            rows: merged.values.sorted { $0.id < $1.id }.map { [$0.id, $0.name, $0.abbreviation] },
            conflict: """
                ON CONFLICT (id) DO UPDATE SET name = COALESCE(excluded.name, faculties.name),
                abbreviation = excluded.abbreviation
                """)
    }

    func upsertSpecialities(_ specialities: [Speciality]) async throws {
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

    func upsertDepartments(_ departments: [Department]) async throws {
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

    func upsertLessonTypes(_ ids: Set<String>) async throws {
        let known = Dictionary(LessonType.defaults.map { ($0.id, $0) }) { a, _ in a }
        let types = LessonType.defaults + ids.subtracting(known.keys).sorted().map(LessonType.unknown)
        try await insert(
            "lesson_types", columns: ["id", "name", "abbreviation", "colour", "is_exam"],
            rows: types.map { [$0.id, $0.name, $0.abbreviation, $0.colour, $0.isExam] }, ignoringConflicts: true)
    }

    /// Every group the import names, with the term dates of the groups whose schedules it holds.
    func upsertGroups(_ data: TimetableImport, now: Date) async throws -> Int {
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
    func upsertTeachers(_ data: TimetableImport, now: Date) async throws -> [String: Int64] {
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
    func upsertRooms(_ data: TimetableImport) async throws -> [RoomKey: Int64] {
        var rooms = data.rooms.merged(by: \.key)
        for schedule in data.schedules {
            for key in schedule.lessons.flatMap(\.rooms) where rooms[key] == nil {
                rooms[key] = Self.roomNamedByLessons(key)
            }
        }
        try await upsertDepartments(
            rooms.values.compactMap { $0.departmentAbbreviation.map { Department(abbreviation: $0) } })
        try await insert(
            "rooms",
            columns: [
                "name", "building", "building_key", "floor", "type_name", "type_abbreviation", "capacity", "note",
                "department", "off_campus", "iis_id", "latitude", "longitude",
            ],
            rows: rooms.values.sorted { $0.key < $1.key }.map { room -> [(any Encodable & Sendable)?] in
                [
                    room.key.name, room.key.building, room.key.building ?? -1, room.floor, room.type?.name,
                    room.type?.abbreviation, room.capacity, room.note, room.departmentAbbreviation, room.isOffCampus,
                    room.iisID, room.point?.latitude, room.point?.longitude,
                ]
            },
            conflict: """
                ON CONFLICT (name, building_key) DO UPDATE SET floor = COALESCE(excluded.floor, rooms.floor),
                type_name = COALESCE(excluded.type_name, rooms.type_name),
                type_abbreviation = COALESCE(excluded.type_abbreviation, rooms.type_abbreviation),
                capacity = COALESCE(excluded.capacity, rooms.capacity), note = COALESCE(excluded.note, rooms.note),
                department = COALESCE(excluded.department, rooms.department), off_campus = excluded.off_campus,
                iis_id = COALESCE(excluded.iis_id, rooms.iis_id),
                latitude = CASE WHEN excluded.latitude IS NULL THEN rooms.latitude ELSE excluded.latitude END,
                longitude = CASE WHEN excluded.latitude IS NULL THEN rooms.longitude ELSE excluded.longitude END
                """)
        var ids: [RoomKey: Int64] = [:]
        for part in Array(rooms.keys).chunked(Self.chunk) {
            var query: SQLQueryString = "SELECT id, name, building_key FROM rooms WHERE "
            for (index, key) in part.enumerated() {
                if index > 0 { query += " OR " }
                query += "(name = \(bind: key.name) AND building_key = \(bind: key.building ?? -1))"
            }
            for row in try await db.raw(query).all() {
                ids[try Self.roomKey(of: row)] = try row.decode(column: "id", as: Int64.self)
            }
        }
        return ids
    }

    func storeTeacherCards(_ cards: [String: TeacherCard], teacherIDs: [String: Int64]) async throws {
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

    func upsertSubjects(_ subjects: [ImportedSubject]) async throws {
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
}
