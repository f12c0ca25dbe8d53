import Foundation
import Timetable

/// A group's or a teacher's schedule: lessons, exams and announcements, with their weeks, dates and
/// subgroups.
extension IIS {
    // MARK: Schedules

    struct ScheduleDTO {
        var startDate: String?
        var endDate: String?
        var startExamsDate: String?
        var endExamsDate: String?
        var studentGroupDto: GroupDTO?
        var employeeDto: EmployeeDTO?
        var schedules: [String: [LessonDTO]]?
        var exams: [LessonDTO]?
    }

    struct EmbeddedGroupDTO {
        var name: String
        var numberOfStudents: Int?
        var educationDegree: Int?
        var specialityName: String?
        var specialityCode: String?
    }

    struct LessonDTO {
        var subject: String?
        var subjectFullName: String?
        var lessonTypeAbbrev: String?
        var startLessonTime: String?
        var endLessonTime: String?
        var weekNumber: [Int]?
        var numSubgroup: Int?
        var auditories: [String]?
        var employees: [EmployeeDTO]?
        var studentGroups: [EmbeddedGroupDTO]?
        var note: String?
        var dateLesson: String?
        var startLessonDate: String?
        var endLessonDate: String?
        var announcement: Bool?
        var announcementStart: String?
        var announcementEnd: String?
    }

    /// `GET /schedule?studentGroup=…` or `GET /employees/schedule/{urlId}`: the owner's lessons
    /// (weekly ones under `schedules`, keyed by weekday; dated ones under `exams`), the term and
    /// exam-session dates, and the groups, teachers and rooms the lessons name.
    static func schedule(_ data: Data) throws -> TimetableImport {
        let dto = try readSchedule(data)
        var result = TimetableImport()
        let owner: ScheduleOwner
        if let group = dto.studentGroupDto {
            try result.add(group: group, path: "studentGroupDto")
            owner = .group(group.name)
        } else if let employee = dto.employeeDto {
            let teacher = try teacher(employee, path: "employeeDto")
            result.teachers.append(teacher)
            owner = .teacher(teacher.urlID)
        } else {
            throw ImportError(
                field: "studentGroupDto", detail: "is missing, and so is employeeDto: whose schedule is this?")
        }
        let term = TermDates(
            lessonsStart: try date(dto.startDate, "startDate"), lessonsEnd: try date(dto.endDate, "endDate"),
            examsStart: try date(dto.startExamsDate, "startExamsDate"),
            examsEnd: try date(dto.endExamsDate, "endExamsDate"))
        var lessons: [ImportedLesson] = []
        var seenRooms: [RoomKey: ImportedRoom] = [:]
        var seenTeachers: [String: ImportedTeacher] = [:]
        var seenGroups: [String: ImportedGroup] = [:]
        var roomsByText: [String: ImportedRoom] = [:]  // a schedule names few rooms, each many times
        func room(_ text: String) -> ImportedRoom? {
            if let known = roomsByText[text] { return known }
            let parsed = IIS.room(text)
            roomsByText[text] = parsed
            return parsed
        }
        func add(_ lesson: LessonDTO, weekday: Weekday?, isExam: Bool, path: @autoclosure () -> String) throws {
            let converted = try self.lesson(
                lesson, weekday: weekday, isExam: isExam, owner: owner, room: room, path: path())
            lessons.append(converted.lesson)
            for room in converted.rooms { seenRooms[room.key] = seenRooms[room.key] ?? room }
            for teacher in converted.teachers { seenTeachers[teacher.urlID] = teacher }
            for group in converted.groups { seenGroups[group.name] = group }
        }
        for (key, dayLessons) in (dto.schedules ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let weekday = Weekday(russian: key) else {
                throw ImportError(
                    field: "schedules.\(key)", detail: "is not a weekday; expected Понедельник … Воскресенье.")
            }
            for (index, lesson) in dayLessons.enumerated() {
                try add(lesson, weekday: weekday, isExam: false, path: "schedules.\(key)[\(index)]")
            }
        }
        for (index, lesson) in (dto.exams ?? []).enumerated() {
            try add(lesson, weekday: nil, isExam: true, path: "exams[\(index)]")
        }
        result.rooms += seenRooms.values.sorted { $0.key < $1.key }
        result.teachers += seenTeachers.values.sorted { $0.urlID < $1.urlID }
        // The owner's own record (from studentGroupDto) says more than the lessons' embedded ones.
        let ownerName: String? = if case .group(let name) = owner { name } else { nil }
        result.groups += seenGroups.values.filter { $0.name != ownerName }.sorted { $0.name < $1.name }
        if let ownerName, let embedded = seenGroups[ownerName],
            let index = result.groups.firstIndex(where: { $0.name == ownerName })
        {
            result.groups[index].studentCount = embedded.studentCount
        }
        result.schedules = [ImportedSchedule(owner: owner, term: term, lessons: lessons)]
        return result
    }

