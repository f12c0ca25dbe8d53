import Accounts
import Foundation
import InputRules
import Storage
import Timetable

/// Teachers' cards by students (seed 004): each signed-in user answers once per teacher and may
/// change it; the card counts every answer with the imported one; admins hide descriptions.
extension MyTimetableService {
    func cardSummary(teacher urlID: String) async throws -> TeacherCardSummary {
        let (teacher, imported) = try await directory.teacher(urlID: urlID)
        let answers = try await database.read { db in try await TeacherCardStore(db).answers(teacher: teacher.urlID) }
        return TeacherCardSummary(imported: imported, answers: answers)
    }

    /// The user's own answer, if they gave one.
    func cardAnswer(teacher urlID: String, of user: Account) async throws -> TeacherCardAnswer? {
        try await database.read { db in try await TeacherCardStore(db).answer(teacher: urlID, userID: user.id) }
    }

    func answerCard(
        teacher urlID: String, description: String?, attendance: TeacherCard.Attendance?, automaticPass: Bool?,
        for user: Account
    ) async throws -> TeacherCardAnswer {
        let description = description.map { TextRules.trimmed($0) }
        let text = description?.isEmpty == false ? description : nil
        if let text,
            var problem = TextRules.problem(
                in: text, limit: TeacherCardAnswer.descriptionLength, multiline: true)
        {
            problem.values["field"] = "description"
            throw Refusal.invalid(FieldProblem(field: "description", problem))
        }
        guard text != nil || attendance != nil || automaticPass != nil else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "description",
                    detail: "Say something of the teacher: a description, attendance or the automatic pass."))
        }
        let teacher = try await directory.teacher(urlID: urlID).teacher.urlID
        let now = now()
        return try await database.write { db in
            try await TeacherCardStore(db).saveAnswer(
                teacher: teacher, userID: user.id, description: text, attendance: attendance,
                automaticPass: automaticPass, now: now)
        }
    }

    func removeCardAnswer(teacher urlID: String, for user: Account) async throws {
        let removed = try await database.write { db in
            try await TeacherCardStore(db).deleteAnswer(teacher: urlID, userID: user.id)
        }
        guard removed else {
            throw Refusal.notFound("You have given no answer on the card of {id}.", ["id": urlID])
        }
    }

    /// Hides or shows an answer's description: admins only.
    func moderateCardAnswer(_ answerID: Int64, hidden: Bool, by user: Account) async throws -> TeacherCardAnswer {
        guard user.role == .admin else { throw Refusal.notAllowed("Only admins moderate teachers' cards.") }
        let now = now()
        guard
            let answer = try await database.write({ db -> TeacherCardAnswer? in
                guard let answer = try await TeacherCardStore(db).setHidden(hidden, answerID: answerID) else {
                    return nil
                }
                try await AuditStore(db).record(
                    AuditEntry(
                        at: now, action: .cardAnswerModerated, actor: AuditActor(user),
                        target: AuditTarget(kind: "teacher-card-answer", id: answerID, label: answer.teacher),
                        after: hidden ? "hidden" : "shown"))
                return answer
            })
        else { throw Refusal.notFound("There is no answer {id}.", ["id": String(answerID)]) }
        return answer
    }
}
