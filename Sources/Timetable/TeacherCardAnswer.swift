import Foundation

/// One student's answer on a teacher's card (seed 004): what the teacher is like, whether they
/// mark attendance, whether an automatic pass is possible. A student answers once per teacher and
/// may change it; admins may hide a description.
public struct TeacherCardAnswer: Sendable, Equatable {
    public var id: Int64
    /// The teacher's URL id.
    public var teacher: String
    public var description: String?
    public var attendance: TeacherCard.Attendance?
    public var automaticPass: Bool?
    /// Hidden by an admin: the description no longer shows (the other answers still count).
    public var hidden: Bool

    public init(
        id: Int64, teacher: String, description: String?, attendance: TeacherCard.Attendance?, automaticPass: Bool?,
        hidden: Bool
    ) {
        self.id = id
        self.teacher = teacher
        self.description = description
        self.attendance = attendance
        self.automaticPass = automaticPass
        self.hidden = hidden
    }

    /// The longest description, in characters (several lines).
    public static let descriptionLength = 2000
}

/// What students say of a teacher, the imported card (seed 004's teachers.json) counting as one
/// answer: counts, the majority (nil on a tie or without answers), and the descriptions.
public struct TeacherCardSummary: Sendable, Equatable {
    public struct Description: Sendable, Equatable {
        /// The answer's id; nil for the imported card's.
        public var id: Int64?
        public var text: String
        public var hidden: Bool
    }

    public var attendance: [TeacherCard.Attendance: Int] = [:]
    public var automaticPassYes = 0
    public var automaticPassNo = 0
    public var descriptions: [Description] = []
    public var answers = 0

    public init(imported: TeacherCard?, answers: [TeacherCardAnswer]) {
        if let imported,
            imported.marksAttendance != nil || imported.automaticPassPossible != nil || imported.description != nil
        {
            count(
                imported.marksAttendance, imported.automaticPassPossible, imported.description, id: nil, hidden: false)
        }
        for answer in answers {
            count(answer.attendance, answer.automaticPass, answer.description, id: answer.id, hidden: answer.hidden)
        }
    }

    private mutating func count(
        _ attendance: TeacherCard.Attendance?, _ automaticPass: Bool?, _ description: String?, id: Int64?,
        hidden: Bool
    ) {
        answers += 1
        if let attendance { self.attendance[attendance, default: 0] += 1 }
        if automaticPass == true { automaticPassYes += 1 }
        if automaticPass == false { automaticPassNo += 1 }
        if let description { descriptions.append(Description(id: id, text: description, hidden: hidden)) }
    }

    /// The answer most students gave on attendance; nil on a tie or without answers.
    public var majorityAttendance: TeacherCard.Attendance? {
        let counts = TeacherCard.Attendance.allCases.map { ($0, attendance[$0] ?? 0) }
        guard let top = counts.max(by: { $0.1 < $1.1 }), top.1 > 0,
            counts.filter({ $0.1 == top.1 }).count == 1
        else { return nil }
        return top.0
    }

    /// Whether most students say an automatic pass is possible; nil on a tie or without answers.
    public var majorityAutomaticPass: Bool? {
        automaticPassYes == automaticPassNo ? nil : automaticPassYes > automaticPassNo
    }
}
