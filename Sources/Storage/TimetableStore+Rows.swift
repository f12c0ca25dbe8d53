import Foundation
import SQLKit
import SharedHelpers
import Timetable

/// Lessons and teachers as their rows hold them, for the queries that read them.
extension TimetableStore {
    /// A lesson as a row of `lessons` (or `cancelled_lessons`) holds it, without its rooms,
    /// teachers and groups.
    static func lesson(_ row: any SQLRow) throws -> Lesson {
        let weekBits = try row.decode(column: "weeks", as: Int.self)
        let startDay = try row.decode(column: "start_day", as: Int?.self)
        let endDay = try row.decode(column: "end_day", as: Int?.self)
        var dateRange: ClosedRange<LocalDate>?
        if let startDay, let endDay, startDay <= endDay {
            dateRange = LocalDate(dayNumber: startDay)...LocalDate(dayNumber: endDay)
        }
        return Lesson(
            id: try row.decode(column: "id", as: Int64.self),
            subject: try row.decode(column: "subject", as: String.self),
            subjectFullName: try row.decode(column: "subject_full", as: String?.self),
            typeID: try row.decode(column: "type_id", as: String?.self),
            start: try time(row, "start_minute"), end: try time(row, "end_minute"),
            weekday: try row.decode(column: "weekday", as: Int?.self).flatMap(Weekday.init(rawValue:)),
            weeks: Set((1...8).filter { weekBits & (1 << $0) != 0 }),
            subgroup: try row.decode(column: "subgroup", as: Int.self), dateRange: dateRange,
            date: try row.decode(column: "date_day", as: Int?.self).map(LocalDate.init(dayNumber:)),
            note: try row.decode(column: "note", as: String?.self),
            isAnnouncement: try row.decode(column: "announcement", as: Bool.self),
            isExam: try row.decode(column: "exam", as: Bool.self))
    }

    /// A teacher as lessons name them, from a row with `url_id` and the three names.
    static func teacherReference(_ row: any SQLRow) throws -> TeacherReference {
        let teacher = Teacher(
            id: 0, urlID: try row.decode(column: "url_id", as: String.self),
            firstName: try row.decode(column: "first_name", as: String.self),
            middleName: try row.decode(column: "middle_name", as: String?.self),
            lastName: try row.decode(column: "last_name", as: String.self))
        return TeacherReference(urlID: teacher.urlID, name: teacher.shortName)
    }
}
