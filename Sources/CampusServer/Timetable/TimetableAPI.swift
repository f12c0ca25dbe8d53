import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import Localization
import OpenAPIRuntime
import Storage
import Timetable

extension APIHandler {
    var timetable: TimetableService { services.timetable }

    var directory: TimetableDirectory { services.directory }

    // MARK: Directory

    func listFaculties(_ input: Operations.listFaculties.Input) async throws -> Operations.listFaculties.Output {
        .ok(.init(body: .json(try await directory.faculties().map(\.api))))
    }

    func listSpecialities(_ input: Operations.listSpecialities.Input) async throws -> Operations.listSpecialities.Output
    {
        .ok(.init(body: .json(try await directory.specialities().map(\.api))))
    }

    func listDepartments(_ input: Operations.listDepartments.Input) async throws -> Operations.listDepartments.Output {
        let (sections, _) = try await directory.departments(search: input.query.q, sections: .letter)
        return .ok(
            .init(
                body: .json(
                    sections.flatMap(\.items).map {
                        .init(abbreviation: $0.abbreviation, name: $0.name)
                    })))
    }

    func listLessonTypes(_ input: Operations.listLessonTypes.Input) async throws -> Operations.listLessonTypes.Output {
        .ok(.init(body: .json(try await directory.lessonTypes().map(\.api))))
    }

    func updateLessonType(_ input: Operations.updateLessonType.Input) async throws -> Operations.updateLessonType.Output
    {
        let admin = try await requireAdmin()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the lesson type as JSON.") }
        let changed = try await directory.updateLessonType(
            id: input.path.typeId, name: body.name.trimmed, abbreviation: body.abbreviation.trimmed,
            colour: body.colour.lowercased(), by: admin.user)
        return .ok(.init(body: .json(changed.api)))
    }

    func listGroups(_ input: Operations.listGroups.Input) async throws -> Operations.listGroups.Output {
        let query = input.query
        let (sections, specialityByID) = try await directory.groups(
            filter: .init(
                search: query.q, facultyID: query.faculty.map(Int.init), course: query.course,
                educationDegree: query.degree, specialityID: query.speciality.map(Int.init),
                educationFormID: query.form),
            sections: Listing.GroupSections(rawValue: query.sections?.rawValue ?? "speciality") ?? .speciality)
        return .ok(
            .init(
                body: .json(
                    .init(
                        total: sections.reduce(0) { $0 + $1.items.count },
                        sections: sections.map { section in
                            .init(
                                title: section.title, items: section.items.map { $0.api(specialities: specialityByID) })
                        }))))
    }

    func getGroup(_ input: Operations.getGroup.Input) async throws -> Operations.getGroup.Output {
        let detail = try await directory.group(named: input.path.name)
        let (group, speciality, faculty, flow) = (detail.group, detail.speciality, detail.faculty, detail.flow)
        let specialities = speciality.map { [$0.id: $0] } ?? [:]
        return .ok(
            .init(
                body: .json(
                    .init(
                        group: group.api(specialities: specialities), faculty: faculty?.api,
                        speciality: speciality?.api,
                        term: group.term.api, flow: flow.map(\.name)))))
    }

    func listTeachers(_ input: Operations.listTeachers.Input) async throws -> Operations.listTeachers.Output {
        let sections = try await directory.teachers(
            search: input.query.q, department: input.query.department,
            sections: Listing.TeacherSections(rawValue: input.query.sections?.rawValue ?? "letter") ?? .letter)
        return .ok(
            .init(
                body: .json(
                    .init(
                        total: Set(sections.flatMap { $0.items.map(\.id) }).count,
                        sections: sections.map { .init(title: $0.title, items: $0.items.map(\.api)) }))))
    }

    func getTeacher(_ input: Operations.getTeacher.Input) async throws -> Operations.getTeacher.Output {
        let (teacher, card) = try await directory.teacher(urlID: input.path.urlId)
        return .ok(
            .init(
                body: .json(
                    .init(
                        teacher: teacher.api, email: teacher.email,
                        card: card.map {
                            .init(
                                description: $0.description, subject: $0.subject,
                                marksAttendance: $0.marksAttendance.flatMap { .init(rawValue: $0.rawValue) },
                                automaticPassPossible: $0.automaticPassPossible)
                        }, term: teacher.term.api))))
    }

    func listRooms(_ input: Operations.listRooms.Input) async throws -> Operations.listRooms.Output {
        let sections = try await directory.rooms(
            search: input.query.q, type: input.query._type, building: input.query.building,
            sections: Listing.RoomSections(rawValue: input.query.sections?.rawValue ?? "building") ?? .building)
        return .ok(
            .init(
                body: .json(
                    .init(
                        total: sections.reduce(0) { $0 + $1.items.count },
                        sections: sections.map { .init(title: $0.title, items: $0.items.map(\.api)) }))))
    }

