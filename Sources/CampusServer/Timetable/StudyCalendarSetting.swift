import Accounts
import Foundation
import SQLKit
import Storage
import Timetable

/// The institution's study calendar setting, as `campus calendar` shows and changes it.
public struct StudyCalendarSetting: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// A setting changed by the command line, in the audit log.
    private static func audit(_ key: SettingKey, before: String?, after: String, in db: any SQLDatabase) async throws {
        try await AuditStore(db).record(
            AuditEntry(
                at: Date(), action: .timetableSettings, actor: .commandLine,
                target: AuditTarget(kind: "setting", id: key.rawValue, label: nil), before: before, after: after))
    }

    /// Sets the calendar when `kind` is given, and the pairs when `pairs` is; returns a
    /// description of the settings.
    public func set(kind: String?, termStart: String?, pairs: String? = nil) async throws -> String {
        if let pairs {
            guard let times = PairTimes(text: pairs) else {
                throw NotValid(
                    description:
                        "The pairs are up to 16 times like 09:00-10:20, separated by spaces, each after the one before."
                )
            }
            try await database.write { db in
                let before = try await SettingsStore(db).value(.pairTimes)
                try await SettingsStore(db).set(.pairTimes, to: times.text)
                try await TimetableStore(db).touch()
                try await Self.audit(SettingKey.pairTimes, before: before, after: times.text, in: db)
            }
        }
        if let kind {
            var value = kind
            if kind == "odd-even" {
                guard let termStart, let start = LocalDate(iso: termStart) else {
                    throw NotValid(description: "odd-even needs --term-start YYYY-MM-DD.")
                }
                value = "odd-even \(start.iso)"
            }
            guard StudyCalendar(setting: value) != nil else {
                throw NotValid(description: "The calendar is bsuir, odd-even or dated.")
            }
            try await database.write { [value] db in
                let before = try await SettingsStore(db).value(.studyCalendar)
                try await SettingsStore(db).set(.studyCalendar, to: value)
                try await TimetableStore(db).touch()
                try await Self.audit(SettingKey.studyCalendar, before: before, after: value, in: db)
            }
        }
        let (value, pairValue) = try await database.read { db in
            (try await SettingsStore(db).value(.studyCalendar), try await SettingsStore(db).value(.pairTimes))
        }
        let calendar = value.flatMap(StudyCalendar.init(setting:)) ?? .bsuir
        let pairs = "pairs: " + (pairValue.flatMap(PairTimes.init(text:)) ?? .bsuir).text
        switch calendar {
        case .datedOnly: return "dated: every lesson has its own date.\n" + pairs
        case .cycle(let length, .firstOfSeptember):
            return "bsuir: a \(length)-week cycle from the week of 1 September.\n" + pairs
        case .cycle(_, .date(let start)): return "odd-even: odd and even weeks from \(start.iso).\n" + pairs
        }
    }

    public struct NotValid: Error, CustomStringConvertible {
        public var description: String
    }
}
