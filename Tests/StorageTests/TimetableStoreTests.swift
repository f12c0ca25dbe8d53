import CampusTestSupport
import Foundation
import SQLKit
import Testing
import Timetable

@testable import Formats
@testable import Storage

func fixtureImport(_ files: [String] = Fixtures.iisFiles) throws -> TimetableImport {
    var result = TimetableImport()
    for file in files { result.merge(try IIS.read(try Fixtures.data("iis/\(file)"), file: file)) }
    return result
}

func day(_ text: String) -> LocalDate { LocalDate(dotted: text)! }

@Suite struct TimetableStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: TestDatabases.kinds)
    func everyFixtureImportsAndImportingAgainChangesNothing(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let data = try fixtureImport()
            let first = try await database.write { db in
                try await TimetableStore(db).store(data, now: now, timeZone: .gmt)
            }
            #expect(first.schedules == 5)
            #expect(first.lessons == 39 + 42 + 44 + 24 + 1)
            #expect(first.lessonsAdded == first.lessons)
            let counts = try await database.read { db in try await TimetableStore(db).counts() }
            // 327 listed groups, plus 913801 and 213871, which only have schedules.
            #expect(counts.groups == 329)
            // 568 listed teachers, plus 5 who appear only in 2022 schedules.
            #expect(counts.teachers == 573)
            #expect(counts.lessons == first.lessons)
            let before = try await snapshot(database)
            let second = try await database.write { db in
                try await TimetableStore(db).store(data, now: now, timeZone: .gmt)
            }
            #expect(second.lessonsAdded == 0)
            #expect(second.lessonsRemoved == 0)
            #expect(try await snapshot(database) == before)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aChangedScheduleReplacesThatGroupsLessonsOnly(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let data = try fixtureImport(["151004.json", "010101.json"])
            _ = try await database.write { db in try await TimetableStore(db).store(data, now: now, timeZone: .gmt) }
            let before = try await database.read { db in try await TimetableStore(db).lessons(groups: ["151004"]) }
            let other = try await database.read { db in try await TimetableStore(db).lessons(groups: ["010101"]) }
            #expect(before.count == 42)

            var changed = try fixtureImport(["151004.json"])
            var lessons = changed.schedules[0].lessons
            lessons.removeFirst()
            lessons[0].start = WallTime("08:00")!
            lessons[1].note = "moved to 604-2"
            changed.schedules[0].lessons = lessons
            let summary = try await database.write { [changed] db in
                try await TimetableStore(db).store(changed, now: now, timeZone: .gmt)
            }
            #expect(summary.lessonsAdded == 1)
            #expect(summary.lessonsRemoved == 2)
            let after = try await database.read { db in try await TimetableStore(db).lessons(groups: ["151004"]) }
            #expect(after.count == 41)
            #expect(after.contains { $0.note == "moved to 604-2" })
            // Unchanged lessons keep their ids; the other group is untouched.
            #expect(Set(after.map(\.id)).intersection(before.map(\.id)).count == 40)
            let otherAfter = try await database.read { db in try await TimetableStore(db).lessons(groups: ["010101"]) }
            #expect(otherAfter == other)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aLessonSharedByGroupsIsOneLesson(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let lecture = ImportedLesson(
                subject: "Физ", typeID: "ЛК", start: WallTime("09:00")!, end: WallTime("10:20")!, weekday: .monday,
                dateRange: day("01.09.2023")...day("21.12.2023"), rooms: [RoomKey(name: "200", building: 1)],
                teachers: ["t-one"], groups: ["100001", "100002"])
            var first = TimetableImport()
            first.teachers = [ImportedTeacher(urlID: "t-one", firstName: "Один", lastName: "Первый")]
            first.schedules = [ImportedSchedule(owner: .group("100001"), lessons: [lecture])]
            var second = first
            second.schedules = [ImportedSchedule(owner: .group("100002"), lessons: [lecture])]
            _ = try await database.write { [first] db in
                try await TimetableStore(db).store(first, now: now, timeZone: .gmt)
            }
            _ = try await database.write { [second] db in
                try await TimetableStore(db).store(second, now: now, timeZone: .gmt)
            }
            let a = try await database.read { db in try await TimetableStore(db).lessons(groups: ["100001"]) }
            let b = try await database.read { db in try await TimetableStore(db).lessons(groups: ["100002"]) }
            #expect(a.count == 1)
            #expect(a == b)
            #expect(a.first?.groups == ["100001", "100002"])
            #expect(a.first?.teachers.map(\.name) == ["Первый О."])
            #expect(a.first?.rooms.map(\.name) == ["200-1"])
            // The teacher's own schedule names the same lesson: still one lesson.
            var teacherSchedule = first
            teacherSchedule.schedules = [ImportedSchedule(owner: .teacher("t-one"), lessons: [lecture])]
            _ = try await database.write { [teacherSchedule] db in
                try await TimetableStore(db).store(teacherSchedule, now: now, timeZone: .gmt)
            }
            #expect(try await database.read { db in try await TimetableStore(db).counts() }.lessons == 1)
            // One group's new schedule without it keeps it for the other.
            var dropped = first
            dropped.schedules = [ImportedSchedule(owner: .group("100001"), lessons: [])]
            _ = try await database.write { [dropped] db in
                try await TimetableStore(db).store(dropped, now: now, timeZone: .gmt)
            }
            #expect(try await database.read { db in try await TimetableStore(db).lessons(groups: ["100001"]) }.isEmpty)
            #expect(
                try await database.read { db in try await TimetableStore(db).lessons(groups: ["100002"]) }.count == 1)
        }
    }

    /// PostgreSQL writes the links of lessons an import adds without conflict handling, and the
    /// others with it: one import holding both kinds, with a link that is already stored.
    @Test(arguments: TestDatabases.kinds)
    func anImportOfKnownAndNewLessonsLinksEveryOne(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let lecture = ImportedLesson(
                subject: "Физ", typeID: "ЛК", start: WallTime("09:00")!, end: WallTime("10:20")!, weekday: .monday,
                rooms: [RoomKey(name: "200", building: 1)], teachers: ["t-one"], groups: ["100001", "100002"])
            var practice = lecture
            practice.subject = "Мат"
            practice.typeID = "ПЗ"
            practice.groups = ["100002"]
            practice.rooms = [RoomKey(name: "200", building: 1), RoomKey(name: "301", building: 1)]
            var first = TimetableImport()
            first.teachers = [ImportedTeacher(urlID: "t-one", firstName: "Один", lastName: "Первый")]
            first.schedules = [ImportedSchedule(owner: .group("100001"), lessons: [lecture])]
            var second = first
            second.schedules = [
                ImportedSchedule(owner: .group("100002"), lessons: [lecture, practice]),
                ImportedSchedule(owner: .teacher("t-one"), lessons: [practice]),
            ]
            _ = try await database.write { [first] db in
                try await TimetableStore(db).store(first, now: now, timeZone: .gmt)
            }
            let summary = try await database.write { [second] db in
                try await TimetableStore(db).store(second, now: now, timeZone: .gmt)
            }
            #expect(summary.lessonsAdded == 1)
            let lessons = try await database.read { db in try await TimetableStore(db).lessons(groups: ["100002"]) }
            #expect(lessons.map(\.subject).sorted() == ["Мат", "Физ"])
            #expect(lessons.allSatisfy { $0.teachers.map(\.name) == ["Первый О."] })
            #expect(lessons.first { $0.subject == "Мат" }?.rooms.map(\.name) == ["200-1", "301-1"])
            #expect(lessons.first { $0.subject == "Физ" }?.groups == ["100001", "100002"])
            #expect(try await database.read { db in try await TimetableStore(db).count("lesson_groups") } == 3)
            #expect(try await database.read { db in try await TimetableStore(db).count("lesson_teachers") } == 2)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func aFailedImportLeavesTheEarlierDataAsItWas(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            _ = try await database.write { db in
                try await TimetableStore(db).store(try fixtureImport(["151004.json"]), now: now, timeZone: .gmt)
            }
            let before = try await snapshot(database)
            var broken = try fixtureImport(["010101.json"])
            broken.schedules[0].lessons[5].teachers.append("nobody-knows")
            let brokenImport = broken
            await #expect(throws: TimetableStore.ImportError.self) {
                try await database.write { db in
                    try await TimetableStore(db).store(brokenImport, now: now, timeZone: .gmt)
                }
            }
            #expect(try await snapshot(database) == before)
            // Staged and stored in batches before its directory, as `campus import iis` stores it:
            // on PostgreSQL the lesson's unknown teacher was added then, to link it; the import
            // fails all the same, saying whom it does not hold.
            do {
                _ = try await database.write { db in
                    let store = TimetableStore(db)
                    var staged = try await store.stageLessons()
                    staged.stage(
                        brokenImport.schedules, hashes: TimetableStore.identityHashes(of: brokenImport.schedules))
                    while let batch = staged.takePending(10) { staged.record(try await store.store(batch, now: now)) }
                    let directory = try await store.storeDirectory(brokenImport, now: now)
                    return try await store.storeSchedules(
                        brokenImport, directory: directory, staged: staged, now: now, timeZone: .gmt)
                }
                Issue.record("the import did not fail")
            } catch let error as TimetableStore.ImportError {
                #expect(error.description.contains("nobody-knows"), "\(error)")
            }
            #expect(try await snapshot(database) == before)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func theDirectoryReadsBack(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            _ = try await database.write { db in
                try await TimetableStore(db).store(try fixtureImport(), now: now, timeZone: .gmt)
            }
            let store = { (body: @escaping @Sendable (TimetableStore) async throws -> Void) in
                try await database.read { db in try await body(TimetableStore(db)) }
            }
            try await store { timetable in
                let group = try #require(try await timetable.group(named: "151004"))
                #expect(group.course == 3)
                #expect(group.specialityID == 20022)
                #expect(group.studentCount == 28)
                #expect(group.term.lessonsStart == day("01.09.2023"))
                #expect(group.term.examsStart == nil)
                let teacher = try #require(try await timetable.teacher(urlID: "i-abramov"))
                #expect(teacher.degreeAbbreviation == "д.ф.-м.н.")
                #expect(!teacher.departments.isEmpty)
                #expect(try await timetable.teachers().count == 573)
                let rooms = try await timetable.rooms()
                #expect(rooms.contains { $0.displayName == "213а-4" && $0.floor == 2 })
                #expect(!rooms.contains { $0.displayName == "213a-4" })
                #expect(try await timetable.faculties().count == 8)
                #expect(try await timetable.lessonTypes().contains { $0.id == "ЛК" && $0.colour == "#3b7ddd" })
                #expect(try await timetable.lessonTypes().contains { $0.id == "Консультация" })
            }
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func lessonsAreFoundByGroupTeacherRoomAndDate(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            _ = try await database.write { db in
                try await TimetableStore(db).store(try fixtureImport(), now: now, timeZone: .gmt)
            }
            try await database.read { db in
                let timetable = TimetableStore(db)
                let teacher = try #require(try await timetable.teacher(urlID: "n-novitskaia"))
                let byTeacher = try await timetable.lessons(teachers: [teacher.id])
                #expect(!byTeacher.isEmpty)
                #expect(byTeacher.allSatisfy { $0.teachers.contains { $0.urlID == "n-novitskaia" } })
                let room = try #require(try await timetable.rooms().first { $0.displayName == "604-2" })
                let byRoom = try await timetable.lessons(rooms: [room.id])
                #expect(byRoom.allSatisfy { $0.rooms.contains { $0.id == room.id } })
                let compound = try await timetable.lessons(groups: ["151004", "010101"])
                #expect(compound.count == 81)
                // Exams of 913801 in January only.
                let january = try await timetable.lessons(groups: ["913801"], in: day("01.01.2023")...day("31.01.2023"))
                #expect(january.count == 4)
                #expect(january.allSatisfy { $0.date != nil })
            }
        }
    }
}
