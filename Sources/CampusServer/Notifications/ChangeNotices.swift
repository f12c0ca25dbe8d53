import Accounts
import Foundation
import Localization
import SQLKit
import SharedHelpers
import Storage
import Timetable

/// Tells the followers of a schedule what an import changed (issue 39): the changes an import
/// listed in `change_notices` become, in one transaction with their removal from that list, one
/// message per user and schedule (in the user's language, naming each lesson and what it is now)
/// with its push and mail queued. An import beside the running server is told the same way.
struct ChangeNotices: Sendable {
    let database: Database
    let languages: Languages
    let timeZone: TimeZone
    let now: @Sendable () -> Date

    /// Changes taken in one transaction.
    static let batch = 500
    /// Lines one message lists; the rest are counted.
    static let linesShown = 6
    /// A change seen longer ago than this is no news: its notice is dropped untold.
    static let staleAfter: TimeInterval = 24 * 3600

    /// Tells what waits; returns how many messages were written.
    @discardableResult
    func tell() async throws -> Int {
        var written = 0
        while true {
            let (taken, count) = try await database.write { db in try await tellBatch(db) }
            written += count
            if taken < Self.batch { return written }
        }
    }

    private func tellBatch(_ db: any SQLDatabase) async throws -> (taken: Int, written: Int) {
        let store = NotificationStore(db)
        let ids = try await store.untoldChanges(limit: Self.batch)
        guard !ids.isEmpty else { return (0, 0) }
        let now = now()
        let changes = try await TimetableStore(db).changes(ids: ids).filter {
            now.timeIntervalSince($0.seenAt) < Self.staleAfter
        }
        try await store.told(ids)
        guard !changes.isEmpty else { return (ids.count, 0) }
        let byTarget = Dictionary(grouping: changes, by: \.target)
        let followers = try await store.followers(of: Set(byTarget.keys))
        let userIDs = Array(Set(followers.map(\.userID)))
        let readers = try await store.readers(userIDs)
        let choices = try await store.choices(of: userIDs)
        let preferences = try await store.preferences(of: userIDs)
        let names = try await self.names(of: Array(byTarget.keys), in: TimetableStore(db))
        var written = 0
        // One message per user and schedule; the user's own schedule before a favorite's.
        var told = Set<String>()
        for follower in followers.sorted(by: { Self.rank($0.reason) < Self.rank($1.reason) }) {
            guard let reader = readers[follower.userID], let targetChanges = byTarget[follower.target] else { continue }
            let topic: NotificationTopic = follower.reason == .favorite ? .favoriteChanged : .scheduleChanged
            var mine = targetChanges.map(\.change)
            if case .ownGroup(let subgroup) = follower.reason, subgroup != 0 {
                mine = mine.filter { $0.subgroup == 0 || $0.subgroup == subgroup }
            }
            guard !mine.isEmpty, let seen = targetChanges.first?.seenAt else { continue }
            let cause = "changes:\(follower.target.kind):\(follower.target.key):\(seen.milliseconds)"
            guard told.insert("\(reader.id) \(cause)").inserted else { continue }
            let choice = choices[reader.id]?[topic] ?? topic.defaultChoice
            let preference = preferences[reader.id] ?? NotificationPreferences()
            let t = languages.translator(reader.language) ?? languages.choose(choice: nil, acceptLanguage: nil)
            let name = names[follower.target] ?? follower.target.key
            let message = Self.message(mine, of: name, t: t)
            let timing = NotificationTiming(preferences: preference, institution: timeZone)
            if try await store.write(
                NewNotification(
                    userID: reader.id, topic: topic, cause: cause, title: message.title, body: message.body,
                    link: Self.link(follower.target), choice: choice, dueAt: timing.release(now),
                    digestAt: timing.digest(now)),
                now: now) != nil
            {
                written += 1
            }
        }
        return (ids.count, written)
    }

    private static func rank(_ reason: Follower.Reason) -> Int {
        switch reason {
        case .ownGroup: 0
        case .savedSchedule, .elective: 1
        case .favorite: 2
        }
    }

    /// The message: "Schedule of 250101 changed", and a line per change (as schedule pages
    /// show it), changes on several days of one lesson in one line.
    static func message(_ changes: [ScheduleChange], of name: String, t: Translator) -> (title: String, body: String) {
        let text = ScheduleText(t: t)
        let rows = SchedulePageBuilder.repeating(changes)
        var lines = rows.prefix(linesShown).map { row -> String in
            let change = SchedulePageBuilder.change(row, text: text)
            var line = "\(change.label): \(change.subject) · \(change.when)"
            if let subgroup = change.subgroup { line += " (\(subgroup))" }
            switch (change.old, change.new) {
            case (let old?, let new?): line += " · \(old) → \(new)"
            case (let old?, nil): line += " · \(old)"
            case (nil, let new?): line += " · \(new)"
            case (nil, nil): break
            }
            return line
        }
        if rows.count > linesShown {
            lines.append(t.plural("and {count} more change", "and {count} more changes", rows.count - linesShown))
        }
        return (t("Schedule of {name} changed", context: "notification", ["name": name]), lines.joined(separator: "\n"))
    }

    static func link(_ target: ChangeTarget) -> String {
        switch target {
        case .group(let name): SiteRoutes.group.path(name) + "#schedule-changes"
        case .teacher(let urlID): SiteRoutes.teacher.path(urlID) + "#schedule-changes"
        case .room(let id): SiteRoutes.room.path(id) + "#schedule-changes"
        }
    }

    private func names(of targets: [ChangeTarget], in timetable: TimetableStore) async throws -> [ChangeTarget: String]
    {
        var names: [ChangeTarget: String] = [:]
        for target in targets {
            switch target {
            case .group(let name): names[target] = name
            case .teacher(let urlID): names[target] = try await timetable.teacher(urlID: urlID)?.fullName
            case .room(let id): names[target] = try await timetable.room(id: id)?.name
            }
        }
        return names
    }
}
