import CampusAPI
import CampusHTTP
import Foundation
import Timetable

/// Free rooms and the conflicts report: how the timetable's rooms, teachers and groups are used.
extension APIHandler {
    func listFreeRooms(_ input: Operations.listFreeRooms.Input) async throws -> Operations.listFreeRooms.Output {
        let query = input.query
        let answer = try await timetable.freeRooms(
            date: query.date, time: query.time, pair: query.pair, building: query.building, type: query._type,
            capacity: query.capacity)
        return .ok(
            .init(
                body: .json(
                    .init(
                        date: answer.date.iso, start: answer.start.description,
                        end: answer.end.description, pair: answer.pair,
                        pairs: answer.pairs.slots.enumerated().map { index, slot in
                            .init(number: index + 1, start: slot.start.description, end: slot.end.description)
                        },
                        total: answer.total,
                        sections: answer.sections.map { section in
                            .init(
                                title: section.title,
                                items: section.items.map {
                                    .init(
                                        room: $0.room.api, freeSince: $0.freeSince?.description,
                                        freeUntil: $0.freeUntil?.description)
                                })
                        }))))
    }

    func listConflicts(_ input: Operations.listConflicts.Input) async throws -> Operations.listConflicts.Output {
        let account = try await requireUser()
        let query = input.query
        let report = try await timetable.conflicts(
            from: query.from, to: query.to,
            kinds: Set((query.kind ?? []).compactMap { Conflict.Kind(rawValue: $0.rawValue) }), limit: query.limit,
            by: account.user)
        let types = try await timetable.lessonTypes()
        return .ok(
            .init(
                body: .json(
                    .init(
                        from: report.range.lowerBound.iso, to: report.range.upperBound.iso, total: report.total,
                        conflicts: report.conflicts.map {
                            .init(
                                kind: .init(rawValue: $0.kind.rawValue) ?? .group, key: $0.key, name: $0.name,
                                date: $0.first.date.iso, first: $0.first.api(types: types),
                                second: $0.second.api(types: types))
                        }))))
    }
}