    /// One lesson, checked field by field.
    static func lesson(
        _ dto: LessonDTO, weekday: Weekday?, isExam: Bool, owner: ScheduleOwner,
        room: (String) -> ImportedRoom? = IIS.room, path: @autoclosure () -> String
    ) throws
        -> (lesson: ImportedLesson, rooms: [ImportedRoom], teachers: [ImportedTeacher], groups: [ImportedGroup])
    {
        let isAnnouncement = dto.announcement ?? false
        guard var start = try time(dto.startLessonTime, "\(path()).startLessonTime"),
            var end = try time(dto.endLessonTime, "\(path()).endLessonTime")
        else {
            throw ImportError(
                field: "\(path()).startLessonTime", detail: "is missing: a lesson needs a start and an end time.")
        }
        // An announcement may carry its own times; IIS also puts dates there, which say nothing
        // about the time of day and are left alone.
        if isAnnouncement, let announcedStart = dto.announcementStart.flatMap({ WallTime($0) }),
            let announcedEnd = dto.announcementEnd.flatMap({ WallTime($0) }), announcedStart < announcedEnd
        {
            start = announcedStart
            end = announcedEnd
        }
        guard start < end else {
            throw ImportError(
                field: "\(path()).endLessonTime", detail: "{end} is not after the start time {start}.",
                ["end": String(describing: end), "start": String(describing: start)])
        }
        let single = try date(dto.dateLesson, "\(path()).dateLesson")
        var rangeStart = try date(dto.startLessonDate, "\(path()).startLessonDate")
        var rangeEnd = try date(dto.endLessonDate, "\(path()).endLessonDate")
        if let first = rangeStart, let last = rangeEnd, first > last { swap(&rangeStart, &rangeEnd) }
        var lessonDate: LocalDate?
        var range: ClosedRange<LocalDate>?
        var lessonWeekday = weekday
        if isExam || single != nil || weekday == nil {
            // Exams and one-off lessons have a date; some carry it only as a one-day range.
            guard let day = single ?? rangeStart ?? rangeEnd else {
                throw ImportError(
                    field: "\(path()).dateLesson", detail: "is missing: a lesson in exams needs its date.")
            }
            lessonDate = day
            lessonWeekday = nil
        } else if let first = rangeStart ?? rangeEnd, let last = rangeEnd ?? rangeStart {
            range = first...last
        }
        var weeks = Set((dto.weekNumber ?? []).filter { (1...4).contains($0) })
        if dto.weekNumber?.contains(0) == true || weeks.count == 4 || lessonDate != nil { weeks = [] }
        if let invalid = dto.weekNumber?.first(where: { !(0...4).contains($0) }) {
            throw ImportError(
                field: "\(path()).weekNumber", detail: "{week} is not a study week (1–4, or 0 for every week).",
                ["week": String(describing: invalid)])
        }
        let subgroup = dto.numSubgroup ?? 0
        guard (0...9).contains(subgroup) else {
            throw ImportError(
                field: "\(path()).numSubgroup", detail: "{subgroup} is not a subgroup (0–9).",
                ["subgroup": String(describing: subgroup)])
        }
        var rooms: [ImportedRoom] = []
        for (index, text) in (dto.auditories ?? []).enumerated() {
            guard let room = room(text) else {
                throw ImportError(field: "\(path()).auditories[\(index)]", detail: "is empty.")
            }
            rooms.append(room)
        }
        var teachers: [ImportedTeacher] = []
        for (index, employee) in (dto.employees ?? []).enumerated() {
            teachers.append(try teacher(employee, path: "\(path()).employees[\(index)]"))
        }
        var groups = (dto.studentGroups ?? []).map {
            ImportedGroup(name: $0.name, educationDegree: $0.educationDegree, studentCount: $0.numberOfStudents)
        }
        var teacherIDs = teachers.map(\.urlID)
        switch owner {
        case .group(let name):
            if !groups.contains(where: { $0.name == name }) { groups.append(ImportedGroup(name: name)) }
        case .teacher(let urlID):
            if !teacherIDs.contains(urlID) { teacherIDs.append(urlID) }
        }
        let subject = nonEmpty(dto.subject) ?? nonEmpty(dto.subjectFullName) ?? (isAnnouncement ? "Announcement" : nil)
        guard let subject else {
            throw ImportError(field: "\(path()).subject", detail: "is missing: a lesson needs a subject.")
        }
        let lesson = ImportedLesson(
            subject: subject, subjectFullName: nonEmpty(dto.subjectFullName), typeID: nonEmpty(dto.lessonTypeAbbrev),
            start: start, end: end, weekday: lessonWeekday, weeks: weeks, subgroup: subgroup, dateRange: range,
            date: lessonDate, rooms: rooms.map(\.key), teachers: teacherIDs, groups: groups.map(\.name).sorted(),
            note: nonEmpty(dto.note), isAnnouncement: isAnnouncement, isExam: isExam)
        return (lesson, rooms, teachers, groups)
    }

    /// A teacher from either IIS form: the list's (`degree` is the abbreviation) or the one
    /// embedded in lessons (`degree` is the full name and `degreeAbbrev` the abbreviation).
    static func teacher(_ dto: EmployeeDTO, path: @autoclosure () -> String) throws -> ImportedTeacher {
        guard let urlID = nonEmpty(dto.urlId) else {
            throw ImportError(field: "\(path()).urlId", detail: "is missing: a teacher needs a URL id.")
        }
        guard let lastName = nonEmpty(dto.lastName) else {
            throw ImportError(field: "\(path()).lastName", detail: "is missing.")
        }
        var degree: String?
        var abbreviation: String?
        if let degreeAbbrev = nonEmpty(dto.degreeAbbrev) {
            abbreviation = degreeAbbrev
            degree = nonEmpty(dto.degree)
        } else {
            abbreviation = nonEmpty(dto.degree)
        }
        return ImportedTeacher(
            urlID: urlID, firstName: nonEmpty(dto.firstName) ?? "", middleName: nonEmpty(dto.middleName),
            lastName: lastName, rank: nonEmpty(dto.rank), degree: degree, degreeAbbreviation: abbreviation,
            departments: dto.academicDepartment.map { $0.compactMap { nonEmpty($0).map(Department.key) } },
            photoURL: nonEmpty(dto.photoLink), email: nonEmpty(dto.email), iisID: dto.id)
    }
}
