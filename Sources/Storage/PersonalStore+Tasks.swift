import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// Students' tasks and their images; every method takes the owner, and finds only their tasks.
extension PersonalStore {
    /// What a task's fields become.
    public struct TaskFields: Sendable {
        public var subject: String
        public var text: String
        public var deadline: Date?
        public var done: Bool

        public init(subject: String, text: String, deadline: Date?, done: Bool) {
            self.subject = subject
            self.text = text
            self.deadline = deadline
            self.done = done
        }
    }

    /// An image's bytes, as it was uploaded.
    public struct TaskImageData: Sendable {
        public var contentType: String
        public var data: [UInt8]
        public var createdAt: Date
    }

    /// The user's tasks with their images (in no particular order: the caller sorts).
    public func tasks(userID: Int64) async throws -> [StudyTask] {
        let tasks = try await db.select().columns(Self.taskColumns).from("study_tasks")
            .where("user_id", .equal, userID).orderBy("id").all().map(Self.task)
        let images = try await db.select().columns("id", "task_id", "content_type", "size").from("study_task_images")
            .where("user_id", .equal, userID).orderBy("id").all()
        var byTask: [Int64: [StudyTask.Image]] = [:]
        for row in images {
            byTask[try row.decode(column: "task_id", as: Int64.self), default: []].append(try Self.image(row))
        }
        return tasks.map { task in
            var task = task
            task.images = byTask[task.id] ?? []
            return task
        }
    }

    public func task(id: Int64, userID: Int64) async throws -> StudyTask? {
        guard
            var task = try await db.select().columns(Self.taskColumns).from("study_tasks").where("id", .equal, id)
                .where("user_id", .equal, userID).first().map(Self.task)
        else { return nil }
        task.images = try await db.select().columns("id", "content_type", "size").from("study_task_images")
            .where("task_id", .equal, id).orderBy("id").all().map(Self.image)
        return task
    }

    public func taskCount(userID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM study_tasks WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    public func addTask(userID: Int64, _ fields: TaskFields, now: Date) async throws -> Int64 {
        guard
            let id = try await db.insert(into: "study_tasks")
                .columns("user_id", "subject", "body", "deadline", "done", "created_at", "updated_at")
                .values(
                    SQLBind(userID), SQLBind(fields.subject), SQLBind(fields.text), SQLBind(fields.deadline?.epoch),
                    SQLBind(fields.done), SQLBind(now.epoch), SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("study_tasks: no id returned") }
        return id
    }

    /// Changes a task's fields; false when the user has no such task.
    public func changeTask(id: Int64, userID: Int64, _ fields: TaskFields, now: Date) async throws -> Bool {
        guard try await task(id: id, userID: userID) != nil else { return false }
        try await db.update("study_tasks").set("subject", to: fields.subject).set("body", to: fields.text)
            .set("deadline", to: SQLBind(fields.deadline?.epoch)).set("done", to: fields.done)
            .set("updated_at", to: now.epoch).where("id", .equal, id).where("user_id", .equal, userID).run()
        return true
    }

    /// Deletes a task with its images; false when the user has no such task.
    public func deleteTask(id: Int64, userID: Int64) async throws -> Bool {
        guard try await task(id: id, userID: userID) != nil else { return false }
        try await db.delete(from: "study_task_images").where("task_id", .equal, id).run()
        try await db.delete(from: "study_tasks").where("id", .equal, id).where("user_id", .equal, userID).run()
        return true
    }

    // MARK: Images

    /// The bytes of the user's images, over all their tasks.
    public func imageBytes(userID: Int64) async throws -> Int {
        try await db.raw(
            "SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) AS n FROM study_task_images WHERE user_id = \(bind: userID)"
        )
        .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Adds an image to a task the caller has found to be the user's.
    public func addImage(taskID: Int64, userID: Int64, contentType: String, data: [UInt8], now: Date) async throws
        -> StudyTask.Image
    {
        guard
            let id = try await db.insert(into: "study_task_images")
                .columns("task_id", "user_id", "content_type", "size", "data", "created_at")
                .values(
                    SQLBind(taskID), SQLBind(userID), SQLBind(contentType), SQLBind(data.count), SQLBind(Data(data)),
                    SQLBind(now.epoch)
                )
                .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw StoreError.damaged("study_task_images: no id returned") }
        try await db.update("study_tasks").set("updated_at", to: now.epoch).where("id", .equal, taskID).run()
        return StudyTask.Image(id: id, contentType: contentType, size: data.count)
    }

    /// An image of one of the user's tasks; nil when there is none such.
    public func image(id: Int64, taskID: Int64, userID: Int64) async throws -> TaskImageData? {
        guard
            let row = try await db.select().columns("content_type", "data", "created_at").from("study_task_images")
                .where("id", .equal, id).where("task_id", .equal, taskID).where("user_id", .equal, userID).first()
        else { return nil }
        return TaskImageData(
            contentType: try row.decode(column: "content_type", as: String.self),
            data: [UInt8](try row.decode(column: "data", as: Data.self)),
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)))
    }

    /// Deletes an image; false when the user's task has no such image.
    public func deleteImage(id: Int64, taskID: Int64, userID: Int64, now: Date) async throws -> Bool {
        let found = try await db.select().column("id").from("study_task_images").where("id", .equal, id)
            .where("task_id", .equal, taskID).where("user_id", .equal, userID).first()
        guard found != nil else { return false }
        try await db.delete(from: "study_task_images").where("id", .equal, id).run()
        try await db.update("study_tasks").set("updated_at", to: now.epoch).where("id", .equal, taskID).run()
        return true
    }

    private static let taskColumns = ["id", "subject", "body", "deadline", "done", "created_at", "updated_at"]

    private static func task(_ row: any SQLRow) throws -> StudyTask {
        StudyTask(
            id: try row.decode(column: "id", as: Int64.self),
            subject: try row.decode(column: "subject", as: String.self),
            text: try row.decode(column: "body", as: String.self),
            deadline: try row.decode(column: "deadline", as: Int64?.self).map { Date(epoch: $0) },
            done: try row.decode(column: "done", as: Bool.self),
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
    }

    private static func image(_ row: any SQLRow) throws -> StudyTask.Image {
        StudyTask.Image(
            id: try row.decode(column: "id", as: Int64.self),
            contentType: try row.decode(column: "content_type", as: String.self),
            size: try row.decode(column: "size", as: Int.self))
    }
}
