import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import OpenAPIRuntime
import Timetable

/// The API of notes on lessons (`/api/v1/me/notes`): each student's own.
extension APIHandler {
    func listNotes(_ input: Operations.listNotes.Input) async throws -> Operations.listNotes.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        // At most LessonNote.limit of them: the page is cut from the whole list.
        let notes = try await myTimetable.notes(of: user, lessonIDs: input.query.lessonId.map { [$0] })
        let items = notes.dropFirst(page.offset).prefix(page.limit).map(\.api)
        return .ok(
            .init(body: .json(.init(items: items, total: notes.count, limit: page.limit, offset: page.offset))))
    }

    func createNote(_ input: Operations.createNote.Input) async throws -> Operations.createNote.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the note as JSON.") }
        let note = try await myTimetable.addNote(lessonID: body.lessonId, date: body.date, text: body.text, for: user)
        return .created(.init(body: .json(note.api)))
    }

    func importNotes(_ input: Operations.importNotes.Input) async throws -> Operations.importNotes.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the notes as JSON.") }
        let notes = body.notes.additionalProperties
        guard notes.count <= MyTimetableService.notesPerImport else {
            throw Problem.invalid(
                FieldProblem(
                    field: "notes", detail: "Send at most {count} notes at once.",
                    ["count": String(MyTimetableService.notesPerImport)]))
        }
        let result = try await myTimetable.importNotes(notes, for: user)
        return .ok(.init(body: .json(.init(imported: result.imported.map(\.api), unmatched: result.unmatched))))
    }

    func getNote(_ input: Operations.getNote.Input) async throws -> Operations.getNote.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await myTimetable.note(input.path.noteId, of: user).api)))
    }

    func updateNote(_ input: Operations.updateNote.Input) async throws -> Operations.updateNote.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the note as JSON.") }
        return .ok(
            .init(body: .json(try await myTimetable.changeNote(input.path.noteId, text: body.text, for: user).api)))
    }

    func deleteNote(_ input: Operations.deleteNote.Input) async throws -> Operations.deleteNote.Output {
        let user = try await requireUser().user
        try await myTimetable.deleteNote(input.path.noteId, for: user)
        return .noContent(.init())
    }
}

extension LessonNote {
    var api: Components.Schemas.LessonNote {
        .init(id: id, lessonId: lessonID, date: date?.iso, text: text, createdAt: createdAt, updatedAt: updatedAt)
    }
}