    func getRoom(_ input: Operations.getRoom.Input) async throws -> Operations.getRoom.Output {
        .ok(.init(body: .json(try await directory.room(id: input.path.roomId).api)))
    }

    // MARK: Schedules

    /// The schedule document (``ScheduleDocuments``, which the schedule fast path writes too).
    func schedule(
        _ targets: [TimetableService.Target], from: String?, to: String?, subgroup: Int?, subjects: [String]?
    ) async throws -> Components.Schemas.Schedule {
        try await ScheduleDocuments(timetable: timetable).document(
            targets, from: from, to: to, subgroup: subgroup, subjects: subjects)
    }

    func schedule(_ targets: [TimetableService.Target], from: String?, to: String?, filter: ScheduleFilter)
        async throws -> Components.Schemas.Schedule
    {
        try await ScheduleDocuments(timetable: timetable).document(targets, from: from, to: to, filter: filter)
    }

    func getGroupSchedule(_ input: Operations.getGroupSchedule.Input) async throws -> Operations.getGroupSchedule.Output
    {
        .ok(
            .init(
                body: .json(
                    try await schedule(
                        [.group(input.path.name)], from: input.query.from, to: input.query.to,
                        subgroup: input.query.subgroup, subjects: input.query.subject))))
    }

    func getTeacherSchedule(_ input: Operations.getTeacherSchedule.Input) async throws
        -> Operations.getTeacherSchedule.Output
    {
        .ok(
            .init(
                body: .json(
                    try await schedule(
                        [.teacher(input.path.urlId)], from: input.query.from, to: input.query.to, subgroup: nil,
                        subjects: input.query.subject))))
    }

    func getRoomSchedule(_ input: Operations.getRoomSchedule.Input) async throws -> Operations.getRoomSchedule.Output {
        .ok(
            .init(
                body: .json(
                    try await schedule(
                        [.room(input.path.roomId)], from: input.query.from, to: input.query.to, subgroup: nil,
                        subjects: input.query.subject))))
    }

    func getCompoundSchedule(_ input: Operations.getCompoundSchedule.Input) async throws
        -> Operations.getCompoundSchedule.Output
    {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the request as JSON.") }
        let targets: [TimetableService.Target] =
            (body.groups ?? []).map { .group($0) } + (body.teachers ?? []).map { .teacher($0) }
            + (body.rooms ?? []).map { .room($0) }
        guard !targets.isEmpty else {
            throw Problem.invalid(FieldProblem(field: "groups", detail: "Name at least one group, teacher or room."))
        }
        return .ok(
            .init(
                body: .json(
                    try await schedule(
                        targets, from: body.from, to: body.to, subgroup: body.subgroup, subjects: body.subjects))))
    }

    private func now(_ targets: [TimetableService.Target], subgroup: Int?) async throws -> Components.Schemas.NowAndNext
    {
        let (result, types) = try await timetable.nowAndNext(
            of: targets, filter: ScheduleFilter(subgroup: subgroup == 0 ? nil : subgroup))
        return .init(
            now: services.now(), current: result.current.map { $0.api(types: types) },
            next: result.next.map { $0.api(types: types) }, minutesLeft: result.minutesLeft,
            minutesUntilNext: result.minutesUntilNext)
    }

    func getGroupNow(_ input: Operations.getGroupNow.Input) async throws -> Operations.getGroupNow.Output {
        .ok(.init(body: .json(try await now([.group(input.path.name)], subgroup: input.query.subgroup))))
    }

    func getTeacherNow(_ input: Operations.getTeacherNow.Input) async throws -> Operations.getTeacherNow.Output {
        .ok(.init(body: .json(try await now([.teacher(input.path.urlId)], subgroup: nil))))
    }

    func getRoomNow(_ input: Operations.getRoomNow.Input) async throws -> Operations.getRoomNow.Output {
        .ok(.init(body: .json(try await now([.room(input.path.roomId)], subgroup: nil))))
    }

    private func calendar(_ target: TimetableService.Target, name: String, subgroup: Int?) async throws -> HTTPBody {
        let host = URL(string: services.configuration.resolvedBaseURL)?.host ?? "campus"
        let text = try await timetable.iCalendar(
            of: [target], name: name, host: host, filter: ScheduleFilter(subgroup: subgroup == 0 ? nil : subgroup),
            words: .init(institutionLanguage))
        return HTTPBody(text)
    }

    /// Feeds need no account: they speak the institution's language.
    private var institutionLanguage: Translator { services.languages.choose(choice: nil, acceptLanguage: nil) }

