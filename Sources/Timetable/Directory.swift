import Foundation

/// A faculty ("ФКСиС").
public struct Faculty: Sendable, Hashable, Identifiable {
    public var id: Int
    public var name: String?
    public var abbreviation: String

    public init(id: Int, name: String?, abbreviation: String) {
        self.id = id
        self.name = name
        self.abbreviation = abbreviation
    }
}

/// A form of education ("дневная", "заочная").
public struct EducationForm: Sendable, Hashable {
    public var id: Int
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// A speciality as taught in one form of education at one department.
public struct Speciality: Sendable, Hashable, Identifiable {
    public var id: Int
    public var name: String
    public var abbreviation: String
    public var code: String?
    /// The faculty; may name a faculty the directory does not have (IIS keeps old specialities).
    public var facultyID: Int?
    public var educationForm: EducationForm?

    public init(
        id: Int, name: String, abbreviation: String, code: String? = nil, facultyID: Int? = nil,
        educationForm: EducationForm? = nil
    ) {
        self.id = id
        self.name = name
        self.abbreviation = abbreviation
        self.code = code
        self.facultyID = facultyID
        self.educationForm = educationForm
    }
}

/// A department (кафедра) or another unit that owns rooms. Its abbreviation is its key, as the
/// IIS links teachers to departments by abbreviation.
public struct Department: Sendable, Hashable {
    public var abbreviation: String
    public var name: String?
    public var iisID: Int?

    public init(abbreviation: String, name: String? = nil, iisID: Int? = nil) {
        self.abbreviation = abbreviation
        self.name = name
        self.iisID = iisID
    }

    /// The key form of an IIS department abbreviation: without "Каф." and with a capital first
    /// letter ("Каф.информатики" → "Информатики").
    public static func key(_ raw: String) -> String {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if let range = text.range(of: "Каф.") { text.removeSubrange(range) }
        text = text.trimmingCharacters(in: .whitespaces)
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}

/// The kind of a room: lecture hall, practice room, laboratory, computer class.
public struct RoomType: Sendable, Hashable {
    public var name: String
    public var abbreviation: String

    public init(name: String, abbreviation: String) {
        self.name = name
        self.abbreviation = abbreviation
    }
}

/// A room (auditorium): "604" in building 5 is written "604-5".
public struct Room: Sendable, Hashable, Identifiable {
    public var id: Int64
    /// The room's name within its building ("604", "213б", "epam 104 к1").
    public var name: String
    /// The building number; nil for rooms that are not in a numbered building.
    public var building: Int?
    public var floor: Int?
    public var type: RoomType?
    public var capacity: Int?
    public var note: String?
    public var departmentAbbreviation: String?
    /// Outside the university (a partner company's room, say).
    public var isOffCampus: Bool
    /// Where it is: its own place (seed 003's files give one per room), else its building's.
    public var point: MapPoint?

    public init(
        id: Int64, name: String, building: Int?, floor: Int? = nil, type: RoomType? = nil, capacity: Int? = nil,
        note: String? = nil, departmentAbbreviation: String? = nil, isOffCampus: Bool = false, point: MapPoint? = nil
    ) {
        self.point = point
        self.id = id
        self.name = name
        self.building = building
        self.floor = floor
        self.type = type
        self.capacity = capacity
        self.note = note
        self.departmentAbbreviation = departmentAbbreviation
        self.isOffCampus = isOffCampus
    }

    /// "604-5"; a room without a building is its name alone.
    public var displayName: String {
        building.map { "\(name)-\($0)" } ?? name
    }
}

/// The dates of a term: classes, then the exam session. Any part may be unknown.
public struct TermDates: Sendable, Hashable {
    public var lessonsStart: LocalDate?
    public var lessonsEnd: LocalDate?
    public var examsStart: LocalDate?
    public var examsEnd: LocalDate?
    /// When the institution last changed this schedule (IIS's last-update date); not part of the
    /// term's span.
    public var lastChanged: LocalDate?

    public init(
        lessonsStart: LocalDate? = nil, lessonsEnd: LocalDate? = nil, examsStart: LocalDate? = nil,
        examsEnd: LocalDate? = nil, lastChanged: LocalDate? = nil
    ) {
        self.lessonsStart = lessonsStart
        self.lessonsEnd = lessonsEnd
        self.examsStart = examsStart
        self.examsEnd = examsEnd
        self.lastChanged = lastChanged
    }

    /// From the first to the last known date; nil when none is known.
    public var span: ClosedRange<LocalDate>? {
        let dates = [lessonsStart, lessonsEnd, examsStart, examsEnd].compactMap { $0 }
        guard let first = dates.min(), let last = dates.max() else { return nil }
        return first...last
    }
}

/// A study group ("151004"), or a subject group of an elective (seed 003).
public struct StudyGroup: Sendable, Hashable, Identifiable {
    /// The group's name, which is its key: six digits with leading zeros at BSUIR.
    public var name: String
    /// A longer title where the name alone says little (seed 003's subject groups).
    public var title: String?
    public var course: Int?
    public var facultyID: Int?
    public var specialityID: Int?
    /// 1 bachelor, 2 master.
    public var educationDegree: Int?
    public var studentCount: Int?
    public var term: TermDates

    public var id: String { name }

