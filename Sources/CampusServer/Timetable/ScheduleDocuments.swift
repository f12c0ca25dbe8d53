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
        try await document(
            targets, from: from, to: to,
            filter: ScheduleFilter(
                subgroup: subgroup == 0 ? nil : subgroup, subjects: subjects.flatMap { $0.isEmpty ? nil : Set($0) }))
    }

    func document(_ targets: [TimetableService.Target], from: String?, to: String?, filter: ScheduleFilter)
        async throws -> Components.Schemas.Schedule
    {
        let range = try timetable.range(from: from, to: to)
        let result = try await timetable.schedule(of: targets, in: range, filter: filter)
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
