import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import OpenAPIRuntime
import Timetable

/// The API of tasks with deadlines (`/api/v1/me/tasks`): each student's own.
extension APIHandler {
    func listTasks(_ input: Operations.listTasks.Input) async throws -> Operations.listTasks.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        // At most StudyTask.limit of them, sorted as a whole: the page is cut from that list.
        var tasks = try await myTimetable.tasks(of: user)
        if let done = input.query.done { tasks = tasks.filter { $0.done == done } }
        let items = tasks.dropFirst(page.offset).prefix(page.limit).map(\.api)
        return .ok(
            .init(body: .json(.init(items: items, total: tasks.count, limit: page.limit, offset: page.offset))))
    }

    func createTask(_ input: Operations.createTask.Input) async throws -> Operations.createTask.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the task as JSON.") }
        let task = try await myTimetable.addTask(
            .init(subject: body.subject, text: body.text ?? "", deadline: body.deadline, done: body.done ?? false),
            for: user)
        return .created(.init(body: .json(task.api)))
    }

    func getTask(_ input: Operations.getTask.Input) async throws -> Operations.getTask.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await myTimetable.task(input.path.taskId, of: user).api)))
    }

    func updateTask(_ input: Operations.updateTask.Input) async throws -> Operations.updateTask.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the change as JSON.") }
        let clearDeadline = body.clear?.contains(.deadline) == true
        if clearDeadline, body.deadline != nil {
            throw Problem.invalid(
                FieldProblem(field: "deadline", detail: "Give a new deadline or clear it, not both."))
        }
        let change = MyTimetableService.TaskChange(
            subject: body.subject, text: body.text,
            deadline: clearDeadline ? .some(nil) : body.deadline.map { .some($0) }, done: body.done)
        return .ok(.init(body: .json(try await myTimetable.changeTask(input.path.taskId, change, for: user).api)))
    }

    func deleteTask(_ input: Operations.deleteTask.Input) async throws -> Operations.deleteTask.Output {
        let user = try await requireUser().user
        try await myTimetable.deleteTask(input.path.taskId, for: user)
        return .noContent(.init())
    }

    func addTaskImage(_ input: Operations.addTaskImage.Input) async throws -> Operations.addTaskImage.Output {
        let user = try await requireUser().user
        let (contentType, body): (String, HTTPBody) =
            switch input.body {
            case .png(let body): ("image/png", body)
            case .jpeg(let body): ("image/jpeg", body)
            case .image_webp(let body): ("image/webp", body)
            }
        let data = try await [UInt8](collecting: body, upTo: StudyTask.imageSize)
        let taskID = input.path.taskId
        let image = try await myTimetable.addImage(toTask: taskID, contentType: contentType, data: data, for: user)
        return .created(.init(body: .json(image.api(taskID: taskID))))
    }

    func getTaskImage(_ input: Operations.getTaskImage.Input) async throws -> Operations.getTaskImage.Output {
        let user = try await requireUser().user
        let image = try await myTimetable.image(input.path.imageId, ofTask: input.path.taskId, of: user)
        // An image never changes (a new photo is a new image): its owner's browser keeps it.
        let headers = Operations.getTaskImage.Output.Ok.Headers(Cache_hyphen_Control: "private, max-age=31536000")
        return .ok(.init(headers: headers, body: .image(image.data, contentType: image.contentType)))
    }

    func deleteTaskImage(_ input: Operations.deleteTaskImage.Input) async throws -> Operations.deleteTaskImage.Output {
        let user = try await requireUser().user
        try await myTimetable.deleteImage(input.path.imageId, ofTask: input.path.taskId, for: user)
        return .noContent(.init())
    }

    func listUpcomingLessons(_ input: Operations.listUpcomingLessons.Input) async throws
        -> Operations.listUpcomingLessons.Output
    {
        let user = try await requireUser().user
        let choices = try await myTimetable.deadlineChoices(
            subject: input.query.subject ?? "", limit: input.query.limit ?? 10, for: user)
        let types = try await timetable.lessonTypes()
        let zone = timetable.timeZone
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: choices.map {
                            .init(startsAt: $0.start.moment(in: zone), lesson: $0.api(types: types))
                        }))))
    }
}

extension StudyTask {
    var api: Components.Schemas.StudyTask {
        .init(
            id: id, subject: subject, text: text, deadline: deadline, done: done,
            images: images.map { $0.api(taskID: id) }, createdAt: createdAt, updatedAt: updatedAt)
    }
}

extension StudyTask.Image {
    func api(taskID: Int64) -> Components.Schemas.TaskImage {
        .init(id: id, contentType: contentType, size: size, url: APIRoutes.taskImage.path(taskID, id))
    }
}
