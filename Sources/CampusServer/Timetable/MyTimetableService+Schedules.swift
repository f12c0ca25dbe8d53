import Accounts
import Foundation
import InputRules
import Storage
import Timetable

/// Saved compound schedules: each student's own, with a calendar feed of their own.
extension MyTimetableService {
    func savedSchedules(of user: Account) async throws -> [SavedSchedule] {
        try await database.read { db in try await PersonalStore(db).savedSchedules(userID: user.id) }
    }

    func savedSchedule(_ id: Int64, of user: Account) async throws -> SavedSchedule {
        guard
            let schedule = try await database.read({ db in
                try await PersonalStore(db).savedSchedule(id: id, userID: user.id)
            })
        else { throw Refusal.notFound("There is no saved schedule {id}.", ["id": String(id)]) }
        return schedule
    }

    func addSavedSchedule(name: String, members: [Favorite], inMySchedule: Bool = false, for user: Account)
        async throws -> SavedSchedule
    {
        let (name, members) = try await checked(name: name, members: members)
        let now = now()
        return try await database.write { db in
            let store = PersonalStore(db)
            guard try await store.savedScheduleCount(userID: user.id) < SavedSchedule.limit else {
                throw Refusal.conflict(
                    "You keep {limit} saved schedules already; delete one first.",
                    ["limit": String(SavedSchedule.limit)])
            }
            return try await store.addSavedSchedule(
                name: name, members: members, token: Token.make(), inMySchedule: inMySchedule, userID: user.id, now: now
            )
        }
    }

    func replaceSavedSchedule(
        _ id: Int64, name: String, members: [Favorite], inMySchedule: Bool? = nil, for user: Account
    ) async throws -> SavedSchedule {
        let (name, members) = try await checked(name: name, members: members)
        let now = now()
        let replaced = try await database.write { db in
            try await PersonalStore(db).replaceSavedSchedule(
                id: id, name: name, members: members, inMySchedule: inMySchedule, userID: user.id, now: now)
        }
        guard replaced else { throw Refusal.notFound("There is no saved schedule {id}.", ["id": String(id)]) }
        return try await savedSchedule(id, of: user)
    }

    /// Keeps a saved schedule's lessons in the user's own schedule, or takes them out.
    func setInMySchedule(_ included: Bool, _ id: Int64, for user: Account) async throws -> SavedSchedule {
        let changed = try await database.write { db in
            try await PersonalStore(db).setInMySchedule(included, id: id, userID: user.id, now: now())
        }
        guard changed else { throw Refusal.notFound("There is no saved schedule {id}.", ["id": String(id)]) }
        return try await savedSchedule(id, of: user)
    }

    func deleteSavedSchedule(_ id: Int64, for user: Account) async throws {
        let deleted = try await database.write { db in
            try await PersonalStore(db).deleteSavedSchedule(id: id, userID: user.id)
        }
        guard deleted else { throw Refusal.notFound("There is no saved schedule {id}.", ["id": String(id)]) }
    }

    /// A name of 1 to 100 characters, and 1 to 20 groups, teachers and rooms the timetable has.
    private func checked(name: String, members: [Favorite]) async throws -> (String, [Favorite]) {
        var validator = Validator()
        let name = TextRules.trimmed(name)
        if name.isEmpty {
            validator.add(FieldProblem(field: "name", detail: "Give the schedule a name."))
        } else if var problem = TextRules.problem(in: name, limit: SavedSchedule.nameLength) {
            problem.values["field"] = "name"
            validator.add(FieldProblem(field: "name", problem))
        }
        var unique: [Favorite] = []
        for member in members where !unique.contains(member) { unique.append(member) }
        if unique.isEmpty || unique.count > SavedSchedule.memberLimit {
            validator.add(
                FieldProblem(
                    field: "groups", detail: "A saved schedule has 1 to {maximum} groups, teachers and rooms.",
                    ["maximum": String(SavedSchedule.memberLimit)]))
        }
        try validator.finish()
        for member in unique {
            do {
                _ = try await self.name(of: member)
            } catch let refusal as Refusal where refusal.reason == .notFound {
                throw Refusal.invalid(FieldProblem(field: member.kind.rawValue + "s", refusal.phrase))
            }
        }
        return (name, unique)
    }

    /// What a saved schedule shows.
    static func targets(of schedule: SavedSchedule) -> [TimetableService.Target] {
        schedule.members.compactMap(target(of:))
    }

    // MARK: Feeds

    /// What a calendar feed's token opens: a user's own schedule, or one they saved.
    struct FeedSource: Sendable {
        var user: Account
        var targets: [TimetableService.Target]
        var filter: ScheduleFilter
        /// The saved schedule's name; nil for the user's own schedule.
        var name: String?
        var reminderMinutes: Int?
    }

    func feedSource(token: String) async throws -> FeedSource {
        let saved = try await database.read { db -> (SavedSchedule, Account)? in
            guard token.utf8.count <= 100,
                let (schedule, userID) = try await PersonalStore(db).savedSchedule(token: token),
                let user = try await AccountStore(db).user(id: userID)
            else { return nil }
            return (schedule, user)
        }
        if let (schedule, user) = saved {
            return FeedSource(
                user: user, targets: Self.targets(of: schedule), filter: ScheduleFilter(), name: schedule.name,
                reminderMinutes: nil)
        }
        let (feed, user) = try await calendarFeed(token: token)
        let (targets, filter) = try await targets(of: user)
        return FeedSource(
            user: user, targets: targets, filter: filter, name: nil, reminderMinutes: feed.reminderMinutes)
    }
}
