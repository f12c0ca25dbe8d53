import CampusTestSupport
import Foundation
import Testing
import Timetable

@testable import Storage

/// Imports keep the changes they bring (issue 39), on both databases.
@Suite struct ScheduleChangeStoreTests {
    /// Friday 15 January 2027, 08:00 UTC: the eight weeks ahead hold eight of each weekday.
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func lesson(
        _ subject: String, _ weekday: Weekday, _ start: String, _ end: String, room: String, teacher: String,
        subgroup: Int = 0
    ) -> ImportedLesson {
        ImportedLesson(
            subject: subject, typeID: "ЛК", start: WallTime(start)!, end: WallTime(end)!, weekday: weekday,
            subgroup: subgroup, dateRange: LocalDate(iso: "2027-01-01")!...LocalDate(iso: "2027-06-30")!,
            rooms: [RoomKey(name: room, building: 1)], teachers: [teacher], groups: ["100001"])
    }

    func schedule(_ lessons: [ImportedLesson]) -> TimetableImport {
        var data = TimetableImport()
        data.teachers = [
            ImportedTeacher(urlID: "t-one", firstName: "Один", lastName: "Первый"),
            ImportedTeacher(urlID: "t-two", firstName: "Два", lastName: "Второй"),
        ]
        data.schedules = [ImportedSchedule(owner: .group("100001"), lessons: lessons)]
        return data
    }

    func store(_ data: TimetableImport, _ database: Database) async throws -> ImportSummary {
        try await database.write { [now] db in try await TimetableStore(db).store(data, now: now, timeZone: .gmt) }
    }

    func changes(_ target: ChangeTarget, _ database: Database) async throws -> [ScheduleChange] {
        try await database.read { [now] db in
            try await TimetableStore(db).changes(of: [target], since: now, limit: 500)
        }.map(\.change)
    }

