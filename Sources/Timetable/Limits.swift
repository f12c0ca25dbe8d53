import InputRules
import Localization

/// The longest texts a timetable holds, whoever imports them (IIS, seed 003 and 004 files, the
/// IIS sync). The API's paths and queries take group names, teachers' URL ids and searches of
/// at most ``key`` characters (openapi.yaml says the same), so nothing is stored that the API
/// could not ask for.
public enum TimetableLimits {
    /// Group names, teachers' URL ids, room names, abbreviations, lesson type ids, codes.
    public static let key = 100
    /// Names of people, subjects, faculties, specialities, departments and room types; ranks,
    /// degrees, e-mail addresses.
    public static let name = 300
    /// Notes of lessons and rooms, announcements, teachers' cards (several lines).
    public static let note = 2000
    /// Links, such as a teacher's photo.
    public static let link = 2000
    /// Subgroups of a group: 0 is the whole group.
    public static let subgroups = 0...9
    /// Study weeks a lesson names: a cycle has at most eight (BSUIR's has four).
    public static let weeks = 1...8
}

/// A field of an import that breaks the limits, in a sentence that names it
/// (`groups[3].name has 600 characters; at most 300.`).
public struct ImportLimitProblem: PhrasedError, Sendable, Equatable {
    public var phrase: Phrase

    public init(_ phrase: Phrase) { self.phrase = phrase }
}

extension TimetableImport {
    /// Checks every text of the import against ``TimetableLimits`` and ``TextRules`` (no control
    /// characters), and numbers against their ranges; throws the first field that breaks them.
    /// Dates need no check here: every reader of dates takes only ``LocalDate/supportedYears``.
    public func checkLimits() throws(ImportLimitProblem) {
        var check = LimitCheck()
        for (index, faculty) in faculties.enumerated() {
            let at = "faculties[\(index)]"
            check.text(faculty.name, "\(at).name", TimetableLimits.name)
            check.text(faculty.abbreviation, "\(at).abbreviation", TimetableLimits.key)
        }
        for (index, speciality) in specialities.enumerated() {
            let at = "specialities[\(index)]"
            check.text(speciality.name, "\(at).name", TimetableLimits.name)
            check.text(speciality.abbreviation, "\(at).abbreviation", TimetableLimits.key)
            check.text(speciality.code, "\(at).code", TimetableLimits.key)
            check.text(speciality.educationForm?.name, "\(at).educationForm", TimetableLimits.name)
        }
        for (index, department) in departments.enumerated() {
            let at = "departments[\(index)]"
            check.text(department.abbreviation, "\(at).abbreviation", TimetableLimits.key)
            check.text(department.name, "\(at).name", TimetableLimits.name)
        }
        for (index, room) in rooms.enumerated() {
            let at = "rooms[\(index)]"
            check.text(room.key.name, "\(at).name", TimetableLimits.key)
            check.text(room.note, "\(at).note", TimetableLimits.note, multiline: true)
            check.text(room.departmentAbbreviation, "\(at).department", TimetableLimits.key)
            check.text(room.type?.name, "\(at).type.name", TimetableLimits.name)
            check.text(room.type?.abbreviation, "\(at).type.abbreviation", TimetableLimits.key)
        }
        for (index, group) in groups.enumerated() {
            check.text(group.name, "groups[\(index)].name", TimetableLimits.key)
            check.text(group.title, "groups[\(index)].title", TimetableLimits.name)
        }
        for (index, teacher) in teachers.enumerated() {
            let at = "teachers[\(index)]"
            check.text(teacher.urlID, "\(at).urlId", TimetableLimits.key)
            check.text(teacher.firstName, "\(at).firstName", TimetableLimits.name)
            check.text(teacher.middleName, "\(at).middleName", TimetableLimits.name)
            check.text(teacher.lastName, "\(at).lastName", TimetableLimits.name)
            check.text(teacher.rank, "\(at).rank", TimetableLimits.name)
            check.text(teacher.degree, "\(at).degree", TimetableLimits.name)
            check.text(teacher.degreeAbbreviation, "\(at).degreeAbbreviation", TimetableLimits.key)
            check.text(teacher.photoURL, "\(at).photoLink", TimetableLimits.link)
            check.text(teacher.email, "\(at).email", TimetableLimits.name)
            for (number, department) in (teacher.departments ?? []).enumerated() {
                check.text(department, "\(at).departments[\(number)]", TimetableLimits.key)
            }
        }
        for (urlID, card) in teacherCards.sorted(by: { $0.key < $1.key }) {
            check.text(urlID, "teacherCards[\(urlID.prefix(40))]", TimetableLimits.key)
            check.text(
                card.description, "teacherCards[\(urlID.prefix(40))].description", TimetableLimits.note, multiline: true
            )
            check.text(card.subject, "teacherCards[\(urlID.prefix(40))].subject", TimetableLimits.name)
        }
        for (index, subject) in subjects.enumerated() {
            let at = "subjects[\(index)]"
            check.text(subject.name, "\(at).name", TimetableLimits.name)
            check.text(subject.faculty, "\(at).faculty", TimetableLimits.name)
            check.text(subject.speciality, "\(at).speciality", TimetableLimits.name)
        }
        for (index, schedule) in schedules.enumerated() {
            let at: String
            switch schedule.owner {
            case .group(let name):
                at = "schedules[\(index)]"
                check.text(name, "\(at).group", TimetableLimits.key)
            case .teacher(let urlID):
                at = "schedules[\(index)]"
                check.text(urlID, "\(at).teacher", TimetableLimits.key)
            }
            for (number, lesson) in schedule.lessons.enumerated() {
                check.lesson(lesson, "\(at).lessons[\(number)]")
            }
        }
        if let problem = check.problem { throw problem }
    }
}

