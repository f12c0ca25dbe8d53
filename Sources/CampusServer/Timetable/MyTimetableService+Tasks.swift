import Accounts
import Foundation
import InputRules
import Localization
import Storage
import Timetable

/// Tasks with deadlines (seed 000's education tasks): each student's own. Another user's task,
/// or its images, is never found (404).
extension MyTimetableService {
    /// A task as written: what the API's and the pages' forms send.
    struct TaskDraft: Sendable {
        var subject: String
        var text: String
        var deadline: Date?
        var done: Bool = false
    }

    /// What a change sets; nil leaves a field as it is (`deadline: .some(nil)` removes it).
    struct TaskChange: Sendable {
        var subject: String?
        var text: String?
        var deadline: Date??
        var done: Bool?
    }

    /// The user's tasks in the order a list shows (``StudyTask/precedes(_:_:)``).
    func tasks(of user: Account) async throws -> [StudyTask] {
        try await database.read { db in try await PersonalStore(db).tasks(userID: user.id) }
            .sorted(by: StudyTask.precedes)
    }

    func task(_ id: Int64, of user: Account) async throws -> StudyTask {
        guard let task = try await database.read({ db in try await PersonalStore(db).task(id: id, userID: user.id) })
        else { throw Refusal.notFound("There is no task {id}.", ["id": String(id)]) }
        return task
    }

    func addTask(_ draft: TaskDraft, for user: Account) async throws -> StudyTask {
        let fields = try Self.fields(draft, timeZone: timetable.timeZone)
        let id = try await database.write { db in
            let store = PersonalStore(db)
            guard try await store.taskCount(userID: user.id) < StudyTask.limit else {
                throw Refusal.conflict(
                    "You keep {limit} tasks already; delete some first.", ["limit": String(StudyTask.limit)])
            }
            return try await store.addTask(userID: user.id, fields, now: now())
        }
        return try await task(id, of: user)
    }

    func changeTask(_ id: Int64, _ change: TaskChange, for user: Account) async throws -> StudyTask {
        let task = try await self.task(id, of: user)
        let fields = try Self.fields(
            TaskDraft(
                subject: change.subject ?? task.subject, text: change.text ?? task.text,
                deadline: change.deadline ?? task.deadline, done: change.done ?? task.done),
            timeZone: timetable.timeZone, newDeadline: change.deadline != nil)
        let changed = try await database.write { db in
            try await PersonalStore(db).changeTask(id: id, userID: user.id, fields, now: now())
        }
        guard changed else { throw Refusal.notFound("There is no task {id}.", ["id": String(id)]) }
        return try await self.task(id, of: user)
    }

    func deleteTask(_ id: Int64, for user: Account) async throws {
        let deleted = try await database.write { db in try await PersonalStore(db).deleteTask(id: id, userID: user.id) }
        guard deleted else { throw Refusal.notFound("There is no task {id}.", ["id": String(id)]) }
    }

    /// A draft's fields after the rules: a subject of one line, a text of several (may be empty),
    /// a deadline (when it is `newDeadline`) on a day of the years Campus reads where the
    /// institution is (`timeZone`).
    static func fields(_ draft: TaskDraft, timeZone: TimeZone, newDeadline: Bool = true) throws
        -> PersonalStore.TaskFields
    {
        var validator = Validator()
        let subject = TextRules.trimmed(draft.subject)
        let text = TextRules.trimmed(draft.text)
        if subject.isEmpty {
            validator.add(FieldProblem(field: "subject", detail: "A task needs its subject."))
        } else if var problem = TextRules.problem(in: subject, limit: StudyTask.subjectLength) {
            problem.values["field"] = "subject"
            validator.add(FieldProblem(field: "subject", problem))
        }
        if var problem = TextRules.problem(in: text, limit: StudyTask.textLength, multiline: true) {
            problem.values["field"] = "text"
            validator.add(FieldProblem(field: "text", problem))
        }
        if newDeadline, let deadline = draft.deadline, !DateRules.isSupported(deadline, in: timeZone) {
            validator.add(FieldProblem(field: "deadline", detail: "Write a date and time between 1900 and 2200."))
        }
        try validator.finish()
        return PersonalStore.TaskFields(subject: subject, text: text, deadline: draft.deadline, done: draft.done)
    }

