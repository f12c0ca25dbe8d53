import Accounts
import Formats
import Foundation
import Logging
import Storage
import Timetable

/// Demo data, so that a newcomer sees something at once: a demo institution and one account of
/// each role. Loading is idempotent: what exists already is left as it is. Later parts of Campus
/// add their demo data here.
public enum Demo {
    public struct Account: Sendable {
        public var email: String
        public var password: String
        public var firstName: String
        public var lastName: String
        public var role: Role
    }

    public static let institutionName = "Campus Demo University"

    /// The demo accounts (also listed in the README and on the login page of a demo server).
    public static let accounts: [Account] = [
        Account(
            email: "admin@campus.test", password: "campus-admin", firstName: "Alla", lastName: "Adminova", role: .admin),
        Account(
            email: "organizer@campus.test", password: "campus-organizer", firstName: "Oleg", lastName: "Orlov",
            role: .organizer),
        Account(
            email: "student@campus.test", password: "campus-student", firstName: "Sasha", lastName: "Studentova",
            role: .user),
    ]

    /// Loads the demo into `database`: the accounts, and the real IIS timetable of a few groups
    /// moved into the current academic year, so that this week has lessons.
    public static func load(
        into database: Database, bcryptCost: UInt8, logger: Logger, today: LocalDate = LocalDate(Date(), in: .current)
    ) async throws {
        try await loadTimetable(into: database, logger: logger, today: today)
        let hasher = PasswordHasher(cost: bcryptCost)
        let now = Date()
        try await database.write { db in
            let store = AccountStore(db)
            if try await store.setting(Services.institutionNameKey) == nil {
                try await store.setSetting(Services.institutionNameKey, to: institutionName)
            }
        }
        for account in accounts {
            let exists = try await database.read { db in
                try await AccountStore(db).credentials(email: account.email) != nil
            }
            if exists { continue }
            let hash = try await hasher.hash(account.password)
            let user = try await database.write { db in
                let store = AccountStore(db)
                var user = try await store.createUser(
                    NewUser(
                        email: account.email, passwordHash: hash, firstName: account.firstName,
                        lastName: account.lastName, role: account.role), now: now)
                if account.role == .user {
                    try await store.updateProfile(
                        userID: user.id, firstName: user.firstName, lastName: user.lastName, group: "151004",
                        subgroup: 1, now: now)
                    user.group = "151004"
                }
                return user
            }
            logger.info("demo account created", metadata: ["email": "\(user.email)", "role": "\(user.role.rawValue)"])
        }
    }

    /// The IIS responses the demo timetable comes from (a copy of shared/fixtures/iis).
    static var timetableFiles: [URL] {
        let folder = Bundle.module.bundleURL.appendingPathComponent("Resources/demo/iis")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func loadTimetable(into database: Database, logger: Logger, today: LocalDate) async throws {
        let lessons = try await database.read { db in try await TimetableStore(db).counts().lessons }
        guard lessons == 0 else { return }
        let currentYear = today >= LocalDate(year: today.year, month: 9, day: 1)!.monday ? today.year : today.year - 1
        var data = TimetableImport()
        for file in timetableFiles {
            var part = try IIS.read(try Data(contentsOf: file), file: file.lastPathComponent)
            // Each schedule moves from its own academic year into the current one.
            if let start = part.schedules.first?.term?.span?.lowerBound
                ?? part.schedules.first?.lessons.compactMap({ $0.date ?? $0.dateRange?.lowerBound }).min()
            {
                let sourceYear =
                    start >= LocalDate(year: start.year, month: 9, day: 1)!.monday ? start.year : start.year - 1
                part = part.shifted(byWeeks: TimetableImport.weeksBetweenAcademicYears(sourceYear, currentYear))
            }
            data.merge(part)
        }
        let summary = try await TimetableImporter(database: database, logger: logger).store(data)
        logger.info("demo timetable loaded", metadata: ["lessons": "\(summary.lessons)"])
    }
}
