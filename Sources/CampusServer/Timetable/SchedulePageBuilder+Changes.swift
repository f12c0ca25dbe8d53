import Foundation
import Storage
import Timetable

/// The changes a schedule page lists above the week (issue 39).
extension SchedulePageBuilder {
    /// The most rows of changes a page lists.
    static let changesShown = 8
    /// The most days one row names.
    static let daysShown = 4

    /// The changes of `targets`' days from today on, seen in the last two weeks, one row for
    /// each change that repeats week after week (the same lesson moved the same way); nil when
    /// there are none.
    func changes(
        of targets: [TimetableService.Target], filter: ScheduleFilter, today: LocalDate, request: PageRequest
    ) async throws -> SchedulePage.Changes? {
        let changes = try await timetable.changes(of: targets, filter: filter).filter {
            ($0.change.date ?? today) >= today
        }
        guard let earliest = changes.map(\.seenAt).min() else { return nil }
        let text = ScheduleText(t: request.t)
        let ordered = Self.repeating(changes.map(\.change))
        let shown = ordered.prefix(Self.changesShown)
        return SchedulePage.Changes(
            title: request.t(
                "Changes since {date}", ["date": text.shortDate(LocalDate(earliest, in: timetable.timeZone))]),
            items: shown.map { Self.change($0, text: text) },
            more: ordered.count > shown.count
                ? request.t.plural("and {count} more", "and {count} more", ordered.count - shown.count) : nil)
    }

    /// Changes as rows: those that repeat week after week together, each row's days in order,
    /// the rows by their first day and subject.
    static func repeating(_ changes: [ScheduleChange]) -> [[ScheduleChange]] {
        var rows: [Repeated: [ScheduleChange]] = [:]
        for change in changes { rows[Repeated(change), default: []].append(change) }
        let none = LocalDate(dayNumber: 0)
        return rows.values.map { $0.sorted { ($0.date ?? none) < ($1.date ?? none) } }
            .sorted { ($0[0].date ?? none, $0[0].subject) < ($1[0].date ?? none, $1[0].subject) }
    }

    /// What makes changes one row: all but their dates (and a move's days apart).
    struct Repeated: Hashable {
        var kind: ScheduleChange.Kind
        var subject: String
        var typeID: String?
        var subgroup: Int
        var before: [String]?
        var after: [String]?
        var daysMoved: Int?

        init(_ change: ScheduleChange) {
            func parts(_ slot: ScheduleChange.Slot?) -> [String]? {
                slot.map { [$0.start.description, $0.end.description] + $0.rooms + ["|"] + $0.teachers }
            }
            kind = change.kind
            subject = change.subject
            typeID = change.typeID
            subgroup = change.subgroup
            before = parts(change.before)
            after = parts(change.after)
            if let old = change.before?.date, let new = change.after?.date { daysMoved = old.days(until: new) }
        }
    }

    /// One row: the change as it was on its first day, and the days it is on.
    static func change(_ changes: [ScheduleChange], text: ScheduleText) -> SchedulePage.Change {
        let (change, t) = (changes[0], text.t)
        let label =
            switch change.kind {
            case .added: t("Added", context: "schedule change")
            case .cancelled: t("Cancelled", context: "schedule change")
            case .moved: t("Moved", context: "schedule change")
            case .room: t("Another room", context: "schedule change")
            case .teacher: t("Another teacher", context: "schedule change")
            }
        func day(_ date: LocalDate) -> String { text.weekday(date, short: true) + " " + text.shortDate(date) }
        // A move to another day names the old and new days; one within its day only the times.
        let otherDay = change.before != nil && change.after != nil && change.before?.date != change.after?.date
        func describe(_ slot: ScheduleChange.Slot?) -> String? {
            guard let slot else { return nil }
            var parts: [String] = []
            if otherDay && changes.count == 1 { parts.append(day(slot.date)) }
            if otherDay && changes.count > 1 { parts.append(text.weekday(slot.date)) }
            parts.append("\(slot.start)–\(slot.end)")
            if !slot.rooms.isEmpty { parts.append(slot.rooms.joined(separator: ", ")) }
            if !slot.teachers.isEmpty { parts.append(slot.teachers.joined(separator: ", ")) }
            return parts.joined(separator: " · ")
        }
        let dates = changes.compactMap(\.date)
        var when = dates.prefix(daysShown).map(day).joined(separator: ", ")
        if dates.count > daysShown { when += " …" }
        let first = dates.first ?? LocalDate(dayNumber: 0)
        return SchedulePage.Change(
            kind: change.kind.rawValue, label: label, when: when, iso: first.iso, subject: change.subject,
            subgroup: change.subgroup == 0 ? nil : t("Subgroup {number}", ["number": String(change.subgroup)]),
            old: describe(change.before), new: describe(change.after))
    }
}
