import CampusHTTP
import Foundation
import InputRules
import Localization
import Storage
import Timetable

/// Prints schedules as readable tables for the command line.
public struct SchedulePrinter: Sendable {
    let service: TimetableService
    let t: Translator

    /// `t`: the language of the table's words (``CommandLineLanguage``); data stays as it is.
    public init(database: Database, timeZone: TimeZone, t: Translator = .source) {
        service = TimetableService(database: database, timeZone: timeZone, now: { Date() })
        self.t = t
    }

    public struct NotFound: Error, CustomStringConvertible {
        public var description: String
    }

    /// The schedule of one group, teacher or room (a room as "604-5" or its id) over `range`.
    public func table(group: String?, teacher: String?, room: String?, range: ClosedRange<LocalDate>, subgroup: Int?)
        async throws -> String
    {
        var target: TimetableService.Target
        var title: String
        if let group {
            target = .group(group)
            title = t("Group {name}", ["name": group])
        } else if let teacher {
            target = .teacher(teacher)
            let found = try await service.database.read { db in try await TimetableStore(db).teacher(urlID: teacher) }
            title = found?.fullName ?? teacher
        } else if let room {
            let rooms = try await service.database.read { db in try await TimetableStore(db).rooms() }
            guard let found = rooms.first(where: { $0.displayName == room || String($0.id) == room }) else {
                throw NotFound(
                    description: t("There is no room {room}. Rooms are written like 604-5.", ["room": room]))
            }
            target = .room(found.id)
            title = t("Room {name}", ["name": found.displayName])
        } else {
            throw NotFound(description: t("Give a group, a teacher or a room."))
        }
        if let subgroup, subgroup != 0 { title += ", " + t("subgroup {number}", ["number": String(subgroup)]) }
        let result: TimetableService.Result
        do {
            result = try await service.schedule(
                of: [target], in: range, filter: ScheduleFilter(subgroup: subgroup == 0 ? nil : subgroup))
        } catch let refusal as Refusal where refusal.reason == .notFound {
            throw NotFound(description: t.detail(refusal))
        }
        var text = ""
        let words = ScheduleText(t: t)
        for day in result.days {
            let week = day.week.map { " · " + words.week($0, in: result.calendar) } ?? ""
            text += "\(title) · \(words.weekday(day.date)) \(day.date.dotted)\(week)\n"
            if day.occurrences.isEmpty {
                text += "  " + t("no lessons") + "\n\n"
                continue
            }
            var rows: [[String]] = []
            var windows = day.windows
            for occurrence in day.occurrences {
                let lesson = occurrence.lesson
                while let window = windows.first, window.end <= lesson.start {
                    rows.append([
                        "", "", "", "— " + t("free {time}", ["time": words.duration(window.minutes)]) + " —", "", "",
                    ])
                    windows.removeFirst()
                }
                let type = lesson.typeID.map { result.types[$0]?.abbreviation ?? $0 } ?? ""
                var who = lesson.teachers.map(\.name).joined(separator: ", ")
                if case .group = target {
                } else {
                    who = lesson.groups.joined(separator: ", ") + (who.isEmpty ? "" : " · \(who)")
                }
                rows.append([
                    "\(lesson.start)–\(lesson.end)", type,
                    lesson.subgroup == 0 ? "" : t("sg {number}", ["number": String(lesson.subgroup)]),
                    lesson.subject + (lesson.note.map { " (\($0))" } ?? ""),
                    lesson.rooms.map(\.name).joined(separator: ", "), who,
                ])
            }
            let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                let cells = row.enumerated().map { index, cell in
                    cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                }
                text += "  " + cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
            }
            text += "\n"
        }
        return text
    }
}
