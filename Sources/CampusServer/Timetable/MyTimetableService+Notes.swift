import Accounts
import Foundation
import InputRules
import Localization
import Storage
import Timetable

/// Notes on lessons: each student's own. Another user's note is never found (404).
extension MyTimetableService {
    func notes(of user: Account, lessonIDs: [Int64]? = nil) async throws -> [LessonNote] {
        try await database.read { db in try await PersonalStore(db).notes(userID: user.id, lessonIDs: lessonIDs) }
    }

    func note(_ id: Int64, of user: Account) async throws -> LessonNote {
        guard let note = try await database.read({ db in try await PersonalStore(db).note(id: id, userID: user.id) })
        else { throw Refusal.notFound("There is no note {id}.", ["id": String(id)]) }
        return note
    }

    /// A lesson by its id; 404 when the timetable has none.
    func lesson(_ id: Int64) async throws -> Lesson {
        guard let lesson = try await database.read({ db in try await TimetableStore(db).lessons(ids: [id]).first })
        else { throw Refusal.notFound("There is no lesson {id}.", ["id": String(id)]) }
        return lesson
    }

    /// Writes a note on a lesson, or on one date of it (a day the lesson takes place).
    func addNote(lessonID: Int64, date: String?, text: String, for user: Account) async throws -> LessonNote {
        var validator = Validator()
        let text = validator.check { () throws(FieldProblem) in try Self.noteText(text) }
        let day = date.flatMap { text in
            validator.check { () throws(FieldProblem) in try TimetableService.date(text, field: "date") }
        }
        try validator.finish()
        let lesson: Lesson
        do {
            lesson = try await self.lesson(lessonID)
        } catch let refusal as Refusal where refusal.reason == .notFound {
            throw Refusal.invalid(
                FieldProblem(field: "lessonId", detail: "There is no lesson {id}.", ["id": String(lessonID)]))
        }
        if let day, lesson.days(in: day...day, calendar: try await timetable.studyCalendar()).isEmpty {
            throw Refusal.invalid(
                FieldProblem(
                    field: "date", detail: "{subject} does not take place on {date}.",
                    ["subject": lesson.subject, "date": day.iso]))
        }
        return try await database.write { db in
            let store = PersonalStore(db)
            guard try await store.noteCount(userID: user.id) < LessonNote.limit else {
                throw Refusal.conflict(
                    "You keep {limit} notes already; delete some first.", ["limit": String(LessonNote.limit)])
            }
            return try await store.addNote(userID: user.id, lessonID: lessonID, date: day, text: text ?? "", now: now())
        }
    }

    func changeNote(_ id: Int64, text: String, for user: Account) async throws -> LessonNote {
        let text = try Self.noteText(text)
        let changed = try await database.write { db in
            try await PersonalStore(db).changeNote(id: id, userID: user.id, text: text, now: now())
        }
        guard changed else { throw Refusal.notFound("There is no note {id}.", ["id": String(id)]) }
        return try await note(id, of: user)
    }

    func deleteNote(_ id: Int64, for user: Account) async throws {
        let deleted = try await database.write { db in try await PersonalStore(db).deleteNote(id: id, userID: user.id) }
        guard deleted else { throw Refusal.notFound("There is no note {id}.", ["id": String(id)]) }
    }

    /// A note's text: trimmed, not empty, within ``LessonNote/maximumLength``, several lines.
    static func noteText(_ text: String) throws(FieldProblem) -> String {
        let trimmed = TextRules.trimmed(text)
        guard !trimmed.isEmpty else { throw FieldProblem(field: "text", detail: "A note needs some text.") }
        if var problem = TextRules.problem(in: trimmed, limit: LessonNote.maximumLength, multiline: true) {
            problem.values["field"] = "text"
            throw FieldProblem(field: "text", problem)
        }
        return trimmed
    }

    // MARK: Seed 004's notes

    /// The most notes one import takes.
    static let notesPerImport = 500

    /// What an import of seed 004's notes did.
    struct NoteImport: Sendable {
        var imported: [LessonNote] = []
        /// Keys that name no slot, or a slot without exactly one lesson of mine.
        var unmatched: [String] = []
    }

    /// Reads seed 004's notes (`{"odd_3_2": "text"}`: the second pair of Wednesdays in odd weeks)
    /// into notes on the lessons of my schedule in those slots, all in one transaction.
    func importNotes(_ notes: [String: String], for user: Account) async throws -> NoteImport {
        // Seed 004's app knew the student's group alone.
        let (group, filter) = try ownGroup(of: user)
        let lessons = try await timetable.lessons(of: [group], in: nil).filter { filter.admits($0) }
        // Seed 004 keys a slot by its pair number: the institution's pairs say which lesson that is.
        let pairs = try await timetable.pairTimes()
        var planned: [(lessonID: Int64, text: String)] = []
        var unmatched: [String] = []
        var validator = Validator()
        for (key, text) in notes.sorted(by: { $0.key < $1.key }) {
            guard let slot = SlotKey(key), let lesson = slot.lesson(in: lessons, pairs: pairs) else {
                unmatched.append(key)
                continue
            }
            if let text = validator.check({ () throws(FieldProblem) in try Self.noteText(text) }) {
                planned.append((lesson.id, text))
            }
        }
        try validator.finish()
        let now = now()
        let imported = try await database.write { [planned] db in
            let store = PersonalStore(db)
            guard try await store.noteCount(userID: user.id) + planned.count <= LessonNote.limit else {
                throw Refusal.conflict(
                    "You keep {limit} notes already; delete some first.", ["limit": String(LessonNote.limit)])
            }
            var imported: [LessonNote] = []
            for (lessonID, text) in planned {
                imported.append(
                    try await store.addNote(userID: user.id, lessonID: lessonID, date: nil, text: text, now: now))
            }
            return imported
        }
        return NoteImport(imported: imported, unmatched: unmatched)
    }
}
