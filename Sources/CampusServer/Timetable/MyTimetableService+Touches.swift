import Accounts
import Foundation
import InputRules
import Storage
import Timetable

/// A user's nicknames for groups and colours for lesson types: theirs alone.
extension MyTimetableService {
    func nicknames(of user: Account) async throws -> [String: String] {
        try await database.read { db in try await PersonalStore(db).nicknames(userID: user.id) }
    }

    func lessonColours(of user: Account) async throws -> [String: String] {
        try await database.read { db in try await PersonalStore(db).lessonColours(userID: user.id) }
    }

    /// Gives a group of the timetable a nickname (404 for a group it does not have).
    func setNickname(_ nickname: String, group: String, for user: Account) async throws -> String {
        let nickname = TextRules.trimmed(nickname)
        guard !nickname.isEmpty else {
            throw Refusal.invalid(FieldProblem(field: "nickname", detail: "A nickname needs some text."))
        }
        if var problem = TextRules.problem(in: nickname, limit: PersonalTouches.nicknameLength) {
            problem.values["field"] = "nickname"
            throw Refusal.invalid(FieldProblem(field: "nickname", problem))
        }
        let name = try await directory.group(named: group).group.name
        try await write(for: user) { store in try await store.setNickname(nickname, group: name, userID: user.id) }
        return nickname
    }

    func removeNickname(group: String, for user: Account) async throws {
        let removed = try await database.write { db in
            try await PersonalStore(db).setNickname(nil, group: group, userID: user.id)
        }
        guard removed else {
            throw Refusal.notFound("You have no nickname for {name}.", ["name": group])
        }
    }

    /// Gives a lesson type of the timetable a colour of the user's own (404 for a type it lacks).
    func setLessonColour(_ colour: String, type: String, for user: Account) async throws -> String {
        guard PersonalTouches.isColour(colour) else {
            throw Refusal.invalid(
                FieldProblem(field: "colour", detail: "A colour is written like #e08a1e."))
        }
        guard try await directory.lessonTypes().contains(where: { $0.id == type }) else {
            throw Refusal.notFound("There is no lesson type {id}.", ["id": type])
        }
        let colour = colour.lowercased()
        try await write(for: user) { store in try await store.setLessonColour(colour, type: type, userID: user.id) }
        return colour
    }

    func removeLessonColour(type: String, for user: Account) async throws {
        let removed = try await database.write { db in
            try await PersonalStore(db).setLessonColour(nil, type: type, userID: user.id)
        }
        guard removed else {
            throw Refusal.notFound("You have no colour of your own for {id}.", ["id": type])
        }
    }

    /// A change that adds at most one nickname or colour, within ``PersonalTouches/limit``.
    private func write(for user: Account, _ change: @escaping @Sendable (PersonalStore) async throws -> Void)
        async throws
    {
        try await database.write { db in
            let store = PersonalStore(db)
            guard try await store.touchCount(userID: user.id) < PersonalTouches.limit else {
                throw Refusal.conflict(
                    "You keep {limit} nicknames and colours already; remove one first.",
                    ["limit": String(PersonalTouches.limit)])
            }
            try await change(store)
        }
    }
}
