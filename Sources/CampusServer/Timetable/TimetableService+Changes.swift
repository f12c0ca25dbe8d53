import Foundation
import Storage
import Timetable

/// The schedule changes imports kept (issue 39), as schedules and the API show them.
extension TimetableService {
    /// How far back changes are shown unless asked otherwise: two weeks.
    static let changesShownDays = 14
    /// The most changes one answer holds.
    static let changesLimit = 500

    /// The changes of `targets` seen since `since` (by default the last two weeks), newest first;
    /// `filter`'s subgroup leaves out the other subgroups' changes of its groups. 404 for a
    /// target there is not.
    func changes(of targets: [Target], since: Date? = nil, filter: ScheduleFilter = .init()) async throws
        -> [StoredScheduleChange]
    {
        let since = since ?? now().addingTimeInterval(-Double(Self.changesShownDays) * 86_400)
        let changes = try await database.read { db in
            let timetable = TimetableStore(db)
            _ = try await Self.resolve(targets, in: timetable)
            return try await timetable.changes(
                of: targets.map(\.changeTarget), since: since, limit: Self.changesLimit)
        }
        var seen = Set<ScheduleChange>()
        return changes.filter { stored in
            if let subgroup = filter.subgroup, subgroup != 0, stored.change.subgroup != 0,
                stored.change.subgroup != subgroup, case .group(let name) = stored.target,
                filter.subgroupOf?.contains(name) ?? true
            {
                return false
            }
            // One change seen for several of the targets (a lecture of two of my groups) once.
            return seen.insert(stored.change).inserted
        }
    }
}

extension TimetableService {
    /// How long calendar feeds keep the events of a removed lesson, cancelled: two weeks.
    static let cancelledKeptDays = 14

    /// How long changes are kept: eight weeks after they were seen.
    static let changesKeptDays = 56

    /// Forgets the changes and removed lessons older than they are kept.
    func forgetOldChanges() async throws {
        let now = now()
        try await database.write { db in
            try await TimetableStore(db).forgetChanges(
                seenBefore: now.addingTimeInterval(-Double(Self.changesKeptDays) * 86_400),
                cancelledBefore: now.addingTimeInterval(-Double(Self.cancelledKeptDays) * 86_400))
        }
    }

    /// The lessons `targets` lost in the last two weeks, as they were.
    func cancelledLessons(of targets: [Target]) async throws -> [Lesson] {
        let since = now().addingTimeInterval(-Double(Self.cancelledKeptDays) * 86_400)
        return try await database.read { db in
            let timetable = TimetableStore(db)
            let (groups, teachers, rooms) = try await Self.resolve(targets, in: timetable)
            return try await timetable.cancelledLessons(groups: groups, teachers: teachers, rooms: rooms, since: since)
        }
    }
}

extension TimetableService.Target {
    var changeTarget: ChangeTarget {
        switch self {
        case .group(let name): .group(name)
        case .teacher(let urlID): .teacher(urlID)
        case .room(let id): .room(id)
        }
    }
}
