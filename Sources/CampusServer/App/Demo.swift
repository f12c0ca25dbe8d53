import Accounts
import Compete
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
    /// moved into the current academic year (and on by whole study cycles once its term is over), so
    /// that this week has lessons.
    public static func load(
        into database: Database, bcryptCost: UInt8, logger: Logger, now: Date = Date(), timeZone: TimeZone = .current
    ) async throws {
        try await loadTimetable(into: database, logger: logger, now: now, timeZone: timeZone)
        let hasher = PasswordHasher(cost: bcryptCost)
        try await database.write { db in
            let store = SettingsStore(db)
            if try await store.value(.institutionName) == nil {
                try await store.set(.institutionName, to: institutionName)
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
        try await loadCompetitions(into: database, hasher: hasher, logger: logger, now: now)
    }

    /// Runners who take part in the demo competitions; they cannot log in.
    static let runners: [(first: String, last: String)] = [
        ("Maria", "Ivanova"), ("Pavel", "Petrov"), ("Lena", "Sidorova"), ("Ivan", "Kozlov"),
    ]

    /// A few competitions of the demo organizer with participants and results: a time race
    /// run twice (a series; the second run with categories, teams and a result waiting for
    /// review), a distance challenge, a walking challenge of activities with a GPX track, and a points quiz; the demo
    /// student follows two of the runners and has a third's request to answer.
    static func loadCompetitions(into database: Database, hasher: PasswordHasher, logger: Logger, now: Date)
        async throws
    {
        let existing = try await database.read { db in
            try await CompeteStore(db).competitions(CompetitionFilter(), viewerID: 0, limit: 1, offset: 0).total
        }
        guard existing == 0,
            let organizer = try await database.read({ db in
                try await AccountStore(db).credentials(email: accounts[1].email)?.user
            }),
            let student = try await database.read({ db in
                try await AccountStore(db).credentials(email: accounts[2].email)?.user
            })
        else { return }
        let hash = try await hasher.hash(Token.make())
        let track = try GPX.read(
            try Data(
                contentsOf: Bundle.module.bundleURL.appendingPathComponent(
                    "Resources/demo/gpx/around-visnjan-with-car.gpx"))
        ).statistics
        try await database.write { db in
            let store = CompeteStore(db)
            let accountStore = AccountStore(db)
            var people: [Int64] = [student.id]
            for (index, runner) in runners.enumerated() {
                let user = try await accountStore.createUser(
                    NewUser(
                        email: "runner\(index + 1)@campus.test", passwordHash: hash, firstName: runner.first,
                        lastName: runner.last, role: .user), now: now)
                people.append(user.id)
            }
            func day(_ offset: Double) -> Date { now.addingTimeInterval(offset * 86400) }
            func run(_ competition: Competition, _ results: [Double?], at date: Date) async throws {
                for (person, result) in zip(people, results) {
                    try await store.join(competitionID: competition.id, userID: person, now: date)
                    if let result {
                        try await store.setResult(
                            competitionID: competition.id, userID: person, value: result, track: nil, now: date)
                    }
                }
            }
            let spring = try await store.createCompetition(
                CompetitionDraft(
                    name: "Campus 5K, spring",
                    description: "Two laps around the main building. Chip timing at the gate.",
                    metric: .time, unit: "s"), ownerID: organizer.id, template: nil, now: day(-60))
            try await run(spring, [1_512, 1_390, 1_645, 1_390, nil], at: day(-60))
            try await store.setActive(id: spring.id, false, now: day(-59))
            var autumnDraft = CompetitionDraft(reusing: spring)
            autumnDraft.name = "Campus 5K, autumn"
            // Its runners choose a category and name a faculty team; two results count per team.
            autumnDraft.categoryRule = .choice
            autumnDraft.categories = [Category(name: "Women"), Category(name: "Men")]
            autumnDraft.teams = .best(2)
            autumnDraft.sport = .run
            autumnDraft.courseKm = 5
            let autumn = try await store.createCompetition(
                autumnDraft, ownerID: organizer.id, template: spring, now: day(-2))
            try await run(autumn, [1_468, 1_402, nil, 1_377, nil], at: day(-1))
            let autumnEntries: [EntryDetails] = [
                EntryDetails(team: "FKSiS"), EntryDetails(category: "Women", team: "FKSiS"),
                EntryDetails(category: "Men", team: "FITU"), EntryDetails(category: "Women", team: "FITU"),
                EntryDetails(category: "Men"),
            ]
            for (person, details) in zip(people, autumnEntries) {
                try await store.setDetails(competitionID: autumn.id, userID: person, details)
            }
            // Ivan's own upload says 5 km in ten minutes: it waits in the organizer's review queue.
            try await store.setResult(
                competitionID: autumn.id, userID: people[4], value: 600, track: nil,
                review: Review(status: .pending, value: 600, flags: [.tooFast, .outlier], at: day(-1)), now: day(-1))
            let challenge = try await store.createCompetition(
                CompetitionDraft(
                    name: "November distance challenge",
                    description: "Walk, run or ride: upload your GPX track and your kilometres count.",
                    metric: .distance, unit: "km", participantUploads: true), ownerID: organizer.id, template: nil,
                now: day(-10))
            try await run(challenge, [nil, 12.4, 8.75, 21.1, nil], at: day(-5))
            // A month's walking challenge: everyone's walks add up.
            let walks = try await store.createCompetition(
                CompetitionDraft(
                    name: "Walk 100 km this month", description: "Log every walk: your kilometres add up.",
                    metric: .distance, unit: "km", startsAt: day(-20), endsAt: day(10), participantUploads: true,
                    sport: .walk, kind: .challenge), ownerID: organizer.id, template: nil, now: day(-20))
            for (index, person) in people.enumerated() {
                try await store.join(competitionID: walks.id, userID: person, now: day(-19))
                for walk in 0...index {
                    _ = try await store.addActivity(
                        competitionID: walks.id, userID: person, value: 3.5 + Double(walk) * 1.25,
                        at: day(-18 + Double(walk) * 3), note: walk == 0 ? "To the campus and back" : "",
                        source: .manual, now: day(-18 + Double(walk) * 3))
                }
                let total = try await store.activityTotal(competitionID: walks.id, userID: person).sum
                try await store.setResult(
                    competitionID: walks.id, userID: person, value: total, track: nil, now: day(-5))
            }
            try await store.setResult(
                competitionID: challenge.id, userID: student.id, value: track.distanceMetres / 1000, track: track,
                now: day(-3))
            let quiz = try await store.createCompetition(
                CompetitionDraft(
                    name: "Programming quiz", description: "Ten rounds, one point per right answer.", metric: .points,
                    unit: "points"), ownerID: organizer.id, template: nil, now: day(-20))
            try await run(quiz, [7, 9, 9, nil, 4], at: day(-20))
            // The student follows two runners, and a third asks to follow the student.
            let friends = FriendStore(db)
            for followed in people[1...2] {
                _ = try await friends.ask(follower: student.id, followed: followed, now: day(-30))
                _ = try await friends.accept(follower: student.id, followed: followed, now: day(-29))
            }
            _ = try await friends.ask(follower: people[3], followed: student.id, now: day(-1))
        }
        logger.info("demo competitions loaded")
    }

    /// The IIS responses the demo timetable comes from (a copy of shared/fixtures/iis).
    static var timetableFiles: [URL] {
        let folder = Bundle.module.bundleURL.appendingPathComponent("Resources/demo/iis")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func loadTimetable(into database: Database, logger: Logger, now: Date, timeZone: TimeZone) async throws {
        let today = LocalDate(now, in: timeZone)
        let lessons = try await database.read { db in try await TimetableStore(db).counts().lessons }
        guard lessons == 0 else { return }
        let currentYear = StudyCalendar.academicYear(of: today)
        var data = TimetableImport()
        for file in timetableFiles {
            var part = try IIS.read(try Data(contentsOf: file), file: file.lastPathComponent)
            // Each schedule moves from its own academic year into the current one.
            if let start = part.schedules.first?.term?.span?.lowerBound
                ?? part.schedules.first?.lessons.compactMap({ $0.date ?? $0.dateRange?.lowerBound }).min()
            {
                let sourceYear = StudyCalendar.academicYear(of: start)
                part = part.shifted(byWeeks: TimetableImport.weeksBetweenAcademicYears(sourceYear, currentYear))
            }
            data.merge(part)
        }
        // The demo's terms are autumn terms: after their last weeks they move on by whole study
        // cycles, so that the demo's week has lessons in any month.
        if let lessons = data.lessonDays {
            let weeks = TimetableImport.weeksBringingLessons(to: today, lessons: lessons)
            if weeks != 0 { data = data.shifted(byWeeks: weeks) }
        }
        let summary = try await TimetableImporter(database: database, logger: logger, timeZone: timeZone).store(data)
        logger.info("demo timetable loaded", metadata: ["lessons": "\(summary.lessons)"])
    }
}
