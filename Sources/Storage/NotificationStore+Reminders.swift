import Foundation
import SQLKit
import SharedHelpers

/// A task whose deadline comes soon, for its reminder.
public struct DueTask: Sendable, Equatable {
    public var id: Int64
    public var userID: Int64
    public var subject: String
    public var text: String
    public var deadline: Date
}

/// What reminders read: who has a group, and the tasks that fall due.
extension NotificationStore {
    /// Every user with a group, as notifications need them.
    public func students() async throws -> [NotificationReader] {
        try await db.select().columns("id", "email", "first_name", "language", "study_group", "subgroup")
            .from("users").where(SQLColumn("study_group"), .isNot, SQLLiteral.null).orderBy("id").all()
            .map(Self.reader)
    }

    /// Open tasks whose deadline is after `from` and not after `to`.
    public func tasksDue(after from: Date, until to: Date) async throws -> [DueTask] {
        try await db.select().columns("id", "user_id", "subject", "body", "deadline").from("study_tasks")
            .where("done", .equal, false).where("deadline", .greaterThan, from.epoch)
            .where("deadline", .lessThanOrEqual, to.epoch).orderBy("deadline").all()
            .map { row in
                DueTask(
                    id: try row.decode(column: "id", as: Int64.self),
                    userID: try row.decode(column: "user_id", as: Int64.self),
                    subject: try row.decode(column: "subject", as: String.self),
                    text: try row.decode(column: "body", as: String.self),
                    deadline: Date(epoch: try row.decode(column: "deadline", as: Int64.self)))
            }
    }
}
