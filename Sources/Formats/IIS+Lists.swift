import Foundation
import Timetable

/// The lists of IIS: groups, employees (teachers), faculties, specialities, departments and
/// auditories (rooms).
extension IIS {
    // MARK: Lists

    struct GroupDTO {
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
        let list = try readList(data) { try GroupDTO(&$0) }
        var result = TimetableImport()
        for (index, dto) in list.enumerated() {
            try result.add(group: dto, path: "[\(index)]")
        }
        return result
    }

    struct EmployeeDTO {
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
        let list = try readList(data) { try EmployeeDTO(&$0) }
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
                    field: "[\(index)].abbrev", detail: "is missing: a department needs an abbreviation.")
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
                throw ImportError(field: "[\(index)].name", detail: "is empty.")
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
}

extension TimetableImport {
    /// A group of the IIS list (or a schedule's `studentGroupDto`), with the faculty and
    /// speciality it names.
    mutating func add(group dto: IIS.GroupDTO, path: String) throws {
        guard let name = IIS.nonEmpty(dto.name) else {
            throw ImportError(field: "\(path).name", detail: "is empty: a group needs a name.")
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
