import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import InputRules
import Localization
import Storage
import Timetable

/// Tasks with deadlines (`/timetable/mine/tasks`): the list by deadline with countdowns, a new
/// task whose deadline can be one of its subject's next lessons, a task's page with its photos.
struct MyTasksPages: Sendable {
    let myTimetable: MyTimetableService
    let now: @Sendable () -> Date
    let timetable: TimetableService
    var mine: MyTimetableService { myTimetable }
    var zone: TimeZone { timetable.timeZone }

    /// How many of a subject's next lessons a task's form offers as deadlines.
    static let choiceCount = 8

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.tasks, list)
        pages.signedInPage(SiteRoutes.newTask, newPage)
        pages.upload(SiteRoutes.tasks, TaskForm.self, bodyLimit: BodyLimits.taskImageForm, add)
        pages.signedInPage(SiteRoutes.task, taskPage)
        pages.form(SiteRoutes.task, TaskForm.self, change)
        pages.form(SiteRoutes.taskDone, DoneForm.self, markDone)
        pages.form(SiteRoutes.deleteTask, DoneForm.self, delete)
        pages.upload(SiteRoutes.taskImages, TaskForm.self, bodyLimit: BodyLimits.taskImageForm, addImage)
        pages.form(SiteRoutes.deleteTaskImage, DoneForm.self, deleteImage)
    }

    // MARK: The list

    @Sendable func list(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let tasks = try await mine.tasks(of: account.user)
        let rows = tasks.map { row($0, request.t) }
        let subjects = try await mine.subjects(of: account.user).map {
            TasksPage.Subject(name: $0, url: SiteRoutes.newTask.path(query: [("subject", $0)]))
        }
        return .page(
            TasksPage(
                open: rows.filter { !$0.done }, done: rows.filter(\.done), hasTasks: !rows.isEmpty,
                hasDone: rows.contains(where: \.done), subjects: subjects, hasSubjects: !subjects.isEmpty))
    }

    /// A task as the list and the glance show it: when it is due and how long until then.
    func row(_ task: StudyTask, _ t: Translator) -> TaskRow {
        let text = ScheduleText(t: t)
        let now = now()
        var countdown = ""
        var overdue = false
        switch task.state(at: now) {
        case .due(let seconds):
            countdown = t("in {time}", context: "deadline", ["time": text.duration((seconds + 59) / 60)])
        case .overdue(let seconds):
            countdown = t("{time} overdue", context: "deadline", ["time": text.duration(max(1, seconds / 60))])
            overdue = true
        case .done, .open: break
        }
        return TaskRow(
            subject: task.subject, text: task.text, deadline: task.deadline.map { when($0, t) } ?? "",
            deadlineISO: task.deadline.map { RFC3339.text($0) } ?? "", countdown: countdown, overdue: overdue,
            done: task.done, imageCount: task.images.count, hasImages: !task.images.isEmpty,
            url: SiteRoutes.task.path(task.id),
            doneURL: SiteRoutes.taskDone.path(task.id))
    }

    /// `Monday September 25 at 10:00`, or `today at 10:00`.
    func when(_ moment: Date, _ t: Translator) -> String {
        let local = LocalDateTime(moment, in: zone)
        let today = LocalDate(now(), in: zone)
        let text = ScheduleText(t: t)
        // Another year's day says its year.
        let day =
            local.date.year == today.year
            ? text.when(local.date, today: today)
            : t(
                "{weekday} {date}", context: "weekday and date",
                ["weekday": text.weekday(local.date), "date": text.date(local.date)])
        return t(
            "{day} at {time}", context: "deadline",
            ["day": day, "time": WallTime(minutes: local.minutes)?.description ?? ""])
    }

    // MARK: A new task

    @Sendable func newPage(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let subject = request.text("subject", maxLength: StudyTask.subjectLength) ?? ""
        let text = request.text("text", maxLength: StudyTask.textLength)
        // "Show its next lessons" sends the whole form here: the page comes back with what was
        // written, at an address without the form's CSRF token (which history should not keep).
        if request.query("_csrf") != nil {
            return .redirect(SiteRoutes.newTask.path(query: [("subject", subject), ("text", text)]))
        }
        return .page(try await form(TaskForm(subject: subject, text: text), for: account.user, request.t))
    }

    /// The task form, filled with what was sent (or a task's fields), with the subject's lessons
    /// to choose a deadline from.
    func form(
        _ form: TaskForm, task: StudyTask? = nil, for user: Account, errors: FieldErrors = FieldErrors(),
        _ t: Translator
    ) async throws -> TaskFormPage {
        let subject = form.subject ?? ""
        let choices =
            subject.isEmpty
            ? []
            : (try? await mine.deadlineChoices(subject: subject, limit: Self.choiceCount, for: user)) ?? []
        let types = try await timetable.lessonTypes()
        let text = ScheduleText(t: t)
        let chosen = form.deadlineAt ?? task?.deadline.flatMap { DateTimeField.value($0, in: zone) } ?? ""
        let lessons = choices.map { occurrence -> TaskFormPage.Choice in
            let value = DateTimeField.value(occurrence.start.moment(in: zone), in: zone) ?? ""
            let type = occurrence.lesson.typeID.map { text.lessonType(types[$0] ?? .unknown($0)).abbreviation }
            let rooms = occurrence.lesson.rooms.map(\.name).joined(separator: ", ")
            return TaskFormPage.Choice(
                value: value,
                label: [
                    text.when(occurrence.date, today: LocalDate(now(), in: zone)) + ", "
                        + occurrence.lesson.start.description, type, rooms.isEmpty ? nil : rooms,
                ].compactMap { $0 }.joined(separator: " · "),
                checked: chosen == value)
        }
        let otherValue = form.deadline ?? task?.deadline.flatMap { DateTimeField.value($0, in: zone) } ?? ""
        let picksLesson = lessons.contains(where: \.checked)
        return TaskFormPage(
            heading: task == nil ? t("A new task") : t("Task"),
            action: task.map { SiteRoutes.task.path($0.id) } ?? SiteRoutes.tasks.path, isNew: task == nil,
            subject: subject, text: form.text ?? task?.text ?? "", subjects: try await mine.subjects(of: user),
            choices: lessons, hasChoices: !lessons.isEmpty, other: picksLesson ? "" : otherValue,
            otherChecked: !picksLesson && !otherValue.isEmpty,
            noneChecked: task != nil && !picksLesson && otherValue.isEmpty,
            done: form.done == "1" || (form.done == nil && task?.done == true),
            images: (task?.images ?? []).map {
                TaskFormPage.Image(
                    url: APIRoutes.taskImage.path(task?.id ?? 0, $0.id),
                    deleteURL: SiteRoutes.deleteTaskImage.path(task?.id ?? 0, $0.id))
            },
            imagesURL: task.map { SiteRoutes.taskImages.path($0.id) } ?? "",
            deleteURL: task.map { SiteRoutes.deleteTask.path($0.id) } ?? "",
            reloadURL: SiteRoutes.newTask.path, errors: errors)
    }

    /// The deadline a form asks for: a lesson's start, another date and time, or none.
    func deadline(_ form: TaskForm) throws -> Date? {
        let picked = form.deadlineAt ?? ""
        if picked == "none" { return nil }
        // Nothing picked (a new task's form picks nothing for the visitor): the date and time
        // field, which may be empty.
        let text = picked.isEmpty || picked == "other" ? form.deadline : picked
        guard let read = DateTimeField.read(text, in: zone) else {
            throw Refusal.invalid(
                FieldProblem(field: "deadline", detail: "Write a date and time between 1900 and 2200."))
        }
        return read
    }

    @Sendable func add(_ request: PageRequest, _ account: Authenticated, _ form: TaskForm) async throws -> PageAnswer {
        do {
            let draft = MyTimetableService.TaskDraft(
                subject: form.subject ?? "", text: form.text ?? "", deadline: try deadline(form))
            if let image = form.image, !image.isEmpty {
                // The photo is checked before the task is kept, so a wrong file keeps neither.
                _ = try ImageKind.of(
                    [UInt8](image), sentAs: "application/octet-stream", field: "image",
                    notAnImage: Phrase("The image must be a PNG, JPEG or WebP file."))
            }
            let task = try await mine.addTask(draft, for: account.user)
            if let image = form.image, !image.isEmpty {
                _ = try await mine.addImage(
                    toTask: task.id, contentType: "application/octet-stream", data: [UInt8](image), for: account.user)
            }
            return .redirect(SiteRoutes.tasks.path, flash: request.t("Your task is saved."))
        } catch {
            guard let problem = Problem(describing: error), problem.status == .unprocessableContent else { throw error }
            return .page(
                try await self.form(
                    form, for: account.user, errors: FieldErrors(ValidationFailure(problem.errors), request.t),
                    request.t),
                status: .unprocessableContent)
        }
    }

    // MARK: A task

    @Sendable func taskPage(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let task = try await mine.task(try request.id("taskId"), of: account.user)
        return .page(try await form(TaskForm(subject: task.subject), task: task, for: account.user, request.t))
    }

    @Sendable func change(_ request: PageRequest, _ account: Authenticated, _ form: TaskForm) async throws
        -> PageAnswer
    {
        let task = try await mine.task(try request.id("taskId"), of: account.user)
        do {
            let change = MyTimetableService.TaskChange(
                subject: form.subject ?? "", text: form.text ?? "", deadline: .some(try deadline(form)),
                done: form.done == "1")
            _ = try await mine.changeTask(task.id, change, for: account.user)
            return .redirect(SiteRoutes.tasks.path, flash: request.t("Your task is saved."))
        } catch {
            guard let problem = Problem(describing: error), problem.status == .unprocessableContent else { throw error }
            return .page(
                try await self.form(
                    form, task: task, for: account.user,
                    errors: FieldErrors(ValidationFailure(problem.errors), request.t), request.t),
                status: .unprocessableContent)
        }
    }

    @Sendable func markDone(_ request: PageRequest, _ account: Authenticated, _ form: DoneForm) async throws
        -> PageAnswer
    {
        let done = form.done == "1"
        let task = try await mine.changeTask(
            try request.id("taskId"), .init(done: done), for: account.user)
        return .redirect(
            SiteRoutes.tasks.path,
            flash: done
                ? request.t("“{subject}” is done.", ["subject": task.subject])
                : request.t("“{subject}” is open again.", ["subject": task.subject]))
    }

    @Sendable func delete(_ request: PageRequest, _ account: Authenticated, _ form: DoneForm) async throws
        -> PageAnswer
    {
        try await mine.deleteTask(try request.id("taskId"), for: account.user)
        return .redirect(SiteRoutes.tasks.path, flash: request.t("The task is deleted."))
    }

    @Sendable func addImage(_ request: PageRequest, _ account: Authenticated, _ form: TaskForm) async throws
        -> PageAnswer
    {
        let taskID = try request.id("taskId")
        guard let image = form.image, !image.isEmpty else {
            return .redirect(
                SiteRoutes.task.path(taskID), flash: request.t("Choose an image file first."), kind: .error)
        }
        do {
            _ = try await mine.addImage(
                toTask: taskID, contentType: "application/octet-stream", data: [UInt8](image), for: account.user)
            return .redirect(SiteRoutes.task.path(taskID), flash: request.t("The image is added."))
        } catch {
            guard let problem = Problem(describing: error), [.unprocessableContent, .conflict].contains(problem.status)
            else { throw error }
            return .redirect(SiteRoutes.task.path(taskID), flash: request.t.detail(problem), kind: .error)
        }
    }

    @Sendable func deleteImage(_ request: PageRequest, _ account: Authenticated, _ form: DoneForm) async throws
        -> PageAnswer
    {
        let taskID = try request.id("taskId")
        try await mine.deleteImage(try request.id("imageId"), ofTask: taskID, for: account.user)
        return .redirect(SiteRoutes.task.path(taskID), flash: request.t("The image is removed."))
    }
}

/// A task's form, as sent (multipart when it carries a photo).
struct TaskForm: PageForm {
    var _csrf: String?
    var subject: String?
    var text: String?
    /// A lesson's start (`2026-11-23T09:00`), `other` for `deadline`, or `none`.
    var deadlineAt: String?
    var deadline: String?
    var done: String?
    var image: Data?
}

struct DoneForm: PageForm {
    var _csrf: String?
    var done: String?
}
