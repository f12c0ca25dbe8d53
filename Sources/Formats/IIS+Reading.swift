import Foundation

/// How IIS's objects are read from JSON, field by field (``JSONReader``: schedules are read by the
/// thousand, and `Codable` made reading them half of an import). Fields not named here are
/// passed over; a field of the wrong type is an error that names it.
extension IIS {
    static func readSchedule(_ data: Data) throws -> ScheduleDTO {
        var reader = try JSONReader(data)
        let dto = try ScheduleDTO(&reader)
        try reader.finish()
        return dto
    }

    /// A list of objects, each read by `element` with its index.
    static func readList<Element>(
        _ data: Data, _ element: (inout JSONReader) throws -> Element
    ) throws -> [Element] {
        var reader = try JSONReader(data)
        let result = try reader.requireArray(element)
        try reader.finish()
        return result
    }
}

extension IIS.ScheduleDTO {
    init(_ reader: inout JSONReader) throws {
        try reader.enterObject()
        while let key = try reader.nextKey() {
            switch key {
            case "startDate": startDate = try reader.readString()
            case "endDate": endDate = try reader.readString()
            case "startExamsDate": startExamsDate = try reader.readString()
            case "endExamsDate": endExamsDate = try reader.readString()
            case "studentGroupDto":
                if try !reader.readNull() { studentGroupDto = try IIS.GroupDTO(&reader) }
            case "employeeDto":
                if try !reader.readNull() { employeeDto = try IIS.EmployeeDTO(&reader) }
            case "schedules":
                guard try reader.beginObject() else { break }
                var days: [String: [IIS.LessonDTO]] = [:]
                while let day = try reader.nextKey() {
                    days[day.string] = try reader.requireArray { try IIS.LessonDTO(&$0) }
                }
                schedules = days
            case "exams": exams = try reader.readArray { try IIS.LessonDTO(&$0) }
            default: try reader.skipValue()
            }
        }
    }
}

extension IIS.LessonDTO {
    init(_ reader: inout JSONReader) throws {
        try reader.enterObject()
        while let key = try reader.nextKey() {
            switch key {
            case "subject": subject = try reader.readString()
            case "subjectFullName": subjectFullName = try reader.readString()
            case "lessonTypeAbbrev": lessonTypeAbbrev = try reader.readString()
            case "startLessonTime": startLessonTime = try reader.readString()
            case "endLessonTime": endLessonTime = try reader.readString()
            case "weekNumber": weekNumber = try reader.readArray { try $0.requireInt() }
            case "numSubgroup": numSubgroup = try reader.readInt()
            case "auditories": auditories = try reader.readArray { try $0.requireString() }
            case "employees": employees = try reader.readArray { try IIS.EmployeeDTO(&$0) }
            case "studentGroups": studentGroups = try reader.readArray { try IIS.EmbeddedGroupDTO(&$0) }
            case "note": note = try reader.readString()
            case "dateLesson": dateLesson = try reader.readString()
            case "startLessonDate": startLessonDate = try reader.readString()
            case "endLessonDate": endLessonDate = try reader.readString()
            case "announcement": announcement = try reader.readBool()
            case "announcementStart": announcementStart = try reader.readString()
            case "announcementEnd": announcementEnd = try reader.readString()
            default: try reader.skipValue()
            }
        }
    }
}

extension IIS.EmbeddedGroupDTO {
    init(_ reader: inout JSONReader) throws {
        try reader.enterObject()
        var name: String?
        while let key = try reader.nextKey() {
            switch key {
            case "name": name = try reader.requireString()
            case "numberOfStudents": numberOfStudents = try reader.readInt()
            case "educationDegree": educationDegree = try reader.readInt()
            case "specialityName": specialityName = try reader.readString()
            case "specialityCode": specialityCode = try reader.readString()
            default: try reader.skipValue()
            }
        }
        guard let name else { throw reader.missing("name") }
        self.name = name
    }
}

extension IIS.GroupDTO {
    init(_ reader: inout JSONReader) throws {
        try reader.enterObject()
        var name: String?
        while let key = try reader.nextKey() {
            switch key {
            case "id": id = try reader.readInt()
            case "name": name = try reader.requireString()
            case "facultyId": facultyId = try reader.readInt()
            case "facultyAbbrev": facultyAbbrev = try reader.readString()
            case "specialityDepartmentEducationFormId": specialityDepartmentEducationFormId = try reader.readInt()
            case "specialityName": specialityName = try reader.readString()
            case "specialityAbbrev": specialityAbbrev = try reader.readString()
            case "course": course = try reader.readInt()
            case "educationDegree": educationDegree = try reader.readInt()
            default: try reader.skipValue()
            }
        }
        guard let name else { throw reader.missing("name") }
        self.name = name
    }
}

extension IIS.EmployeeDTO {
    init(_ reader: inout JSONReader) throws {
        try reader.enterObject()
        while let key = try reader.nextKey() {
            switch key {
            case "id": id = try reader.readInt()
            case "urlId": urlId = try reader.readString()
            case "firstName": firstName = try reader.readString()
            case "middleName": middleName = try reader.readString()
            case "lastName": lastName = try reader.readString()
            case "rank": rank = try reader.readString()
            case "degree": degree = try reader.readString()
            case "degreeAbbrev": degreeAbbrev = try reader.readString()
            case "photoLink": photoLink = try reader.readString()
            case "email": email = try reader.readString()
            case "academicDepartment": academicDepartment = try reader.readArray { try $0.requireString() }
            default: try reader.skipValue()
            }
        }
    }
}