    public init(
        name: String, title: String? = nil, course: Int? = nil, facultyID: Int? = nil, specialityID: Int? = nil,
        educationDegree: Int? = nil, studentCount: Int? = nil, term: TermDates = TermDates()
    ) {
        self.name = name
        self.title = title
        self.course = course
        self.facultyID = facultyID
        self.specialityID = specialityID
        self.educationDegree = educationDegree
        self.studentCount = studentCount
        self.term = term
    }

    /// Seed 000's "flow" section: the first four characters of the name.
    public var flow: String { String(name.prefix(4)) }
}

/// A teacher (employee). `urlID` ("i-kirinovich") is the key in addresses.
public struct Teacher: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var urlID: String
    public var firstName: String
    public var middleName: String?
    public var lastName: String
    public var rank: String?
    /// The degree's full name ("кандидат технических наук"), when known.
    public var degree: String?
    /// The degree's abbreviation ("к.т.н."), the degree's key.
    public var degreeAbbreviation: String?
    public var departments: [String]
    public var photoURL: String?
    public var email: String?
    public var term: TermDates

    public init(
        id: Int64, urlID: String, firstName: String, middleName: String? = nil, lastName: String, rank: String? = nil,
        degree: String? = nil, degreeAbbreviation: String? = nil, departments: [String] = [], photoURL: String? = nil,
        email: String? = nil, term: TermDates = TermDates()
    ) {
        self.id = id
        self.urlID = urlID
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.rank = rank
        self.degree = degree
        self.degreeAbbreviation = degreeAbbreviation
        self.departments = departments
        self.photoURL = photoURL
        self.email = email
        self.term = term
    }

    /// "Киринович Ирина Федоровна".
    public var fullName: String {
        [lastName, firstName, middleName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// "Киринович И. Ф.".
    public var shortName: String {
        var text = lastName
        if let first = firstName.first { text += " \(first)." }
        if let middle = middleName?.first { text += " \(middle)." }
        return text
    }
}

/// Student-sourced information about a teacher (seed 004's teacher card).
public struct TeacherCard: Sendable, Hashable {
    public enum Attendance: String, Sendable, Hashable, CaseIterable {
        case yes, no, sometimes
    }

    public var description: String?
    public var subject: String?
    public var marksAttendance: Attendance?
    public var automaticPassPossible: Bool?

    public init(
        description: String? = nil, subject: String? = nil, marksAttendance: Attendance? = nil,
        automaticPassPossible: Bool? = nil
    ) {
        self.description = description
        self.subject = subject
        self.marksAttendance = marksAttendance
        self.automaticPassPossible = automaticPassPossible
    }
}

/// A kind of lesson with its name, abbreviation and colour; the id is what sources call it
/// ("ЛК" in IIS, "lecture" in seed 004).
public struct LessonType: Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var abbreviation: String
    /// A CSS colour, `#rrggbb`.
    public var colour: String
    public var isExam: Bool

    public init(id: String, name: String, abbreviation: String, colour: String, isExam: Bool = false) {
        self.id = id
        self.name = name
        self.abbreviation = abbreviation
        self.colour = colour
        self.isExam = isExam
    }

    static let lecture = "#3b7ddd"
    static let practice = "#2e9e5b"
    static let lab = "#e08a1e"
    static let consultation = "#7a5cd6"
    static let exam = "#d6453d"
    static let other = "#8a929c"

    /// The types Campus knows before anyone edits them: lecture blue, practice green, lab orange
    /// (seed 004), consultations violet, exams and credits red.
    public static let defaults: [LessonType] = [
        LessonType(id: "ЛК", name: "Лекция", abbreviation: "ЛК", colour: lecture),
        LessonType(id: "УЛк", name: "Удалённая лекция", abbreviation: "УЛк", colour: lecture),
        LessonType(id: "ПЗ", name: "Практическое занятие", abbreviation: "ПЗ", colour: practice),
        LessonType(id: "УПз", name: "Удалённое практическое занятие", abbreviation: "УПз", colour: practice),
        LessonType(id: "ЛР", name: "Лабораторная работа", abbreviation: "ЛР", colour: lab),
        LessonType(id: "УЛР", name: "Удалённая лабораторная работа", abbreviation: "УЛР", colour: lab),
        LessonType(id: "Консультация", name: "Консультация", abbreviation: "Конс", colour: consultation),
        LessonType(id: "Зачет", name: "Зачёт", abbreviation: "Зач", colour: exam, isExam: true),
        LessonType(
            id: "Дифференцированный зачет", name: "Дифференцированный зачёт", abbreviation: "Дифф. зач", colour: exam,
            isExam: true),
        LessonType(id: "Экзамен", name: "Экзамен", abbreviation: "Экз", colour: exam, isExam: true),
        LessonType(
            id: "Кандидатский экзамен", name: "Кандидатский экзамен", abbreviation: "Канд. экз", colour: exam,
            isExam: true),
        LessonType(id: "lecture", name: "Lecture", abbreviation: "Lecture", colour: lecture),
        LessonType(id: "practice", name: "Practice", abbreviation: "Practice", colour: practice),
        LessonType(id: "lab", name: "Lab", abbreviation: "Lab", colour: lab),
    ]

    /// A type nobody has described yet: its id is its name, in grey.
    public static func unknown(_ id: String) -> LessonType {
        LessonType(id: id, name: id, abbreviation: id, colour: other)
    }
}
