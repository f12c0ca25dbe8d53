import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing
import Timetable

@testable import CampusServer

/// Notes on lessons: written, changed and deleted by their author only; markers on the schedule.
@Suite struct MyNotesTests {
    @Test(arguments: TestDatabases.kinds)
    func notesAreTheirAuthorsAlone(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let week = try await server.api(token: ann).getMySchedule(
                query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json
            let lesson = try #require(week.days.first { !$0.lessons.isEmpty }?.lessons.first)
            let everyDay = try await server.api(token: ann).createNote(
                body: .json(.init(lessonId: lesson.lessonId, text: "  Bring the lab report\nand a pen "))
            ).created.body.json
            #expect(everyDay.text == "Bring the lab report\nand a pen" && everyDay.date == nil)
            let oneDay = try await server.api(token: ann).createNote(
                body: .json(.init(lessonId: lesson.lessonId, date: lesson.date, text: "Test today"))
            ).created.body.json
            #expect(oneDay.date == lesson.date)
            let mine = try await server.api(token: ann).listNotes(query: .init(lessonId: lesson.lessonId)).ok.body.json
            #expect(mine.items.map(\.id) == [everyDay.id, oneDay.id])

            // Ben sees none of them and can do nothing to them: 404 for every operation.
            #expect(try await server.api(token: ben).listNotes().ok.body.json.items.isEmpty)
            for (method, body) in [(HTTPRequest.Method.get, nil), (.patch, #"{"text":"mine now"}"#), (.delete, nil)] {
                let answer = try await server.request(
                    method, "/api/v1/me/notes/\(everyDay.id)", json: body as String?, token: ben)
                #expect(answer.status == .notFound, "\(method)")
            }
            #expect(try await server.api(token: ann).getNote(path: .init(noteId: everyDay.id)).ok.body.json == everyDay)
            #expect(try await server.request(.get, "/api/v1/me/notes").status == .unauthorized)

            // Changing and deleting.
            let changed = try await server.api(token: ann).updateNote(
                path: .init(noteId: oneDay.id), body: .json(.init(text: "Test moved"))
            ).ok.body.json
            #expect(changed.text == "Test moved" && changed.date == oneDay.date)
            #expect(
                try await server.request(.delete, "/api/v1/me/notes/\(oneDay.id)", token: ann).status == .noContent)
            #expect(try await server.request(.get, "/api/v1/me/notes/\(oneDay.id)", token: ann).status == .notFound)

            // What is wrong is said: no text, a lesson that is not, a day the lesson is not on.
            let empty = try await server.request(
                .post, "/api/v1/me/notes", json: #"{"lessonId":\#(lesson.lessonId),"text":"   "}"#, token: ann)
            #expect(empty.status == .unprocessableContent && empty.text.contains("text"))
            let nowhere = try await server.request(
                .post, "/api/v1/me/notes", json: #"{"lessonId":999999,"text":"x"}"#, token: ann)
            #expect(nowhere.status == .unprocessableContent && nowhere.text.contains("999999"))
            let otherDay = try await server.request(
                .post, "/api/v1/me/notes", json: #"{"lessonId":\#(lesson.lessonId),"date":"2023-09-24","text":"x"}"#,
                token: ann)
            #expect(otherDay.status == .unprocessableContent && otherDay.text.contains("2023-09-24"))
        }
    }

    @Test func seed004NotesFindTheirLessonsBySlot() async throws {
        try await TestServer.run { server in
            let (ann, _) = try await MyTimetableTests.cast(server)
            // Monday's first pair in odd (first, third) study weeks of group 151004, subgroup 2.
            let week = try await server.api(token: ann).getMySchedule(
                query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json
            let monday = try #require(week.days.first { $0.weekday == 1 })
            let first = try #require(monday.lessons.first)
            let imported = try await server.api(token: ann).importNotes(
                body: .json(
                    .init(
                        notes: .init(additionalProperties: [
                            "odd_1_1": "From the old app", "even_7_1": "Sunday", "bogus": "x",
                        ])))
            ).ok.body.json
            #expect(imported.unmatched.sorted() == ["bogus", "even_7_1"])
            #expect(imported.imported.map(\.lessonId) == [first.lessonId])
            #expect(imported.imported.first?.text == "From the old app")
        }
    }

    /// Seed 004's own files (issue 35, item 18): the schedule numbers its slots by pair, odd
    /// Mondays have pair 1, a window in pair 2 and pair 3, even Mondays pair 2 alone; the notes
    /// land on the lessons of those pairs, and a note on the window finds no lesson.
    @Test func seed004NotesFollowThePairNumbers() async throws {
        try await TestServer.run { server in
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("FormatsTests/Data/odd-even/schedule.json").path
            let termStart = LocalDate(year: 2026, month: 2, day: 9)
            _ = try await TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt)
                .importOddEven(
                    files: [file], group: "24-ИСТ-1-1", termStart: termStart, termEnd: nil)
            await database.close()
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            _ = try await server.api(token: ann).updateMe(body: .json(.init(group: "24-ИСТ-1-1"))).ok
            let imported = try await server.api(token: ann).importNotes(
                body: .json(
                    .init(
                        notes: .init(additionalProperties: [
                            "odd_1_1": "pair 1", "odd_1_2": "the window", "odd_1_3": "pair 3",
                            "even_1_2": "even pair 2",
                        ])))
            ).ok.body.json
            #expect(imported.unmatched == ["odd_1_2"])
            let twoWeeks = try await server.api(token: ann).getMySchedule(
                query: .init(from: "2026-02-09", to: "2026-02-22")
            ).ok.body.json
            let lessons = twoWeeks.days.flatMap(\.lessons)
            func subject(_ text: String) -> String? {
                let id = imported.imported.first { $0.text == text }?.lessonId
                return lessons.first { $0.lessonId == id }?.subject
            }
            #expect(subject("pair 1") == "Математика")
            #expect(subject("pair 3") == "Программирование")
            #expect(subject("even pair 2") == "Физика")
            #expect(imported.imported.count == 3)
        }
    }

    @Test func notesAreMarkedOnTheirLessons() async throws {
        try await TestServer.run { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let week = try await server.api(token: ann).getMySchedule(
                query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json
            let lesson = try #require(week.days.first { !$0.lessons.isEmpty }?.lessons.first)
            _ = try await server.api(token: ann).createNote(
                body: .json(.init(lessonId: lesson.lessonId, date: lesson.date, text: "Ask about the exam"))
            ).created
            func page(_ token: String) async throws -> String {
                try await server.request(
                    .get, "/timetable/groups/151004?week=\(lesson.date)",
                    headers: [.accept: "text/html", .cookie: "campus_session=\(token)"]
                ).text
            }
            let annsPage = try await page(ann)
            #expect(annsPage.contains("Ask about the exam") && annsPage.contains("class=\"my-note\""))
            let bensPage = try await page(ben)
            #expect(!bensPage.contains("Ask about the exam"))
        }
    }
}
