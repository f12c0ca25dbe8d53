/// Who teaches a set of lessons, and what (seed 000's "current teachers": the teachers of my
/// schedule): each teacher with the subjects they teach there and the kinds of lesson.
public struct TaughtSubjects: Sendable, Hashable {
    public struct Subject: Sendable, Hashable {
        /// The short name ("ВТ").
        public var name: String
        public var fullName: String?
        /// The lesson types' ids ("ЛК", "ЛР"), in order.
        public var typeIDs: [String]

        public init(name: String, fullName: String? = nil, typeIDs: [String] = []) {
            self.name = name
            self.fullName = fullName
            self.typeIDs = typeIDs
        }
    }

    public var teacher: TeacherReference
    /// By name.
    public var subjects: [Subject]

    public init(teacher: TeacherReference, subjects: [Subject]) {
        self.teacher = teacher
        self.subjects = subjects
    }

    /// The teachers of `lessons` by name (announcements name nobody who teaches), each once.
    public static func of(_ lessons: [Lesson]) -> [TaughtSubjects] {
        var teachers: [String: TeacherReference] = [:]
        var subjects: [String: [String: Subject]] = [:]
        for lesson in lessons where !lesson.isAnnouncement {
            for teacher in lesson.teachers {
                if teachers[teacher.urlID] == nil { teachers[teacher.urlID] = teacher }
                var subject = subjects[teacher.urlID]?[lesson.subject] ?? Subject(name: lesson.subject)
                if subject.fullName == nil { subject.fullName = lesson.subjectFullName }
                if let type = lesson.typeID, !subject.typeIDs.contains(type) {
                    subject.typeIDs = (subject.typeIDs + [type]).sorted()
                }
                subjects[teacher.urlID, default: [:]][lesson.subject] = subject
            }
        }
        return teachers.values.sorted { ($0.name, $0.urlID) < ($1.name, $1.urlID) }.map { teacher in
            TaughtSubjects(
                teacher: teacher,
                subjects: (subjects[teacher.urlID] ?? [:]).values.sorted { $0.name < $1.name })
        }
    }
}
