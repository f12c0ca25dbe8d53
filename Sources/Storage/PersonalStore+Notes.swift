import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// Students' notes on lessons; every method takes the author, and finds only their notes.
extension PersonalStore {
    /// The user's notes, on these lessons only when given, oldest first.
    public func notes(userID: Int64, lessonIDs: [Int64]? = nil) async throws -> [LessonNote] {
        let columns = ["id", "lesson_id", "day", "body", "created_at", "updated_at"]
        guard let lessonIDs else {
            return try await db.select().columns(columns).from("lesson_notes").where("user_id", .equal, userID)
                .orderBy("id").all().map(Self.note)
        }
        var notes: [LessonNote] = []
        for chunk in lessonIDs.chunked(500) {
            notes += try await db.select().columns(columns).from("lesson_notes").where("user_id", .equal, userID)
                .where("lesson_id", .in, Array(chunk)).all().map(Self.note)
        }
        return notes.sorted { $0.id < $1.id }
    }

    public func note(id: Int64, userID: Int64) async throws -> LessonNote? {
        try await db.select().columns("id", "lesson_id", "day", "body", "created_at", "updated_at")
            .from("lesson_notes").where("id", .equal, id).where("user_id", .equal, userID).first().map(Self.note)
    }

    public func noteCount(userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM lesson_notes WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    public func addNote(userID: Int64, lessonID: Int64, date: LocalDate?, text: String, now: Date) async throws
        -> LessonNote
    {
        guard
            let id = try await db.insert(into: "lesson_notes")
                .columns("user_id", "lesson_id", "day", "body", "created_at", "updated_at")
                .values(
                    SQLBind(userID), SQLBind(lessonID), SQLBind(date?.dayNumber), SQLBind(text), SQLBind(now.epoch),
                    SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("lesson_notes: no id returned") }
        return LessonNote(
            id: id, lessonID: lessonID, date: date, text: text, createdAt: now.rounded, updatedAt: now.rounded)
    }

    /// Changes a note's text; false when the user has no such note.
    public func changeNote(id: Int64, userID: Int64, text: String, now: Date) async throws -> Bool {
        guard try await note(id: id, userID: userID) != nil else { return false }
        try await db.update("lesson_notes").set("body", to: text).set("updated_at", to: now.epoch)
            .where("id", .equal, id).where("user_id", .equal, userID).run()
        return true
    }

    /// Deletes a note; false when the user has no such note.
    public func deleteNote(id: Int64, userID: Int64) async throws -> Bool {
        guard try await note(id: id, userID: userID) != nil else { return false }
        try await db.delete(from: "lesson_notes").where("id", .equal, id).where("user_id", .equal, userID).run()
        return true
    }

    private static func note(_ row: any SQLRow) throws -> LessonNote {
        LessonNote(
            id: try row.decode(column: "id", as: Int64.self),
            lessonID: try row.decode(column: "lesson_id", as: Int64.self),
            date: try row.decode(column: "day", as: Int?.self).map { LocalDate(dayNumber: $0) },
            text: try row.decode(column: "body", as: String.self),
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
    }
}