    // MARK: Images

    /// Adds a photo to a task after checking that its bytes are the image they claim to be.
    func addImage(toTask taskID: Int64, contentType: String, data: [UInt8], for user: Account) async throws
        -> StudyTask.Image
    {
        guard data.count <= StudyTask.imageSize else { throw Refusal.tooLarge(limit: StudyTask.imageSize) }
        let kind = try ImageKind.of(
            data, sentAs: contentType, field: "image", notAnImage: Phrase("The image must be a PNG, JPEG or WebP file.")
        )
        return try await database.write { db in
            let store = PersonalStore(db)
            guard let task = try await store.task(id: taskID, userID: user.id) else {
                throw Refusal.notFound("There is no task {id}.", ["id": String(taskID)])
            }
            guard task.images.count < StudyTask.imageLimit else {
                throw Refusal.conflict(
                    "A task holds at most {limit} images; delete one first.",
                    ["limit": String(StudyTask.imageLimit)])
            }
            guard try await store.imageBytes(userID: user.id) + data.count <= StudyTask.imageQuota else {
                throw Refusal.conflict(
                    "Your tasks' images take {limit} MiB already; delete some first.",
                    ["limit": String(StudyTask.imageQuota >> 20)])
            }
            return try await store.addImage(
                taskID: taskID, userID: user.id, contentType: kind.mediaType, data: data, now: now())
        }
    }

    func image(_ id: Int64, ofTask taskID: Int64, of user: Account) async throws -> PersonalStore.TaskImageData {
        guard
            let image = try await database.read({ db in
                try await PersonalStore(db).image(id: id, taskID: taskID, userID: user.id)
            })
        else { throw Refusal.notFound("Task {task} has no image {id}.", ["task": String(taskID), "id": String(id)]) }
        return image
    }

    func deleteImage(_ id: Int64, ofTask taskID: Int64, for user: Account) async throws {
        let deleted = try await database.write { db in
            try await PersonalStore(db).deleteImage(id: id, taskID: taskID, userID: user.id, now: now())
        }
        guard deleted else {
            throw Refusal.notFound("Task {task} has no image {id}.", ["task": String(taskID), "id": String(id)])
        }
    }

    // MARK: Deadlines from the schedule

    /// The next lessons of a subject in the user's schedule (every subject when it is empty),
    /// whose starts a task's deadline may take.
    func deadlineChoices(subject: String, limit: Int, for user: Account) async throws -> [Occurrence] {
        let (targets, filter) = try await targets(of: user)
        let today = timetable.today()
        let range = today...today.adding(days: TimetableService.nextLessonHorizon)
        let lessons = try await timetable.lessons(of: targets, in: range)
        let occurrences = Schedule.occurrences(
            of: lessons, in: range, calendar: try await timetable.studyCalendar(), filter: filter)
        return StudyTask.deadlineChoices(
            for: subject, in: occurrences, after: now(), timeZone: timetable.timeZone, limit: limit)
    }

    /// The subjects of the user's schedule, by name (empty without a group).
    func subjects(of user: Account) async throws -> [String] {
        guard let (targets, filter) = try? await targets(of: user) else { return [] }
        let lessons = try await timetable.lessons(of: targets, in: nil).filter { filter.admits($0) }
        return Set(lessons.map(\.subject)).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    /// The deadlines of the user's open tasks, for their calendar feed.
    func deadlines(of user: Account) async throws -> [ICalendar.Deadline] {
        try await tasks(of: user).compactMap { task in
            guard !task.done, let deadline = task.deadline else { return nil }
            return ICalendar.Deadline(taskID: task.id, subject: task.subject, text: task.text, at: deadline)
        }
    }
}
