import Foundation
import Storage
import Timetable

/// The institution's study calendar setting, as `campus calendar` shows and changes it.
public struct StudyCalendarSetting: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Sets the calendar when `kind` is given; returns a description of the setting.
    public func set(kind: String?, termStart: String?) async throws -> String {
        if let kind {
            var value = kind
            if kind == "odd-even" {
                guard let termStart, let start = LocalDate(iso: termStart) else {
                    throw NotValid(description: "odd-even needs --term-start YYYY-MM-DD.")
                }
                value = "odd-even \(start.iso)"
            }
            guard TimetableService.parseCalendar(value) != nil else {
                throw NotValid(description: "The calendar is bsuir, odd-even or dated.")
            }
            try await database.write { [value] db in
                try await SettingsStore(db).set(.studyCalendar, to: value)
                try await TimetableStore(db).touch()
            }
        }
        let value = try await database.read { db in try await SettingsStore(db).value(.studyCalendar) }
        let calendar = TimetableService.parseCalendar(value) ?? .bsuir
        switch calendar {
        case .datedOnly: return "dated: every lesson has its own date."
        case .cycle(let length, .firstOfSeptember): return "bsuir: a \(length)-week cycle from the week of 1 September."
        case .cycle(_, .date(let start)): return "odd-even: odd and even weeks from \(start.iso)."
        }
    }

    public struct NotValid: Error, CustomStringConvertible {
        public var description: String
    }
}