/// Remembers the first field that breaks a limit.
private struct LimitCheck {
    var problem: ImportLimitProblem?

    mutating func text(_ text: String?, _ field: @autoclosure () -> String, _ limit: Int, multiline: Bool = false) {
        guard problem == nil, var phrase = TextRules.problem(in: text ?? "", limit: limit, multiline: multiline)
        else { return }
        phrase.values["field"] = field()
        problem = ImportLimitProblem(phrase)
    }

    /// `at` is written only for a problem (40,000 lessons are checked in an import).
    mutating func lesson(_ lesson: ImportedLesson, _ at: @autoclosure () -> String) {
        text(lesson.subject, "\(at()).subject", TimetableLimits.name)
        text(lesson.subjectFullName, "\(at()).subjectFullName", TimetableLimits.name)
        text(lesson.typeID, "\(at()).lessonType", TimetableLimits.key)
        text(lesson.note, "\(at()).note", TimetableLimits.note, multiline: true)
        for (index, room) in lesson.rooms.enumerated() {
            text(room.name, "\(at()).rooms[\(index)]", TimetableLimits.key)
        }
        for (index, teacher) in lesson.teachers.enumerated() {
            text(teacher, "\(at()).teachers[\(index)]", TimetableLimits.key)
        }
        for (index, group) in lesson.groups.enumerated() {
            text(group, "\(at()).groups[\(index)]", TimetableLimits.key)
        }
        guard problem == nil else { return }
        if !TimetableLimits.subgroups.contains(lesson.subgroup) {
            problem = ImportLimitProblem(
                Phrase(
                    "{field} is {subgroup}; a subgroup is from {first} to {last}.",
                    [
                        "field": "\(at()).subgroup", "subgroup": String(lesson.subgroup),
                        "first": String(TimetableLimits.subgroups.lowerBound),
                        "last": String(TimetableLimits.subgroups.upperBound),
                    ]))
        } else if let week = lesson.weeks.first(where: { !TimetableLimits.weeks.contains($0) }) {
            problem = ImportLimitProblem(
                Phrase(
                    "{field} names week {week}; study weeks are from 1 to {last}.",
                    ["field": "\(at()).weeks", "week": String(week), "last": String(TimetableLimits.weeks.upperBound)]))
        }
    }
}
