import CampusAPI
import Foundation
import Storage
import Timetable

/// The schedule changes imports kept (issue 39): a group's, a teacher's, a room's and mine.
extension APIHandler {
    func getGroupChanges(_ input: Operations.getGroupChanges.Input) async throws -> Operations.getGroupChanges.Output {
        .ok(.init(body: .json(try await changes([.group(input.path.name)], since: input.query.since))))
    }

    func getTeacherChanges(_ input: Operations.getTeacherChanges.Input) async throws
        -> Operations.getTeacherChanges.Output
    {
        .ok(.init(body: .json(try await changes([.teacher(input.path.urlId)], since: input.query.since))))
    }

    func getRoomChanges(_ input: Operations.getRoomChanges.Input) async throws -> Operations.getRoomChanges.Output {
        .ok(.init(body: .json(try await changes([.room(input.path.roomId)], since: input.query.since))))
    }

    func getMyChanges(_ input: Operations.getMyChanges.Input) async throws -> Operations.getMyChanges.Output {
        let user = try await requireUser().user
        let (targets, filter) = try await myTimetable.targets(of: user)
        return .ok(.init(body: .json(try await changes(targets, since: input.query.since, filter: filter))))
    }

    private func changes(_ targets: [TimetableService.Target], since: Date?, filter: ScheduleFilter = .init())
        async throws -> Components.Schemas.ScheduleChanges
    {
        let changes = try await timetable.changes(of: targets, since: since, filter: filter)
        return .init(items: changes.map(\.api))
    }
}

extension StoredScheduleChange {
    var api: Components.Schemas.ScheduleChange {
        func slot(_ slot: ScheduleChange.Slot?) -> Components.Schemas.ChangedOccurrence? {
            slot.map {
                .init(
                    date: $0.date.iso, start: $0.start.description, end: $0.end.description, rooms: $0.rooms,
                    teachers: $0.teachers)
            }
        }
        let (kind, key): (Components.Schemas.ChangeTarget.kindPayload, String) =
            switch target {
            case .group(let name): (.group, name)
            case .teacher(let urlID): (.teacher, urlID)
            case .room(let id): (.room, String(id))
            }
        return .init(
            id: id, kind: .init(rawValue: change.kind.rawValue) ?? .added, subject: change.subject,
            typeId: change.typeID, subgroup: change.subgroup, date: (change.date ?? LocalDate(seenAt, in: .gmt)).iso,
            before: slot(change.before), after: slot(change.after), seenAt: seenAt,
            target: .init(kind: kind, key: key))
    }
}
