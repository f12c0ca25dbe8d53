import Accounts
import CampusTestSupport
import Foundation
import Testing
import Timetable

@testable import Storage

/// The notification centre's rows and queue (issue 39), on both databases.
@Suite struct NotificationStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func user(_ email: String, group: String? = nil, subgroup: Int = 0, _ database: Database) async throws -> Account {
        try await database.write { [now] db in
            let store = AccountStore(db)
            let user = try await store.createUser(
                NewUser(email: email, passwordHash: "hash", firstName: "Ann", lastName: "Lee", role: .user), now: now)
            try await store.updateProfile(
                userID: user.id, firstName: "Ann", lastName: "Lee", group: group, subgroup: subgroup, now: now)
            return user
        }
    }

    func message(_ userID: Int64, cause: String, choice: NotificationChoice, expiresAt: Date? = nil) -> NewNotification
    {
        NewNotification(
            userID: userID, topic: .scheduleChanged, cause: cause, title: "Schedule of 100001 changed",
            body: "Another room: Мат", link: "/timetable/groups/100001", choice: choice, dueAt: now,
            expiresAt: expiresAt)
    }

    @Test(arguments: TestDatabases.kinds)
    func aCauseIsWrittenOncePerUserAndEachUserReadsOnlyTheirOwn(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let ann = try await user("ann@example.org", database)
            let bob = try await user("bob@example.org", database)
            let all = NotificationChoice(inbox: true, push: true, email: true)
            let (first, again, bobs) = try await database.write { [now] db in
                let store = NotificationStore(db)
                return (
                    try await store.write(message(ann.id, cause: "c1", choice: all), now: now),
                    try await store.write(message(ann.id, cause: "c1", choice: all), now: now),
                    try await store.write(message(bob.id, cause: "c1", choice: all), now: now)
                )
            }
            #expect(first != nil)
            #expect(again == nil, "the same cause twice is one message")
            #expect(bobs != nil)
            let (annInbox, annUnread, bobUnread) = try await database.read { db in
                let store = NotificationStore(db)
                return (
                    try await store.inbox(userID: ann.id, before: nil, limit: 10),
                    try await store.unread(userID: ann.id), try await store.unread(userID: bob.id)
                )
            }
            #expect(annInbox.map(\.id) == [try #require(first)])
            #expect(annUnread == 1 && bobUnread == 1)
            // Ann marks Bob's message read: nothing happens to it.
            try await database.write { [now] db in
                _ = try await NotificationStore(db).markRead(userID: ann.id, ids: [try #require(bobs)], now: now)
            }
            #expect(try await database.read { db in try await NotificationStore(db).unread(userID: bob.id) } == 1)
            try await database.write { [now] db in
                _ = try await NotificationStore(db).markRead(userID: ann.id, ids: nil, now: now)
            }
            #expect(try await database.read { db in try await NotificationStore(db).unread(userID: ann.id) } == 0)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func eachDueDeliveryIsClaimedByOneClaimerAndAnExpiredOneNever(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let ann = try await user("ann@example.org", database)
            let mail = NotificationChoice(inbox: true, push: false, email: true)
            try await database.write { [now] db in
                let store = NotificationStore(db)
                for index in 0..<40 {
                    try await store.write(message(ann.id, cause: "m\(index)", choice: mail), now: now)
                }
                try await store.write(
                    message(ann.id, cause: "expired", choice: mail, expiresAt: now.addingTimeInterval(-1)), now: now)
            }
            // Four claimers at once, as four instances would: every delivery goes to exactly one.
            let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for claimer in 0..<4 {
                    group.addTask { [now] in
                        var mine: [Int64] = []
                        while true {
                            let batch = try await database.write { db in
                                try await NotificationStore(db).claimDue(
                                    now: now, staleBefore: now.addingTimeInterval(-120), limit: 3,
                                    instance: "i\(claimer)")
                            }
                            if batch.isEmpty { return mine }
                            mine += batch.map(\.id)
                        }
                    }
                }
                var all: [Int64] = []
                for try await ids in group { all += ids }
                return all
            }
            #expect(claimed.count == 40)
            #expect(Set(claimed).count == 40, "no delivery claimed twice")
            // A claim that went stale (its instance died) is taken again; a sent one never.
            let later = now.addingTimeInterval(200)
            try await database.write { [now] db in
                try await NotificationStore(db).markSent(try #require(claimed.first), now: now)
            }
            let again = try await database.write { db in
                try await NotificationStore(db).claimDue(
                    now: later, staleBefore: later.addingTimeInterval(-120), limit: 100, instance: "i9")
            }
            #expect(again.count == 39)
            #expect(!again.map(\.id).contains(try #require(claimed.first)))
            #expect(again.allSatisfy { $0.notification.title == "Schedule of 100001 changed" && $0.channel == .email })
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func anImportListsItsChangesForTheFollowersOfTheirSchedules(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let own = try await user("own@example.org", group: "100001", subgroup: 1, database)
            let fan = try await user("fan@example.org", database)
            _ = try await user("other@example.org", group: "100002", database)
            try await database.write { [now] db in
                _ = try await PersonalStore(db).addFavorite(
                    Favorite(kind: .group, id: "100001"), userID: fan.id, now: now)
            }
            @Sendable func schedule(room: String) -> TimetableImport {
                var data = TimetableImport()
                data.teachers = [ImportedTeacher(urlID: "t-one", firstName: "Один", lastName: "Первый")]
                data.schedules = [
                    ImportedSchedule(
                        owner: .group("100001"),
                        lessons: [
                            ImportedLesson(
                                subject: "Мат", typeID: "ЛК", start: WallTime("09:00")!, end: WallTime("10:20")!,
                                weekday: .monday, subgroup: 0,
                                dateRange: LocalDate(iso: "2027-01-01")!...LocalDate(iso: "2027-06-30")!,
                                rooms: [RoomKey(name: room, building: 1)], teachers: ["t-one"], groups: ["100001"])
                        ])
                ]
                return data
            }
            let before = schedule(room: "200")
            let after = schedule(room: "201")
            try await database.write { [now] db in
                _ = try await TimetableStore(db).store(before, now: now, timeZone: .gmt)
            }
            #expect(try await database.read { db in try await NotificationStore(db).untoldChanges(limit: 10) }.isEmpty)
            try await database.write { [now] db in
                _ = try await TimetableStore(db).store(after, now: now.addingTimeInterval(60), timeZone: .gmt)
            }
            let (untold, followers) = try await database.read { db in
                let store = NotificationStore(db)
                let ids = try await store.untoldChanges(limit: 100)
                let changes = try await TimetableStore(db).changes(ids: ids)
                return (changes, try await store.followers(of: Set(changes.map(\.target))))
            }
            #expect(!untold.isEmpty)
            #expect(untold.filter { $0.target == .group("100001") }.allSatisfy { $0.change.kind == .room })
            #expect(Set(untold.map(\.target.kind)) == ["group", "teacher", "room"])
            let groupFollowers = Set(followers.filter { $0.target == .group("100001") }.map(\.userID))
            #expect(groupFollowers == [own.id, fan.id])
            #expect(followers.contains { $0.userID == own.id && $0.reason == .ownGroup(subgroup: 1) })
            #expect(followers.contains { $0.userID == fan.id && $0.reason == .favorite })
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func theStudentsOfAnElectivesGroupFollowIt(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let taker = try await user("taker@example.org", database)
            let other = try await user("other@example.org", database)
            try await database.write { [now] db in
                var data = TimetableImport()
                data.subjects = [
                    ImportedSubject(
                        id: 7, name: "Філософія", faculty: nil, speciality: "121", year: 2, trimester: 1,
                        kind: .freeChoice, numberOfGroups: 3)
                ]
                _ = try await TimetableStore(db).storeDirectory(data, now: now)
                let personal = PersonalStore(db)
                try await personal.setElective(
                    Electives.Choice(subjectID: 7, group: 2, isNormative: false), userID: taker.id)
                try await personal.setElective(
                    Electives.Choice(subjectID: 7, group: 3, isNormative: false), userID: other.id)
            }
            let name = Electives.groupName(subject: 7, group: 2)
            let followers = try await database.read { db in
                try await NotificationStore(db).followers(of: [.group(name), .group("not-an-elective")])
            }
            #expect(followers == [Follower(userID: taker.id, target: .group(name), reason: .elective)])
        }
    }
}