    func getGroupCalendar(_ input: Operations.getGroupCalendar.Input) async throws -> Operations.getGroupCalendar.Output
    {
        let t = institutionLanguage
        let name = input.path.name
        var title = t("Group {name}", ["name": name])
        if let subgroup = input.query.subgroup, subgroup != 0 {
            title += ", " + t("subgroup {number}", ["number": String(subgroup)])
        }
        return .ok(
            .init(body: .text_calendar(try await calendar(.group(name), name: title, subgroup: input.query.subgroup))))
    }

    func getTeacherCalendar(_ input: Operations.getTeacherCalendar.Input) async throws
        -> Operations.getTeacherCalendar.Output
    {
        let urlID = input.path.urlId
        let name = try await directory.teacher(urlID: urlID).teacher.fullName
        return .ok(.init(body: .text_calendar(try await calendar(.teacher(urlID), name: name, subgroup: nil))))
    }

    func getRoomCalendar(_ input: Operations.getRoomCalendar.Input) async throws -> Operations.getRoomCalendar.Output {
        let id = input.path.roomId
        let name = institutionLanguage("Room {name}", ["name": try await directory.room(id: id).displayName])
        return .ok(.init(body: .text_calendar(try await calendar(.room(id), name: name, subgroup: nil))))
    }

    func getStudyWeek(_ input: Operations.getStudyWeek.Input) async throws -> Operations.getStudyWeek.Output {
        var date = timetable.today()
        if let text = input.query.date {
            date = try TimetableService.date(text, field: "date")
        }
        let calendar = try await timetable.studyCalendar()
        let week = calendar.week(of: date)
        return .ok(
            .init(
                body: .json(
                    .init(
                        date: date.iso, week: week, weekName: week.map(calendar.weekName),
                        calendar: calendar.cycleLength == nil ? .dated : .cycle, cycleLength: calendar.cycleLength,
                        monday: date.monday.iso))))
    }
}

// MARK: - API shapes

extension Faculty {
    var api: Components.Schemas.Faculty { .init(id: Int64(id), name: name, abbreviation: abbreviation) }
}

extension Speciality {
    var api: Components.Schemas.Speciality {
        .init(
            id: Int64(id), name: name, abbreviation: abbreviation, code: code, facultyId: facultyID.map(Int64.init),
            educationForm: educationForm.map { .init(id: Int64($0.id), name: $0.name) })
    }
}

extension LessonType {
    var api: Components.Schemas.LessonType {
        .init(id: id, name: name, abbreviation: abbreviation, colour: colour, exam: isExam)
    }
}

extension TermDates {
    var api: Components.Schemas.TermDates {
        .init(
            lessonsStart: lessonsStart?.iso, lessonsEnd: lessonsEnd?.iso, examsStart: examsStart?.iso,
            examsEnd: examsEnd?.iso, lastChanged: lastChanged?.iso)
    }
}

extension StudyGroup {
    func api(specialities: [Int: Speciality]) -> Components.Schemas.GroupSummary {
        .init(
            name: name, title: title, course: course, facultyId: facultyID.map(Int64.init),
            specialityId: specialityID.map(Int64.init),
            specialityAbbreviation: specialityID.flatMap { specialities[$0]?.abbreviation },
            educationDegree: educationDegree, studentCount: studentCount)
    }
}

extension Teacher {
    var api: Components.Schemas.TeacherSummary {
        .init(
            urlId: urlID, name: fullName, shortName: shortName, firstName: firstName, middleName: middleName,
            lastName: lastName, rank: rank, degree: degree, degreeAbbreviation: degreeAbbreviation,
            departments: departments, photoUrl: photoURL)
    }
}

extension Room {
    var api: Components.Schemas.Room {
        .init(
            id: id, name: displayName, building: building, floor: floor, _type: type?.name,
            typeAbbreviation: type?.abbreviation, capacity: capacity, note: note, department: departmentAbbreviation,
            offCampus: isOffCampus, latitude: point?.latitude, longitude: point?.longitude,
            mapUrl: point?.openStreetMapURL)
    }
}

extension Occurrence {
    func api(types: [String: LessonType]) -> Components.Schemas.Occurrence {
        .init(
            lessonId: lesson.id, date: date.iso, start: lesson.start.description, end: lesson.end.description,
            subject: lesson.subject, subjectFullName: lesson.subjectFullName,
            _type: lesson.typeID.map { (types[$0] ?? .unknown($0)).api }, subgroup: lesson.subgroup,
            weeks: lesson.weeks.isEmpty ? nil : lesson.weeks.sorted(),
            rooms: lesson.rooms.map { .init(id: $0.id, name: $0.name, mapUrl: $0.point?.openStreetMapURL) },
            teachers: lesson.teachers.map { .init(urlId: $0.urlID, name: $0.name) }, groups: lesson.groups,
            note: lesson.note, announcement: lesson.isAnnouncement, exam: lesson.isExam)
    }
}
