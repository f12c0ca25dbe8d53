import CampusAPI
import Timetable

/// The schedule document of groups, teachers or rooms for a span of dates (openapi.yaml's
/// `Schedule`): what the schedule operations' generated handlers answer and what
/// ``ScheduleFastPath`` writes with ``ScheduleJSON``, made in this one place.
struct ScheduleDocuments: Sendable {
    let timetable: TimetableService

    /// The document for the request's `from`, `to`, `subgroup` (0 for the whole group) and `subject`s.
    func document(
        _ targets: [TimetableService.Target], from: String?, to: String?, subgroup: Int?, subjects: [String]?
    ) async throws -> Components.Schemas.Schedule {
        try await document(targets, from: from, to: to, filter: Self.filter(subgroup: subgroup, subjects: subjects))
    }

    /// The filter of a request's `subgroup` (0 for the whole group) and `subject`s.
    static func filter(subgroup: Int?, subjects: [String]?) -> ScheduleFilter {
        ScheduleFilter(
            subgroup: subgroup == 0 ? nil : subgroup, subjects: subjects.flatMap { $0.isEmpty ? nil : Set($0) })
    }

    func document(_ targets: [TimetableService.Target], from: String?, to: String?, filter: ScheduleFilter)
        async throws -> Components.Schemas.Schedule
    {
        let range = try timetable.range(from: from, to: to)
        return document(try await timetable.schedule(of: targets, in: range, filter: filter), filter: filter)
    }

    /// The document from what the timetable keeps in memory for `version` alone, or nil when
    /// any of it is not kept (``TimetableService/keptSchedule(of:in:filter:version:)``).
    func keptDocument(
        _ targets: [TimetableService.Target], from: String?, to: String?, filter: ScheduleFilter, version: String
    ) throws -> Components.Schemas.Schedule? {
        let range = try timetable.range(from: from, to: to)
        return timetable.keptSchedule(of: targets, in: range, filter: filter, version: version).map {
            document($0, filter: filter)
        }
    }

    private func document(_ result: TimetableService.Result, filter: ScheduleFilter)
        -> Components.Schemas.Schedule
    {
        let range = result.range
        return .init(
            from: range.lowerBound.iso, to: range.upperBound.iso, timeZone: timetable.timeZone.identifier,
            subgroup: filter.subgroup,
            days: result.days.map { day in
                .init(
                    date: day.date.iso, weekday: day.date.weekday.rawValue, week: day.week,
                    lessons: day.occurrences.map { $0.api(types: result.types) },
                    windows: day.windows.map {
                        .init(
                            start: $0.start.description, end: $0.end.description, minutes: $0.minutes,
                            message: $0.message)
                    })
            })
    }
}
