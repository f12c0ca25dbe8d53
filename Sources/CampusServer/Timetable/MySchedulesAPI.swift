import CampusAPI
import CampusHTTP
import Foundation
import OpenAPIRuntime
import Timetable

/// The API of saved compound schedules (`/api/v1/me/schedules`): each student's own.
extension APIHandler {
    func listSavedSchedules(_ input: Operations.listSavedSchedules.Input) async throws
        -> Operations.listSavedSchedules.Output
    {
        let user = try await requireUser().user
        return .ok(.init(body: .json(.init(items: try await myTimetable.savedSchedules(of: user).map(api)))))
    }

    func createSavedSchedule(_ input: Operations.createSavedSchedule.Input) async throws
        -> Operations.createSavedSchedule.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the schedule as JSON.") }
        let schedule = try await myTimetable.addSavedSchedule(
            name: body.name, members: members(body), inMySchedule: body.inMySchedule ?? false, for: user)
        return .created(.init(body: .json(api(schedule))))
    }

    func getSavedSchedule(_ input: Operations.getSavedSchedule.Input) async throws
        -> Operations.getSavedSchedule.Output
    {
        let user = try await requireUser().user
        return .ok(.init(body: .json(api(try await myTimetable.savedSchedule(input.path.scheduleId, of: user)))))
    }

    func replaceSavedSchedule(_ input: Operations.replaceSavedSchedule.Input) async throws
        -> Operations.replaceSavedSchedule.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the schedule as JSON.") }
        let schedule = try await myTimetable.replaceSavedSchedule(
            input.path.scheduleId, name: body.name, members: members(body), inMySchedule: body.inMySchedule, for: user)
        return .ok(.init(body: .json(api(schedule))))
    }

    func deleteSavedSchedule(_ input: Operations.deleteSavedSchedule.Input) async throws
        -> Operations.deleteSavedSchedule.Output
    {
        let user = try await requireUser().user
        try await myTimetable.deleteSavedSchedule(input.path.scheduleId, for: user)
        return .noContent(.init())
    }

    func getSavedScheduleLessons(_ input: Operations.getSavedScheduleLessons.Input) async throws
        -> Operations.getSavedScheduleLessons.Output
    {
        let user = try await requireUser().user
        let saved = try await myTimetable.savedSchedule(input.path.scheduleId, of: user)
        return .ok(
            .init(
                body: .json(
                    try await schedule(
                        MyTimetableService.targets(of: saved), from: input.query.from, to: input.query.to,
                        subgroup: nil, subjects: nil))))
    }

    private func members(_ draft: Components.Schemas.SavedScheduleDraft) -> [Favorite] {
        (draft.groups ?? []).map { Favorite(kind: .group, id: $0) }
            + (draft.teachers ?? []).map { Favorite(kind: .teacher, id: $0) }
            + (draft.rooms ?? []).map { Favorite(kind: .room, id: String($0)) }
    }

    private func api(_ schedule: SavedSchedule) -> Components.Schemas.SavedSchedule {
        .init(
            id: schedule.id, name: schedule.name,
            groups: schedule.members.filter { $0.kind == .group }.map(\.id),
            teachers: schedule.members.filter { $0.kind == .teacher }.map(\.id),
            rooms: schedule.members.filter { $0.kind == .room }.compactMap { Int64($0.id) },
            calendarUrl: services.configuration.resolvedBaseURL + APIRoutes.personalCalendar.path(schedule.token),
            inMySchedule: schedule.inMySchedule)
    }
}
