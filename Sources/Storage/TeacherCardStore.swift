import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// Students' answers on teachers' cards. Runs on the `SQLDatabase` it is given.
public struct TeacherCardStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    static let columns = ["id", "teacher", "description", "attendance", "automatic_pass", "hidden"]

    // Moderation sticks to the student and the teacher, not to one text: a description an admin
    // hid stays hidden through every later change of the answer (a new text goes unseen until an
    // admin has read it and shows it), and taking the answer back keeps a row that says so, with
    // nothing in it, so that answering again starts hidden too. Such a row is no answer: it is
    // neither counted nor the student's own answer.

    /// Every answer on a teacher's card, oldest first.
    public func answers(teacher: String) async throws -> [TeacherCardAnswer] {
        try await db.select().columns(Self.columns).from("teacher_card_answers").where("teacher", .equal, teacher)
            .where(Self.saysSomething).orderBy("id").all().map(Self.answer)
    }

    /// The user's answer on a teacher's card, if they gave one (and did not take it back).
    public func answer(teacher: String, userID: Int64) async throws -> TeacherCardAnswer? {
        try await row(teacher: teacher, userID: userID).flatMap { $0.saysSomething ? $0 : nil }
    }

    /// The user's row for a teacher, a hidden answer taken back included.
    private func row(teacher: String, userID: Int64) async throws -> TeacherCardAnswer? {
        try await db.select().columns(Self.columns).from("teacher_card_answers").where("teacher", .equal, teacher)
            .where("user_id", .equal, userID).first().map(Self.answer)
    }

    /// An answer that says something (a row with nothing in it is an answer taken back after an
    /// admin hid it).
    private static var saysSomething: SQLGroupExpression {
        SQLGroupExpression(
            SQLRaw("description IS NOT NULL OR attendance IS NOT NULL OR automatic_pass IS NOT NULL"))
    }

    /// The user's answer, written or changed (it keeps its id). A description an admin hid stays
    /// hidden, whatever it now says, until an admin shows it.
    public func saveAnswer(
        teacher: String, userID: Int64, description: String?, attendance: TeacherCard.Attendance?,
        automaticPass: Bool?, now: Date
    ) async throws -> TeacherCardAnswer {
        if let existing = try await row(teacher: teacher, userID: userID) {
            try await db.update("teacher_card_answers").set("description", to: description)
                .set("attendance", to: attendance?.rawValue).set("automatic_pass", to: automaticPass)
                .set("updated_at", to: now.epoch).where("id", .equal, existing.id).run()
        } else {
            try await db.insert(into: "teacher_card_answers")
                .columns("teacher", "user_id", "description", "attendance", "automatic_pass", "hidden", "updated_at")
                .values(
                    SQLBind(teacher), SQLBind(userID), SQLBind(description), SQLBind(attendance?.rawValue),
                    SQLBind(automaticPass), SQLBind(false), SQLBind(now.epoch)
                ).run()
        }
        guard let saved = try await answer(teacher: teacher, userID: userID) else {
            throw StoreError.damaged("teacher_card_answers: the answer was not saved")
        }
        return saved
    }

    /// Takes the user's answer back; false when there was none. A hidden answer leaves an empty
    /// row behind, so that the hiding holds for the next answer.
    public func deleteAnswer(teacher: String, userID: Int64) async throws -> Bool {
        guard let existing = try await answer(teacher: teacher, userID: userID) else { return false }
        if existing.hidden {
            try await db.update("teacher_card_answers").set("description", to: SQLLiteral.null)
                .set("attendance", to: SQLLiteral.null).set("automatic_pass", to: SQLLiteral.null)
                .where("id", .equal, existing.id).run()
        } else {
            try await db.delete(from: "teacher_card_answers").where("id", .equal, existing.id).run()
        }
        return true
    }

    /// Hides or shows an answer's description (admins); nil when there is no such answer.
    public func setHidden(_ hidden: Bool, answerID: Int64) async throws -> TeacherCardAnswer? {
        guard
            let existing = try await db.select().columns(Self.columns).from("teacher_card_answers")
                .where("id", .equal, answerID).where(Self.saysSomething).first().map(Self.answer)
        else { return nil }
        try await db.update("teacher_card_answers").set("hidden", to: hidden).where("id", .equal, existing.id).run()
        var answer = existing
        answer.hidden = hidden
        return answer
    }

    static func answer(_ row: any SQLRow) throws -> TeacherCardAnswer {
        TeacherCardAnswer(
            id: try row.decode(column: "id", as: Int64.self),
            teacher: try row.decode(column: "teacher", as: String.self),
            description: try row.decode(column: "description", as: String?.self),
            attendance: try row.decode(column: "attendance", as: String?.self)
                .flatMap(TeacherCard.Attendance.init(rawValue:)),
            automaticPass: try row.decode(column: "automatic_pass", as: Bool?.self),
            hidden: try row.decode(column: "hidden", as: Bool.self))
    }
}

extension TeacherCardAnswer {
    /// Whether the answer says anything (see ``TeacherCardStore``: an empty row is an answer
    /// taken back after an admin hid it).
    fileprivate var saysSomething: Bool { description != nil || attendance != nil || automaticPass != nil }
}
