import Accounts
import Foundation
import InputRules
import Storage
import Timetable

/// What is personal in a user's timetable: their own schedule (their group and subgroup), their
/// favorites, and their calendar feed with reminders. Everything is the user's alone: another
/// user's favorites or feed are never found (404), whoever asks.
struct MyTimetableService: Sendable {
    let database: Database
    let timetable: TimetableService
    let directory: TimetableDirectory
    let now: @Sendable () -> Date

    /// A favorite with the name a person reads.
    struct FavoriteView: Sendable, Equatable {
        var favorite: Favorite
        var name: String
    }

    // MARK: My schedule

    /// The user's own schedule: their group, filtered to their subgroup, the saved schedules they
    /// keep in it (every subgroup of those) and the groups of their electives. 404 when there is
    /// none of these.
    func targets(of user: Account) async throws -> (targets: [TimetableService.Target], filter: ScheduleFilter) {
        var targets: [TimetableService.Target] = []
        var filter = ScheduleFilter()
        if let (group, groupFilter) = try? ownGroup(of: user) {
            targets.append(group)
            filter = groupFilter
        }
        for saved in try await savedSchedules(of: user) where saved.inMySchedule {
            for target in Self.targets(of: saved) where !targets.contains(target) { targets.append(target) }
        }
        // The groups chosen for the subjects the student takes (seed 003's electives).
        for group in try await electiveGroups(of: user) where !targets.contains(.group(group)) {
            targets.append(.group(group))
        }
        guard !targets.isEmpty else {
            throw Refusal.notFound("You have no group yet: choose your group in your profile.")
        }
        return (targets, filter)
    }

    /// The user's group alone, filtered to their subgroup. 404 without a group.
    func ownGroup(of user: Account) throws -> (target: TimetableService.Target, filter: ScheduleFilter) {
        guard let group = user.group else {
            throw Refusal.notFound("You have no group yet: choose your group in your profile.")
        }
        return (.group(group), ScheduleFilter(subgroup: user.subgroup == 0 ? nil : user.subgroup, subgroupOf: [group]))
    }

    // MARK: Favorites

    /// The user's favorites with their names (a directory read each): the first `limit` of them.
    func favorites(of user: Account, limit: Int = Favorite.limit) async throws -> [FavoriteView] {
        var views: [FavoriteView] = []
        for favorite in try await kept(by: user).prefix(limit) {
            views.append(FavoriteView(favorite: favorite, name: (try? await name(of: favorite)) ?? favorite.id))
        }
        return views
    }

    /// The user's favorites without their names: one read, for a page's star.
    func kept(by user: Account) async throws -> [Favorite] {
        try await database.read { db in try await PersonalStore(db).favorites(userID: user.id) }
    }

    /// Adds a favorite after finding it in the directory (404 when there is none such).
    func addFavorite(_ favorite: Favorite, for user: Account) async throws -> FavoriteView {
        let name = try await name(of: favorite)
        let added = try await database.write { db in
            try await PersonalStore(db).addFavorite(favorite, userID: user.id, now: now())
        }
        guard added else {
            throw Refusal.conflict(
                "You keep {limit} favorites already; remove one first.", ["limit": String(Favorite.limit)])
        }
        return FavoriteView(favorite: favorite, name: name)
    }

    /// Removes a favorite; 404 when the user does not have it.
    func removeFavorite(_ favorite: Favorite, for user: Account) async throws {
        let removed = try await database.write { db in
            try await PersonalStore(db).removeFavorite(favorite, userID: user.id)
        }
        guard removed else {
            throw Refusal.notFound("{id} is not among your favorites.", ["id": favorite.id])
        }
    }

    /// What the directory calls it; 404 when it has none such.
    func name(of favorite: Favorite) async throws -> String {
        switch favorite.kind {
        case .group:
            return try await directory.group(named: favorite.id).group.name
        case .teacher:
            return try await directory.teacher(urlID: favorite.id).teacher.fullName
        case .room:
            guard let id = Int64(favorite.id) else {
                throw Refusal.notFound("There is no room {id}.", ["id": favorite.id])
            }
            return try await directory.room(id: id).displayName
        case .department:
            guard let department = try await directory.departments().first(where: { $0.abbreviation == favorite.id })
            else {
                throw Refusal.notFound("There is no department {id}.", ["id": favorite.id])
            }
            return department.name ?? department.abbreviation
        }
    }

    /// The schedule target a favorite stands for (a department has none).
    static func target(of favorite: Favorite) -> TimetableService.Target? {
        switch favorite.kind {
        case .group: .group(favorite.id)
        case .teacher: .teacher(favorite.id)
        case .room: Int64(favorite.id).map { .room($0) }
        case .department: nil
        }
    }

    // MARK: The calendar feed

    /// The user's feed, made on first use.
    func calendarFeed(of user: Account) async throws -> PersonalStore.CalendarFeed {
        try await database.write { db in
            let store = PersonalStore(db)
            if let feed = try await store.calendarFeed(userID: user.id) { return feed }
            let feed = PersonalStore.CalendarFeed(userID: user.id, token: Token.make(), reminderMinutes: nil)
            try await store.saveCalendarFeed(feed, now: now())
            return feed
        }
    }

    /// Changes the feed's reminders (nil: none) and, when asked, its address: the old one is
    /// then gone (404).
    func changeCalendarFeed(of user: Account, reminderMinutes: Int??, newAddress: Bool) async throws
        -> PersonalStore.CalendarFeed
    {
        if case .some(.some(let minutes)) = reminderMinutes, !ICalendar.reminderRange.contains(minutes) {
            throw Refusal.invalid(
                FieldProblem(
                    field: "reminderMinutes", detail: "A reminder comes 0 to {maximum} minutes before a lesson.",
                    ["maximum": String(ICalendar.reminderRange.upperBound)]))
        }
        return try await database.write { db in
            let store = PersonalStore(db)
            var feed =
                try await store.calendarFeed(userID: user.id)
                ?? PersonalStore.CalendarFeed(userID: user.id, token: Token.make(), reminderMinutes: nil)
            if let reminderMinutes { feed.reminderMinutes = reminderMinutes }
            if newAddress { feed.token = Token.make() }
            try await store.saveCalendarFeed(feed, now: now())
            return feed
        }
    }

    /// The feed behind a token, with the user it belongs to; 404 for a token that is not (or no
    /// longer) one.
    func calendarFeed(token: String) async throws -> (PersonalStore.CalendarFeed, Account) {
        let found = try await database.read { db -> (PersonalStore.CalendarFeed, Account)? in
            guard token.utf8.count <= 100, let feed = try await PersonalStore(db).calendarFeed(token: token),
                let user = try await AccountStore(db).user(id: feed.userID)
            else { return nil }
            return (feed, user)
        }
        guard let found else { throw Refusal.notFound("There is no calendar at this address; it may have changed.") }
        return found
    }
}
