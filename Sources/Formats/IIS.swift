import Foundation
import Timetable

/// Reads BSUIR IIS API responses (https://iis.bsuir.by/api/v1/…) into timetable imports, with
/// the decoding rules of seed 000 (section 3.6 and appendix A).
public enum IIS {
    /// What a file (or an API response) holds, told from its shape.
    public enum Document: Sendable {
        case schedule
        case groups
        case employees
        case faculties
        case specialities
        case departments
        case auditories
        case lastUpdate
    }

    /// Reads any IIS response: a group's or teacher's schedule, or one of the lists.
    public static func read(_ data: Data, file: String? = nil) throws -> TimetableImport {
        do {
            let result: TimetableImport
            switch try kind(of: data) {
            case .schedule: result = try schedule(data)
            case .groups: result = try groups(data)
            case .employees: result = try employees(data)
            case .faculties: result = try faculties(data)
            case .specialities: result = try specialities(data)
            case .departments: result = try departments(data)
            case .auditories: result = try auditories(data).import
            case .lastUpdate:
                throw ImportError(field: "", message: "is a last-update date, not timetable data.")
            }
            return try result.checked(file: nil)
        } catch let error as ImportError {
            throw file.map { error.inFile($0) } ?? error
        } catch let error as DecodingError {
            throw ImportError(error, file: file)
        }
    }

