import Foundation
import Testing

@testable import Timetable

@Suite struct StudyTaskTests {
    let now = Date(timeIntervalSince1970: 1_695_625_200)

    func task(_ id: Int64, due: TimeInterval?, done: Bool = false) -> StudyTask {
        StudyTask(
            id: id, subject: "ОАиП", text: "", deadline: due.map { now.addingTimeInterval($0) }, done: done,
            createdAt: now, updatedAt: now)
    }

    @Test func aTaskIsDueOverdueOpenOrDone() {
        #expect(task(1, due: 3600).state(at: now) == .due(seconds: 3600))
        #expect(task(1, due: -90).state(at: now) == .overdue(seconds: 90))
        #expect(task(1, due: nil).state(at: now) == .open)
        #expect(task(1, due: -90, done: true).state(at: now) == .done)
    }

    @Test func listsPutTheNearestDeadlineFirstAndDoneTasksLast() {
        let tasks = [
            task(1, due: nil), task(2, due: 7200), task(3, due: -60, done: true), task(4, due: -3600),
            task(5, due: 7200), task(6, due: nil),
        ]
        #expect(tasks.sorted(by: StudyTask.precedes).map(\.id) == [4, 2, 5, 1, 6, 3])
    }

    @Test func deadlinesAreTheSubjectsNextLessons() {
        let zone = TimeZone(identifier: "Europe/Minsk") ?? .gmt
        func occurrence(_ subject: String, _ day: String, _ start: String, full: String? = nil) -> Occurrence {
            let date = LocalDate(iso: day) ?? LocalDate(dayNumber: 0)
            let lesson = Lesson(
                subject: subject, subjectFullName: full, start: WallTime(start) ?? WallTime(minutes: 0)!,
                end: WallTime(minutes: 1439)!, date: date)
            return Occurrence(lesson: lesson, date: date)
        }
        // `now` is Monday 2023-09-25, 10:00 in Minsk.
        let occurrences = [
            occurrence("ОАиП", "2023-09-27", "09:00"), occurrence("ОАиП", "2023-09-25", "09:00"),
            occurrence("ОАиП", "2023-09-25", "10:35", full: "Основы алгоритмизации"),
            occurrence("Физика", "2023-09-26", "09:00"), occurrence("ОАиП", "2023-10-04", "09:00"),
        ]
        let choices = StudyTask.deadlineChoices(
            for: " оаип ", in: occurrences, after: now, timeZone: zone, limit: 2)
        #expect(choices.map(\.date.iso) == ["2023-09-25", "2023-09-27"])
        #expect(choices.first?.lesson.start.description == "10:35")
        let byFullName = StudyTask.deadlineChoices(
            for: "основы алгоритмизации", in: occurrences, after: now, timeZone: zone, limit: 5)
        #expect(byFullName.count == 1)
        #expect(StudyTask.deadlineChoices(for: "", in: occurrences, after: now, timeZone: zone, limit: 9).count == 4)
    }
}
