import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// Students' answers on teachers' cards. Runs on the `SQLDatabase` it is given.
public struct TeacherCardStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    static let columns = ["id", "teacher", "description", "attendance", "automatic_pass", "hidden"]

    /// Every answer on a teacher's card, oldest first.
    public func answers(teacher: String) async throws -> [TeacherCardAnswer] {
        try await db.select().columns(Self.columns).from("teacher_card_answers").where("teacher", .equal, teacher)
            .orderBy("id").all().map(Self.answer)
    }

    public func answer(teacher: String, userID: Int64) async throws -> TeacherCardAnswer? {
        try await db.select().columns(Self.columns).from("teacher_card_answers").where("teacher", .equal, teacher)
            .where("user_id", .equal, userID).first().map(Self.answer)
    }

    /// The user's answer, written or changed (it keeps its id, and an admin's hiding is undone by
    /// a new description).
    public func saveAnswer(
        teacher: String, userID: Int64, description: String?, attendance: TeacherCard.Attendance?,
        automaticPass: Bool?, now: Date
    ) async throws -> TeacherCardAnswer {
        if let existing = try await answer(teacher: teacher, userID: userID) {
            try await db.update("teacher_card_answers").set("description", to: description)
                .set("attendance", to: attendance?.rawValue).set("automatic_pass", to: automaticPass)
                .set("hidden", to: existing.hidden && existing.description == description)
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

    /// Deletes the user's answer; false when there was none.
    public func deleteAnswer(teacher: String, userID: Int64) async throws -> Bool {
        guard try await answer(teacher: teacher, userID: userID) != nil else { return false }
        try await db.delete(from: "teacher_card_answers").where("teacher", .equal, teacher)
            .where("user_id", .equal, userID).run()
        return true
    }

    /// Hides or shows an answer's description (admins); nil when there is no such answer.
    public func setHidden(_ hidden: Bool, answerID: Int64) async throws -> TeacherCardAnswer? {
        try await db.update("teacher_card_answers").set("hidden", to: hidden).where("id", .equal, answerID).run()
        return try await db.select().columns(Self.columns).from("teacher_card_answers").where("id", .equal, answerID)
            .first().map(Self.answer)
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