    /// Tells a document's kind from its keys.
    public static func kind(of data: Data) throws -> Document {
        // The common cases without parsing the whole file: an object with a schedule's keys.
        if let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }),
            first == UInt8(ascii: "{")
        {
            let head = data.prefix(4096)
            for key in ["\"schedules\"", "\"studentGroupDto\"", "\"employeeDto\"", "\"exams\""]
            where head.range(of: Data(key.utf8)) != nil {
                return .schedule
            }
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ImportError(field: "", message: "is not valid JSON.")
        }
        if let object = json as? [String: Any] {
            if object["lastUpdateDate"] != nil { return .lastUpdate }
            if object.keys.contains(where: { ["schedules", "exams", "studentGroupDto", "employeeDto"].contains($0) }) {
                return .schedule
            }
            throw ImportError(
                field: "", message: "is not an IIS schedule: it has no \"schedules\", \"exams\" or \"studentGroupDto\"."
            )
        }
        guard let array = json as? [Any] else {
            throw ImportError(field: "", message: "is neither an IIS schedule (an object) nor an IIS list (an array).")
        }
        guard let first = array.first as? [String: Any] else {
            throw ImportError(field: "", message: "is an empty list, or a list of something other than objects.")
        }
        let keys = Set(first.keys)
        if keys.contains("specialityDepartmentEducationFormId") || keys.contains("educationDegree") { return .groups }
        if keys.contains("urlId") || keys.contains("academicDepartment") { return .employees }
        if keys.contains("buildingNumber") || keys.contains("auditoryType") { return .auditories }
        if keys.contains("educationForm") || keys.contains("code") { return .specialities }
        if keys.contains("abbrev") && keys.contains("name") {
            // Faculties and departments look alike; departments' abbreviations say "Каф.".
            let abbreviations = array.compactMap { ($0 as? [String: Any])?["abbrev"] as? String }
            return abbreviations.contains { $0.hasPrefix("Каф") } ? .departments : .faculties
        }
        throw ImportError(
            field: "[0]", message: "is not an IIS group, employee, auditory, faculty, speciality or department.")
    }

    // MARK: Lists

    struct GroupDTO: Decodable {
        var id: Int?
        var name: String
        var facultyId: Int?
        var facultyAbbrev: String?
        var specialityDepartmentEducationFormId: Int?
        var specialityName: String?
        var specialityAbbrev: String?
        var course: Int?
        var educationDegree: Int?
    }

    /// `GET /student-groups`: groups, with the faculties and specialities they name.
    static func groups(_ data: Data) throws -> TimetableImport {
        let list = try JSONDecoder().decode([GroupDTO].self, from: data)
        var result = TimetableImport()
        for (index, dto) in list.enumerated() {
            try result.add(group: dto, path: "[\(index)]")
        }
        return result
    }

    struct EmployeeDTO: Decodable {
        var id: Int?
        var urlId: String?
        var firstName: String?
        var middleName: String?
        var lastName: String?
        var rank: String?
        var degree: String?
        var degreeAbbrev: String?
        var photoLink: String?
        var email: String?
        var academicDepartment: [String]?
    }

    /// `GET /employees/all`: teachers with their departments.
    static func employees(_ data: Data) throws -> TimetableImport {
        let list = try JSONDecoder().decode([EmployeeDTO].self, from: data)
        var result = TimetableImport()
        var departments = Set<String>()
        for (index, dto) in list.enumerated() {
            let teacher = try teacher(dto, path: "[\(index)]")
            result.teachers.append(teacher)
            departments.formUnion(teacher.departments ?? [])
        }
        result.departments = departments.sorted().map { Department(abbreviation: $0) }
        return result
    }

    struct FacultyDTO: Decodable {
        var id: Int
        var name: String?
        var abbrev: String?
    }

    /// `GET /faculties`.
    static func faculties(_ data: Data) throws -> TimetableImport {
        var result = TimetableImport()
        result.faculties = try JSONDecoder().decode([FacultyDTO].self, from: data).map {
            Faculty(
                id: $0.id, name: nonEmpty($0.name), abbreviation: nonEmpty($0.abbrev) ?? nonEmpty($0.name) ?? "\($0.id)"
            )
        }
        return result
    }

    struct SpecialityDTO: Decodable {
        struct Form: Decodable {
            var id: Int
            var name: String
        }
        var id: Int
        var name: String
        var abbrev: String?
        var code: String?
        var facultyId: Int?
        var educationForm: Form?
    }

    /// `GET /specialities`. Some name faculties that no longer exist; they are kept.
    static func specialities(_ data: Data) throws -> TimetableImport {
        var result = TimetableImport()
        result.specialities = try JSONDecoder().decode([SpecialityDTO].self, from: data).map {
            Speciality(
                id: $0.id, name: $0.name, abbreviation: nonEmpty($0.abbrev) ?? $0.name, code: nonEmpty($0.code),
                facultyID: $0.facultyId,
                educationForm: $0.educationForm.map { EducationForm(id: $0.id, name: $0.name.capitalizedFirst) })
        }
        return result
    }

    struct DepartmentDTO: Decodable {
        var id: Int?
        var idDepartment: Int?
        var name: String?
        var abbrev: String?
    }

    /// `GET /departments` (chairs only; other units appear as auditories' departments).
    static func departments(_ data: Data) throws -> TimetableImport {
        var result = TimetableImport()
        result.departments = try JSONDecoder().decode([DepartmentDTO].self, from: data).enumerated().map {
            index, dto in
            guard let abbreviation = nonEmpty(dto.abbrev) ?? nonEmpty(dto.name) else {
                throw ImportError(
                    field: "[\(index)].abbrev", message: "is missing: a department needs an abbreviation.")
            }
            return Department(
                abbreviation: Department.key(abbreviation), name: nonEmpty(dto.name), iisID: dto.id ?? dto.idDepartment)
        }
        return result
    }

    struct AuditoryDTO: Decodable {
        struct Kind: Decodable {
            var id: Int?
            var name: String?
            var abbrev: String?
        }
        struct Building: Decodable {
            var id: Int?
            var name: String
        }
        var id: Int?
        var name: String
        var note: String?
        var capacity: Int?
        var auditoryType: Kind?
        var buildingNumber: Building?
        var department: DepartmentDTO?
    }

    /// `GET /auditories`. Rooms in buildings without a number (hostels, the college branch) are
    /// left out and counted in `skipped`; their lessons' rooms still come from the schedules.
    public static func auditories(_ data: Data) throws -> (import: TimetableImport, skipped: [String]) {
        var result = TimetableImport()
        var skipped: [String] = []
        var departments: [String: Department] = [:]
        for (index, dto) in try JSONDecoder().decode([AuditoryDTO].self, from: data).enumerated() {
            guard let buildingName = dto.buildingNumber?.name,
                let building = Int(buildingName.trimmingCharacters(in: CharacterSet(charactersIn: " к.")))
            else {
                skipped.append("\(dto.name) (\(dto.buildingNumber?.name ?? "no building"))")
                continue
            }
            guard let parsed = room(named: dto.name, building: building) else {
                throw ImportError(field: "[\(index)].name", message: "is empty.")
            }
            var departmentKey: String?
            if let department = dto.department,
                let abbreviation = nonEmpty(department.abbrev) ?? nonEmpty(department.name)
            {
                let key = Department.key(abbreviation)
                departmentKey = key
                departments[key] = Department(
                    abbreviation: key, name: nonEmpty(department.name), iisID: department.idDepartment ?? department.id)
            }
            var room = parsed
            room.type = dto.auditoryType.flatMap { type in
                nonEmpty(type.name).map {
                    RoomType(name: $0.capitalizedFirst, abbreviation: (nonEmpty(type.abbrev) ?? $0).uppercased())
                }
            }
            room.capacity = dto.capacity.flatMap { $0 > 0 ? $0 : nil }
            room.note = nonEmpty(dto.note)
            room.departmentAbbreviation = departmentKey
            room.iisID = dto.id
            result.rooms.append(room)
        }
        result.departments = departments.values.sorted { $0.abbreviation < $1.abbreviation }
        return (try result.checked(file: nil), skipped)
    }

    // MARK: Schedules

    struct ScheduleDTO: Decodable {
        var startDate: String?
        var endDate: String?
        var startExamsDate: String?
        var endExamsDate: String?
        var studentGroupDto: GroupDTO?
        var employeeDto: EmployeeDTO?
        var schedules: [String: [LessonDTO]]?
        var exams: [LessonDTO]?
    }

    struct EmbeddedGroupDTO: Decodable {
        var name: String
        var numberOfStudents: Int?
        var educationDegree: Int?
        var specialityName: String?
        var specialityCode: String?
    }

    struct LessonDTO: Decodable {
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
        let dto = try JSONDecoder().decode(ScheduleDTO.self, from: data)
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
                field: "studentGroupDto", message: "is missing, and so is employeeDto: whose schedule is this?")
        }
        let term = TermDates(
            lessonsStart: try date(dto.startDate, "startDate"), lessonsEnd: try date(dto.endDate, "endDate"),
            examsStart: try date(dto.startExamsDate, "startExamsDate"),
            examsEnd: try date(dto.endExamsDate, "endExamsDate"))
        var lessons: [ImportedLesson] = []
        var seenRooms: [RoomKey: ImportedRoom] = [:]
        var seenTeachers: [String: ImportedTeacher] = [:]
        var seenGroups: [String: ImportedGroup] = [:]
        func add(_ lesson: LessonDTO, weekday: Weekday?, isExam: Bool, path: @autoclosure () -> String) throws {
            let converted = try self.lesson(lesson, weekday: weekday, isExam: isExam, owner: owner, path: path())
            lessons.append(converted.lesson)
            for room in converted.rooms { seenRooms[room.key] = seenRooms[room.key] ?? room }
            for teacher in converted.teachers { seenTeachers[teacher.urlID] = teacher }
            for group in converted.groups { seenGroups[group.name] = group }
        }
        for (key, dayLessons) in (dto.schedules ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let weekday = Weekday(russian: key) else {
                throw ImportError(
                    field: "schedules.\(key)", message: "is not a weekday; expected Понедельник … Воскресенье.")
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
        _ dto: LessonDTO, weekday: Weekday?, isExam: Bool, owner: ScheduleOwner, path: @autoclosure () -> String
    ) throws
        -> (lesson: ImportedLesson, rooms: [ImportedRoom], teachers: [ImportedTeacher], groups: [ImportedGroup])
    {
        let isAnnouncement = dto.announcement ?? false
        guard var start = try time(dto.startLessonTime, "\(path()).startLessonTime"),
            var end = try time(dto.endLessonTime, "\(path()).endLessonTime")
        else {
            throw ImportError(
                field: "\(path()).startLessonTime", message: "is missing: a lesson needs a start and an end time.")
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
            throw ImportError(field: "\(path()).endLessonTime", message: "\(end) is not after the start time \(start).")
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
                    field: "\(path()).dateLesson", message: "is missing: a lesson in exams needs its date.")
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
                field: "\(path()).weekNumber", message: "\(invalid) is not a study week (1–4, or 0 for every week).")
        }
        let subgroup = dto.numSubgroup ?? 0
        guard (0...9).contains(subgroup) else {
            throw ImportError(field: "\(path()).numSubgroup", message: "\(subgroup) is not a subgroup (0–9).")
        }
        var rooms: [ImportedRoom] = []
        for (index, text) in (dto.auditories ?? []).enumerated() {
            guard let room = room(text) else {
                throw ImportError(field: "\(path()).auditories[\(index)]", message: "is empty.")
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
            throw ImportError(field: "\(path()).subject", message: "is missing: a lesson needs a subject.")
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
            throw ImportError(field: "\(path()).urlId", message: "is missing: a teacher needs a URL id.")
        }
        guard let lastName = nonEmpty(dto.lastName) else {
            throw ImportError(field: "\(path()).lastName", message: "is missing.")
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

    // MARK: Rooms

    /// A lesson's room string: "604-5 к." is room 604 in building 5; "213a-4 к." (Latin a) is
    /// 213а; "epam 104 к1-2 к." is a room off campus credited to building 2. A string without a
    /// building is a room of its own name.
    public static func room(_ text: String) -> ImportedRoom? {
        guard let trimmed = nonEmpty(text) else { return nil }
        // "<room>-<building> к." read from the end: an optional ".", "к", spaces, the digits of
        // the building, spaces, "-".
        var rest = Substring(trimmed)
        if rest.last == "." { rest.removeLast() }
        if rest.last == "к" || rest.last == "К" {
            rest.removeLast()
            while rest.last?.isWhitespace == true { rest.removeLast() }
            let digits = rest.reversed().prefix { $0.isASCII && $0.isNumber }
            if (1...3).contains(digits.count), let building = Int(String(digits.reversed())) {
                rest.removeLast(digits.count)
                while rest.last?.isWhitespace == true { rest.removeLast() }
                if rest.last == "-" {
                    rest.removeLast()
                    while rest.last?.isWhitespace == true { rest.removeLast() }
                    if !rest.isEmpty { return room(named: String(rest), building: building) }
                }
            }
        }
        return room(named: trimmed, building: nil)
    }

    /// A room name within a building, with its floor: the first digit of a number of three or
    /// more digits ("604" → 6); numbers of one or two digits are on floor 0 ("04", "31"). A name
    /// that does not start with a digit is off campus.
    static func room(named raw: String, building: Int?) -> ImportedRoom? {
        let name = normalizedRoomName(raw.trimmingCharacters(in: .whitespaces))
        guard let first = name.first else { return nil }
        guard first.isASCII, first.isNumber else {
            return ImportedRoom(key: RoomKey(name: name, building: building), floor: nil, isOffCampus: true)
        }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        let floor = digits.count >= 3 ? digits.first.flatMap { Int(String($0)) } : 0
        return ImportedRoom(key: RoomKey(name: name, building: building), floor: floor, isOffCampus: false)
    }

    /// Latin letters that look like Cyrillic ones, as typed after a room number ("213a" → "213а").
    static func normalizedRoomName(_ name: String) -> String {
        guard name.first?.isNumber == true else { return name }
        let lookalikes: [Character: Character] = [
            "a": "а", "b": "б", "e": "е", "o": "о", "c": "с", "p": "р", "x": "х", "k": "к", "m": "м", "t": "т",
            "A": "А", "B": "В", "E": "Е", "O": "О", "C": "С", "P": "Р", "X": "Х", "K": "К", "M": "М", "T": "Т",
        ]
        let digits = name.prefix { $0.isNumber }
        let rest = name.dropFirst(digits.count)
        guard rest.count <= 2 else { return name }
        return String(digits) + String(rest.map { lookalikes[$0] ?? $0 })
    }

    // MARK: Values

    static func date(_ text: String?, _ path: @autoclosure () -> String) throws -> LocalDate? {
        guard let text = nonEmpty(text) else { return nil }
        switch LocalDate.read(dotted: text) {
        case .success(let date): return date
        case .failure(.outOfRange):
            throw ImportError(
                field: path(), message: "\"\(text)\" is outside the dates Campus works with, 01.01.1900 to 31.12.2200.")
        case .failure(.malformed):
            throw ImportError(field: path(), message: "\"\(text)\" is not a date like 01.09.2023.")
        }
    }

    static func time(_ text: String?, _ path: @autoclosure () -> String) throws -> WallTime? {
        guard let text = nonEmpty(text) else { return nil }
        guard let time = WallTime(text) else {
            throw ImportError(field: path(), message: "\"\(text)\" is not a time like 09:00.")
        }
        return time
    }

    /// Unicode's White_Space characters, told without a property lookup.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, let first = text.unicodeScalars.first else { return nil }
        // Most strings have no spaces around them; trimming only those that do is much cheaper.
        guard isWhitespace(first) || isWhitespace(text.unicodeScalars.last ?? first) else { return text }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `GET /last-update-date/…`: `{"lastUpdateDate": "dd.MM.yyyy"}`.
    public static func lastUpdate(_ data: Data) throws -> LocalDate {
        struct DTO: Decodable { var lastUpdateDate: String }
        let dto: DTO
        do {
            dto = try JSONDecoder().decode(DTO.self, from: data)
        } catch let error as DecodingError {
            throw ImportError(error)
        }
        guard let date = try date(dto.lastUpdateDate, "lastUpdateDate") else {
            throw ImportError(field: "lastUpdateDate", message: "is empty.")
        }
        return date
    }
}

extension TimetableImport {
    /// A group of the IIS list (or a schedule's `studentGroupDto`), with the faculty and
    /// speciality it names.
    mutating func add(group dto: IIS.GroupDTO, path: String) throws {
        guard let name = IIS.nonEmpty(dto.name) else {
            throw ImportError(field: "\(path).name", message: "is empty: a group needs a name.")
        }
        if let facultyID = dto.facultyId, let abbreviation = IIS.nonEmpty(dto.facultyAbbrev) {
            faculties.append(Faculty(id: facultyID, name: nil, abbreviation: abbreviation))
        }
        if let specialityID = dto.specialityDepartmentEducationFormId,
            let specialityName = IIS.nonEmpty(dto.specialityName)
        {
            specialities.append(
                Speciality(
                    id: specialityID, name: specialityName,
                    abbreviation: IIS.nonEmpty(dto.specialityAbbrev) ?? specialityName, facultyID: dto.facultyId))
        }
        groups.append(
            ImportedGroup(
                name: name, course: dto.course, facultyID: dto.facultyId,
                specialityID: dto.specialityDepartmentEducationFormId, educationDegree: dto.educationDegree,
                iisID: dto.id))
    }
}

extension String {
    /// The text with a capital first letter ("дневная" → "Дневная").
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
