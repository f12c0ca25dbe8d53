import Accounts
import CampusHTTP
import Foundation
import InputRules
import Localization
import Storage
import Timetable

/// A lesson's notes page (`/timetable/lessons/{id}/notes`): the visitor's own notes on it, on
/// every day or on the day they came from, written, changed and deleted with forms.
struct MyNotesPages: Sendable {
    let myTimetable: MyTimetableService
    var mine: MyTimetableService { myTimetable }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.lessonNotes, page)
        pages.form(SiteRoutes.lessonNotes, NoteForm.self, add)
        pages.form(SiteRoutes.note, NoteForm.self, change)
        pages.form(SiteRoutes.deleteNote, NoteForm.self, delete)
        pages.upload(
            SiteRoutes.importNotes, NotesFileForm.self, bodyLimit: RouteProperties.defaultBodyLimit, importNotes)
    }

    /// Seed 004's notes from a file: `{"odd_3_2": "text", …}`, as the API takes them.
    @Sendable func importNotes(_ request: PageRequest, _ account: Authenticated, _ form: NotesFileForm)
        async throws -> PageAnswer
    {
        let t = request.t
        let back = SiteRoutes.myTimetable.path
        guard let data = form.file, !data.isEmpty else {
            return .redirect(back, flash: t("Choose the notes file first."), kind: .error)
        }
        guard let notes = try? JSONDecoder().decode([String: String].self, from: data) else {
            return .redirect(
                back, flash: t("This file is not the old app's notes: a JSON object of slots and texts."),
                kind: .error)
        }
        guard notes.count <= MyTimetableService.notesPerImport else {
            return .redirect(
                back,
                flash: t("A file holds at most {count} notes.", ["count": String(MyTimetableService.notesPerImport)]),
                kind: .error)
        }
        do {
            let result = try await mine.importNotes(notes, for: account.user)
            var message = t.plural("{count} note is imported.", "{count} notes are imported.", result.imported.count)
            if !result.unmatched.isEmpty {
                message +=
                    " "
                    + t.plural(
                        "{count} slot has no single lesson of yours: {keys}.",
                        "{count} slots have no single lesson of yours: {keys}.", result.unmatched.count,
                        ["keys": Self.someKeys(result.unmatched)])
            }
            return .redirect(back, flash: message, kind: result.imported.isEmpty ? .error : .success)
        } catch {
            guard let problem = Problem(describing: error),
                [.notFound, .conflict, .unprocessableContent].contains(problem.status)
            else { throw error }
            return .redirect(back, flash: t.detail(problem), kind: .error)
        }
    }

    /// The first few keys a file named, each cut short: a file's keys are of any length and any
    /// number, and the message goes into a cookie (`odd_1_9, even_5_2, slot-with-a-very-long-na…, …`).
    static func someKeys(_ keys: [String]) -> String {
        var shown: [String] = keys.prefix(keysShown).map { key in
            key.count > keyLength ? String(key.prefix(keyLength - 1)) + "…" : key
        }
        if keys.count > keysShown { shown.append("…") }
        return shown.joined(separator: ", ")
    }

    static let keysShown = 5
    static let keyLength = 24

    @Sendable func page(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let lesson = try await mine.lesson(try request.id("lessonId"))
        let date = request.query("date").flatMap { LocalDate(iso: $0) }
        let back = SignInPages.safeNext(request.query("back", maxLength: 400))
        return .page(try await model(lesson, date: date, back: back, user: account.user, request.t))
    }

    func model(_ lesson: Lesson, date: LocalDate?, back: String, user: Account, _ t: Translator) async throws
        -> LessonNotesPage
    {
        let text = ScheduleText(t: t)
        let notes = try await mine.notes(of: user, lessonIDs: [lesson.id])
        return LessonNotesPage(
            subject: lesson.subject, fullSubject: lesson.subjectFullName ?? lesson.subject,
            time: "\(lesson.start)–\(lesson.end)", day: date.map { text.date($0) } ?? "",
            date: date?.iso ?? "", hasDate: date != nil, back: back,
            addURL: SiteRoutes.lessonNotes.path(lesson.id),
            notes: notes.map { note in
                LessonNotesPage.Note(
                    text: note.text,
                    scope: note.date.map { t("On {date}", context: "note", ["date": text.date($0)]) }
                        ?? t("Every day of the lesson"),
                    changeURL: SiteRoutes.note.path(note.id), deleteURL: SiteRoutes.deleteNote.path(note.id))
            },
            hasNotes: !notes.isEmpty)
    }

    @Sendable func add(_ request: PageRequest, _ account: Authenticated, _ form: NoteForm) async throws -> PageAnswer {
        let lessonID = try request.id("lessonId")
        let date = form.onlyThisDay == "1" ? form.date : nil
        _ = try await mine.addNote(lessonID: lessonID, date: date, text: form.text ?? "", for: account.user)
        return .redirect(Self.back(lessonID, form), flash: request.t("Your note is saved."))
    }

    @Sendable func change(_ request: PageRequest, _ account: Authenticated, _ form: NoteForm) async throws
        -> PageAnswer
    {
        let note = try await mine.changeNote(try request.id("noteId"), text: form.text ?? "", for: account.user)
        return .redirect(Self.back(note.lessonID, form), flash: request.t("Your note is saved."))
    }

    @Sendable func delete(_ request: PageRequest, _ account: Authenticated, _ form: NoteForm) async throws
        -> PageAnswer
    {
        let note = try await mine.note(try request.id("noteId"), of: account.user)
        try await mine.deleteNote(note.id, for: account.user)
        return .redirect(Self.back(note.lessonID, form), flash: request.t("Your note is deleted."))
    }

    /// The notes page again, with the day and the page it came from.
    static func back(_ lessonID: Int64, _ form: NoteForm) -> String {
        SiteRoutes.lessonNotes.path(lessonID, query: [("date", form.date), ("back", form.back)])
    }
}

struct NotesFileForm: PageForm {
    var _csrf: String?
    var file: Data?
}

struct NoteForm: PageForm {
    var _csrf: String?
    var text: String?
    /// The day the page was opened for, and "1" when the note is about that day only.
    var date: String?
    var onlyThisDay: String?
    var back: String?
}

/// A lesson's notes, as the visitor wrote them.
struct LessonNotesPage: PageModel {
    static let template = "lesson-notes"
    static let section: SiteSection? = .timetable

    struct Note: Sendable {
        var text: String
        var scope: String
        var changeURL: String
        var deleteURL: String
    }

    var subject: String
    var fullSubject: String
    var time: String
    var day: String
    var date: String
    var hasDate: Bool
    var back: String
    var addURL: String
    var notes: [Note]
    var hasNotes: Bool
}
