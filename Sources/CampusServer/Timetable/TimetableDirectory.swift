import Accounts
import Foundation
import InputRules
import Storage
import Timetable

/// The timetable's directory as the API and the web pages read it: faculties, specialities,
/// departments, groups, teachers and rooms, listed in sections or found one by one, and the
/// lesson types admins edit. Handlers ask this; only it reads the timetable's tables for them.
struct TimetableDirectory: Sendable {
    let database: Database
    /// Called after a change, so that kept answers are made again (the response cache).
    let changed: @Sendable () -> Void

    private func read<T: Sendable>(_ body: @escaping @Sendable (TimetableStore) async throws -> T) async throws -> T {
        try await database.read { db in try await body(TimetableStore(db)) }
    }

    func faculties() async throws -> [Faculty] { try await read { try await $0.faculties() } }
    func specialities() async throws -> [Speciality] { try await read { try await $0.specialities() } }
    func departments() async throws -> [Department] { try await read { try await $0.departments() } }
    func lessonTypes() async throws -> [LessonType] { try await read { try await $0.lessonTypes() } }
    func counts() async throws -> (groups: Int, teachers: Int, rooms: Int, lessons: Int) {
        try await read { try await $0.counts() }
    }

    /// Changes a lesson type's name, abbreviation and colour.
    func updateLessonType(id: String, name: String, abbreviation: String, colour: String, by actor: Account)
        async throws -> LessonType
    {
        guard actor.role == .admin else { throw Refusal.notAllowed("Only admins change lesson types.") }
        guard var type = try await lessonTypes().first(where: { $0.id == id }) else {
            throw Refusal.notFound("There is no lesson type {id}.", ["id": id])
        }
        let before = "\(type.name) (\(type.abbreviation)) \(type.colour)"
        type.name = name
        type.abbreviation = abbreviation
        type.colour = colour
        let changedType = type
        let now = Date()
        try await database.write { db in
            _ = try await TimetableStore(db).updateLessonType(changedType)
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .timetableDirectory, actor: AuditActor(actor),
                    target: AuditTarget(kind: "lesson-type", id: id, label: name), before: before,
                    after: "\(name) (\(abbreviation)) \(colour)"))
        }
        changed()
        return changedType
    }

    // MARK: Groups

    /// Groups in sections, with the specialities they name.
    func groups(filter: Listing.GroupFilter, sections: Listing.GroupSections) async throws -> (
        sections: [Timetable.Section<StudyGroup>], specialities: [Int: Speciality]
    ) {
        let (groups, specialities, faculties) = try await read { store in
            (try await store.groups(), try await store.specialities(), try await store.faculties())
        }
        let specialityByID = Dictionary(specialities.map { ($0.id, $0) }) { a, _ in a }
        let listed = Listing.groups(
            groups, specialities: specialityByID, faculties: Dictionary(faculties.map { ($0.id, $0) }) { a, _ in a },
            filter: filter, sections: sections)
        return (listed, specialityByID)
    }

    struct GroupDetail: Sendable {
        var group: StudyGroup
        var speciality: Speciality?
        var faculty: Faculty?
        /// The other groups of the same speciality and course.
        var flow: [StudyGroup]
    }

    /// A group with its speciality, faculty and flow; 404 when there is none of that name.
    func group(named name: String) async throws -> GroupDetail {
        let found = try await read { store -> GroupDetail? in
            guard let group = try await store.group(named: name) else { return nil }
            let speciality = try await store.specialities().first { $0.id == group.specialityID }
            let facultyID = group.facultyID ?? speciality?.facultyID
            let faculty = try await store.faculties().first { $0.id == facultyID }
            let flow = try await store.groups().filter {
                $0.name != group.name && $0.specialityID != nil && $0.specialityID == group.specialityID
                    && $0.course == group.course
            }
            return GroupDetail(group: group, speciality: speciality, faculty: faculty, flow: flow)
        }
        guard let found else { throw Refusal.notFound("There is no group {name}.", ["name": name]) }
        return found
    }

    // MARK: Teachers and rooms

    func teachers(search: String?, department: String? = nil, sections: Listing.TeacherSections) async throws
        -> [Timetable.Section<Teacher>]
    {
        let teachers = try await read { try await $0.teachers() }
        return Listing.teachers(teachers, search: search, department: department, sections: sections)
    }

    /// The teachers with these URL ids (one read), by URL id.
    func teachers(urlIDs: Set<String>) async throws -> [String: Teacher] {
        guard !urlIDs.isEmpty else { return [:] }
        let teachers = try await read { try await $0.teachers() }
        return Dictionary(teachers.filter { urlIDs.contains($0.urlID) }.map { ($0.urlID, $0) }) { a, _ in a }
    }

    /// Departments in sections, with how many teachers each has.
    func departments(search: String?, sections: Listing.DepartmentSections) async throws -> (
        sections: [Timetable.Section<Department>], teachers: [String: Int]
    ) {
        let (departments, teachers) = try await read { store in
            (try await store.departments(), try await store.teachers())
        }
        var counts: [String: Int] = [:]
        for teacher in teachers {
            for department in Set(teacher.departments) { counts[department, default: 0] += 1 }
        }
        return (Listing.departments(departments, search: search, sections: sections), counts)
    }

    /// A teacher and the students' card about them; 404 when there is none with that URL id.
    func teacher(urlID: String) async throws -> (teacher: Teacher, card: TeacherCard?) {
        let found = try await read { store -> (Teacher, TeacherCard?)? in
            guard let teacher = try await store.teacher(urlID: urlID) else { return nil }
            return (teacher, try await store.teacherCard(teacherID: teacher.id))
        }
        guard let found else { throw Refusal.notFound("There is no teacher {id}.", ["id": urlID]) }
        return found
    }

    func rooms(search: String?, type: String? = nil, building: Int? = nil, sections: Listing.RoomSections)
        async throws -> [Timetable.Section<Room>]
    {
        let rooms = try await read { try await $0.rooms() }
        return Listing.rooms(rooms, search: search, type: type, building: building, sections: sections)
    }

    /// A room; 404 when there is none with that id.
    func room(id: Int64) async throws -> Room {
        guard let room = try await read({ try await $0.room(id: id) }) else {
            throw Refusal.notFound("There is no room {id}.", ["id": String(id)])
        }
        return room
    }

    // MARK: Buildings

    /// Every building a room is in or an admin described.
    func buildings() async throws -> [Building] { try await read { try await $0.buildings() } }

    /// Sets a building's name and place (both coordinates, or neither to clear it); only admins
    /// may.
    func setBuilding(number: Int, name: String?, latitude: Double?, longitude: Double?, by actor: Account)
        async throws -> Building
    {
        guard actor.role == .admin else { throw Refusal.notAllowed("Only admins describe buildings.") }
        var point: MapPoint?
        if latitude != nil || longitude != nil {
            guard let latitude, let longitude else {
                throw Refusal.invalid(
                    FieldProblem(field: "longitude", detail: "Give both latitude and longitude, or neither."))
            }
            guard let valid = MapPoint(latitude: latitude, longitude: longitude) else {
                throw Refusal.invalid(
                    FieldProblem(
                        field: "latitude", detail: "The latitude must be −90 to 90 and the longitude −180 to 180."))
            }
            point = valid
        }
        let name = name.map { TextRules.trimmed($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let now = Date()
        try await database.write { [point] db in
            try await TimetableStore(db).setBuilding(number: number, name: name, point: point)
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .timetableDirectory, actor: AuditActor(actor),
                    target: AuditTarget(kind: "building", id: Int64(number), label: name),
                    after: point.map { "\($0.latitude), \($0.longitude)" }))
        }
        changed()
        return try await buildings().first { $0.number == number }
            ?? Building(number: number, name: name, point: point)
    }

    // MARK: Subjects (seed 003)

    /// The subject catalogue students choose electives from: subjects whose name, speciality or
    /// speciality code begins with the search, of a speciality, year and kind.
    func subjects(
        search: String? = nil, speciality: String? = nil, year: Int? = nil, kind: ImportedSubject.Kind? = nil
    ) async throws -> [ImportedSubject] {
        let words = SearchText(search)
        return try await read { try await $0.subjects() }.filter { subject in
            (speciality == nil || subject.speciality == speciality) && (year == nil || subject.year == year)
                && (kind == nil || subject.kind == kind)
                && (words?.matches(
                    prefixOf: [subject.name, subject.speciality, Electives.code(of: subject.speciality)],
                    contained: [subject.name, subject.speciality]) ?? true)
        }
    }

    /// The catalogue's specialities, by name, with their codes and the years they have subjects
    /// for; searchable by name and code.
    func specialities(search: String?) async throws -> [(name: String, code: String?, years: [Int])] {
        let words = SearchText(search)
        var years: [String: Set<Int>] = [:]
        for subject in try await subjects() { years[subject.speciality, default: []].insert(subject.year) }
        return years.keys.sorted().filter { name in
            words?.matches(prefixOf: [name, Electives.code(of: name)], contained: [name]) ?? true
        }.map { ($0, Electives.code(of: $0), (years[$0] ?? []).sorted()) }
    }
}