    func room(_ name: String, _ database: Database) async throws -> ChangeTarget {
        let rooms = try await database.read { db in try await TimetableStore(db).rooms() }
        return .room(try #require(rooms.first { $0.displayName == name }?.id))
    }

    @Test(arguments: TestDatabases.kinds)
    func anImportKeepsEachChangeOnceForEveryGroupTeacherAndRoomItConcerns(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let maths = lesson("Мат", .monday, "09:00", "10:20", room: "200", teacher: "t-one")
            let physics = lesson("Физ", .tuesday, "10:35", "11:55", room: "300", teacher: "t-two")
            let chemistry = lesson("Хим", .wednesday, "12:25", "13:45", room: "400", teacher: "t-one", subgroup: 1)
            let first = try await store(schedule([maths, physics, chemistry]), database)
            #expect(first.changes == 0, "a first import is no change")
            #expect(try await store(schedule([maths, physics, chemistry]), database).changes == 0)

            var otherRoom = maths
            otherRoom.rooms = [RoomKey(name: "201", building: 1)]
            var moved = physics
            moved.start = WallTime("13:00")!
            moved.end = WallTime("14:20")!
            let history = lesson("Ист", .thursday, "09:00", "10:20", room: "300", teacher: "t-two")
            let second = try await store(schedule([otherRoom, moved, history]), database)

            let group = try await changes(.group("100001"), database)
            #expect(group.filter { $0.kind == .room }.count == 8)
            #expect(group.filter { $0.kind == .moved }.count == 8)
            #expect(group.filter { $0.kind == .cancelled }.count == 8)
            #expect(group.filter { $0.kind == .added }.count == 8)
            let firstRoomChange = try #require(group.first { $0.kind == .room })
            #expect(firstRoomChange.before?.rooms == ["200-1"] && firstRoomChange.after?.rooms == ["201-1"])
            #expect(firstRoomChange.date == LocalDate(iso: "2027-01-18"))
            let firstMove = try #require(group.filter { $0.kind == .moved }.min { $0.date! < $1.date! })
            #expect(firstMove.before?.start == WallTime("10:35") && firstMove.after?.start == WallTime("13:00"))
            #expect(firstMove.date == LocalDate(iso: "2027-01-19"))
            #expect(group.first { $0.kind == .cancelled }?.subject == "Хим")
            #expect(group.first { $0.kind == .cancelled }?.subgroup == 1)
            // Each day of the eight weeks from today, Friday 15 January, to Thursday 11 March.
            #expect(group.compactMap(\.date).max() == LocalDate(iso: "2027-03-11"))

            let one = try await changes(.teacher("t-one"), database)
            let oneKinds = one.map(\.kind.rawValue).sorted()
            #expect(oneKinds == Array(repeating: "cancelled", count: 8) + Array(repeating: "room", count: 8))
            let two = try await changes(.teacher("t-two"), database)
            #expect(two.filter { $0.kind == .moved }.count == 8 && two.filter { $0.kind == .added }.count == 8)
            let eightCancelled = Array(repeating: ScheduleChange.Kind.cancelled, count: 8)
            #expect(try await changes(room("200-1", database), database).map(\.kind) == eightCancelled)
            #expect(try await changes(room("400-1", database), database).map(\.kind) == eightCancelled)
            #expect(try await changes(room("300-1", database), database).count == 16)
            // A room in use for the first time has no earlier schedule to change.
            #expect(try await changes(room("201-1", database), database).isEmpty)
            #expect(second.changes == 32 + 16 + 16 + 8 + 8 + 16)

            // Another teacher for the same lesson: the lesson keeps its row, its teachers change.
            var newTeacher = otherRoom
            newTeacher.teachers = ["t-two"]
            let thirdImport = schedule([newTeacher, moved, history])
            let third = try await database.write { [now] db in
                try await TimetableStore(db).store(thirdImport, now: now.addingTimeInterval(60), timeZone: .gmt)
            }
            #expect(third.changes == 8 * 4)
            let recent = try await database.read { [now] db in
                try await TimetableStore(db).changes(
                    of: [.group("100001")], since: now.addingTimeInterval(60), limit: 500)
            }
            #expect(recent.count == 8 && recent.allSatisfy { $0.change.kind == .teacher })
            #expect(recent.first?.change.before?.teachers == ["Первый О."])
            #expect(recent.first?.change.after?.teachers == ["Второй Д."])
            #expect(recent.first?.seenAt == now.addingTimeInterval(60))
            let twoLater = try await database.read { [now] db in
                try await TimetableStore(db).changes(
                    of: [.teacher("t-two")], since: now.addingTimeInterval(60), limit: 500)
            }
            #expect(twoLater.map(\.change.kind) == Array(repeating: ScheduleChange.Kind.added, count: 8))
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func theRealFixturesImportedAgainChangeNothingAndADroppedLessonIsCancelled(_ kind: Database.Kind) async throws {
        // Monday 2 October 2023, in the fixtures' autumn term.
        let during = Date(timeIntervalSince1970: 1_696_226_400)
        try await TestDatabases.withDatabase(kind) { database in
            let data = try fixtureImport()
            for _ in 0..<2 {
                let summary = try await database.write { db in
                    try await TimetableStore(db).store(data, now: during, timeZone: .gmt)
                }
                #expect(summary.changes == 0)
            }
            var changed = try fixtureImport(["151004.json"])
            let weekly = try #require(
                changed.schedules[0].lessons.firstIndex { $0.weekday != nil && $0.date == nil && !$0.isAnnouncement })
            let dropped = changed.schedules[0].lessons.remove(at: weekly)
            let summary = try await database.write { [changed] db in
                try await TimetableStore(db).store(changed, now: during, timeZone: .gmt)
            }
            let group = try await database.read { db in
                try await TimetableStore(db).changes(of: [.group("151004")], since: during, limit: 500)
            }
            #expect(!group.isEmpty && summary.changes >= group.count)
            #expect(group.allSatisfy { $0.change.kind == .cancelled && $0.change.subject == dropped.subject })
        }
    }
}
