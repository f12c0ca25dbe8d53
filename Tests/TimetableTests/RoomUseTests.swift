import Testing

@testable import Timetable

/// Free rooms and conflicts (issue 16, items 2 and 3) on lessons made by hand: each rule's edge.
@Suite struct RoomUseTests {
    static let monday = LocalDate(year: 2023, month: 9, day: 25)!  // study week 1 at BSUIR
    static let term = LocalDate(year: 2023, month: 9, day: 1)!...LocalDate(year: 2023, month: 12, day: 31)!

    static func time(_ text: String) -> WallTime { WallTime(text)! }

    static func room(_ id: Int64, _ name: String, capacity: Int? = nil) -> Room {
        Room(id: id, name: name, building: 1, capacity: capacity)
    }

    static func lesson(
        _ id: Int64, _ subject: String, _ start: String, _ end: String, rooms: [Room] = [], teachers: [String] = [],
        groups: [String] = [], subgroup: Int = 0, weeks: Set<Int> = [], type: String? = "ЛК",
        announcement: Bool = false, date: LocalDate? = nil
    ) -> Lesson {
        Lesson(
            id: id, subject: subject, typeID: type, start: time(start), end: time(end),
            weekday: date == nil ? .monday : nil, weeks: weeks, subgroup: subgroup,
            dateRange: date == nil ? term : nil, date: date,
            rooms: rooms.map { RoomReference(id: $0.id, name: $0.displayName) },
            teachers: teachers.map { TeacherReference(urlID: $0, name: $0) }, groups: groups,
            isAnnouncement: announcement)
    }

    @Test func aRoomIsFreeBetweenItsLessons() throws {
        let a = Self.room(1, "101", capacity: 30)
        let b = Self.room(2, "102", capacity: 100)
        let c = Self.room(3, "103")
        let lessons = [
            Self.lesson(1, "A", "09:00", "10:20", rooms: [a]),
            Self.lesson(2, "B", "12:25", "13:45", rooms: [a], subgroup: 2),  // a subgroup holds the room too
            Self.lesson(3, "C", "10:35", "11:55", rooms: [b], weeks: [2]),  // not in week 1
            Self.lesson(4, "D", "10:00", "11:00", rooms: [c], announcement: true),  // an announcement holds it
            Self.lesson(5, "E", "10:30", "10:40", rooms: [b], date: Self.monday.adding(days: 7)),  // another day
        ]
        func free(_ start: String, _ end: String, capacity: Int? = nil) -> [FreeRooms.Found] {
            FreeRooms.find(
                in: [a, b, c], lessons: lessons, on: Self.monday, from: Self.time(start), to: Self.time(end),
                capacity: capacity, calendar: .bsuir)
        }
        // Between lesson 1's end and lesson 2's start: a lesson that ends as the stretch starts
        // leaves the room free.
        let between = free("10:20", "12:25")
        try #require(between.map(\.room.id) == [1, 2])
        #expect(between[0].freeSince == Self.time("10:20"))
        #expect(between[0].freeUntil == Self.time("12:25"))
        #expect(between[1].freeSince == nil && between[1].freeUntil == nil)
        // At a minute: 10:19 is during lesson 1; 10:20 is not.
        #expect(!free("10:19", "10:19").map(\.room.id).contains(1))
        #expect(free("10:20", "10:20").map(\.room.id).contains(1))
        // 23:59 works (its minute ends at midnight).
        #expect(free("23:59", "23:59").count == 3)
        // Capacity: unknown capacity is left out when asked.
        #expect(free("10:20", "12:25", capacity: 31).map(\.room.id) == [2])
        #expect(free("10:20", "12:25", capacity: 1).map(\.room.id) == [1, 2])
        // Week 2: lesson 3 holds room 102.
        let weekTwo = FreeRooms.find(
            in: [a, b, c], lessons: lessons, on: Self.monday.adding(days: 7), from: Self.time("11:00"),
            to: Self.time("11:00"), calendar: .bsuir)
        #expect(weekTwo.map(\.room.id) == [1, 3])
    }

    @Test func conflictsAreFoundAndSharedLessonsAreNot() throws {
        let r1 = Self.room(1, "101")
        let r2 = Self.room(2, "102")
        let lessons = [
            // A lecture of two groups is one lesson: no conflict among its groups.
            Self.lesson(1, "Math", "09:00", "10:20", rooms: [r1], teachers: ["t-a"], groups: ["g1", "g2"]),
            // The same teacher elsewhere at 10:00: a teacher conflict (and nothing else).
            Self.lesson(2, "Physics", "10:00", "11:00", rooms: [r2], teachers: ["t-a"], groups: ["g3"]),
            // Two subgroups of g3 at once: not a conflict; both overlap lesson 2 of the whole group: two.
            Self.lesson(3, "Lab", "10:35", "11:55", rooms: [r1], teachers: ["t-b"], groups: ["g3"], subgroup: 1),
            Self.lesson(4, "Lab", "10:35", "11:55", rooms: [r1], teachers: ["t-c"], groups: ["g3"], subgroup: 2),
            // g4 split by language: one subject and type, two teachers: not a conflict.
            Self.lesson(5, "English", "14:00", "15:20", rooms: [r2], teachers: ["t-d"], groups: ["g4"], type: "ПЗ"),
            Self.lesson(6, "English", "14:00", "15:20", teachers: ["t-e"], groups: ["g4"], type: "ПЗ"),
            // An announcement in room 102 at 14:30 holds nobody.
            Self.lesson(7, "Meeting", "14:30", "15:00", rooms: [r2], announcement: true),
            // One session written twice (two sources): not a conflict.
            Self.lesson(8, "Chem", "17:25", "18:45", rooms: [r2], teachers: ["t-f"], groups: ["g5"]),
            Self.lesson(9, "Chem", "17:25", "18:45", rooms: [r2], teachers: ["t-f"], groups: ["g6"]),
        ]
        let day = Self.monday...Self.monday
        let found = Conflict.find(in: lessons, range: day, calendar: .bsuir)
        let described = found.map { "\($0.kind.rawValue) \($0.name) \($0.first.lesson.id)-\($0.second.lesson.id)" }
        // Room 101: lesson 1 ends 10:20, lessons 3 and 4 share it from 10:35 (one room, two
        // subgroups' labs: a room conflict, as two classes cannot share a room).
        #expect(
            described == [
                "teacher t-a 1-2",
                "group g3 2-3", "group g3 2-4",
                "room 101-1 3-4",
            ])
        #expect(found.allSatisfy { $0.first.date == Self.monday })
        // Only rooms asked for.
        #expect(Conflict.find(in: lessons, range: day, calendar: .bsuir, kinds: [.room]).map(\.kind) == [.room])
        // Another week: lessons repeat every week, so the same conflicts.
        let twoWeeks = Self.monday...Self.monday.adding(days: 13)
        #expect(Conflict.find(in: lessons, range: twoWeeks, calendar: .bsuir).count == 2 * found.count)
    }

    /// One lecture written for two groups in two rooms at the same time is a teacher in two places
    /// (issue 35, item 19); in one room it is one session. The same for a group, and for rooms.
    @Test func oneSessionInTwoRoomsIsTwoPlaces() throws {
        let (r1, r2, r3) = (Self.room(1, "101"), Self.room(2, "102"), Self.room(3, "103"))
        func described(_ lessons: [Lesson]) -> [String] {
            Conflict.find(in: lessons, range: Self.monday...Self.monday, calendar: .bsuir).map {
                "\($0.kind.rawValue) \($0.name) \($0.first.lesson.id)-\($0.second.lesson.id)"
            }
        }
        func lecture(_ id: Int64, rooms: [Room], groups: [String], teachers: [String] = ["t-a"], subgroup: Int = 0)
            -> Lesson
        {
            Self.lesson(
                id, "Math", "09:00", "10:20", rooms: rooms, teachers: teachers, groups: groups, subgroup: subgroup)
        }
        // Two groups, two rooms, one teacher: the teacher is in two places.
        #expect(
            described([lecture(1, rooms: [r1], groups: ["g1"]), lecture(2, rooms: [r2], groups: ["g2"])]) == [
                "teacher t-a 1-2"
            ])
        // Two groups, one room: one lecture (and a source without the room says nothing against it;
        // nor does one that names one of the lecture's two rooms).
        #expect(described([lecture(1, rooms: [r1], groups: ["g1"]), lecture(2, rooms: [r1], groups: ["g2"])]).isEmpty)
        #expect(described([lecture(1, rooms: [r1], groups: ["g1"]), lecture(2, rooms: [], groups: ["g2"])]).isEmpty)
        #expect(
            described([lecture(1, rooms: [r1, r2], groups: ["g1"]), lecture(2, rooms: [r2], groups: ["g2"])]).isEmpty)
        // Rooms that only overlap: {101, 102} and {102, 103} are two sessions, and room 102 holds both.
        #expect(
            described([lecture(1, rooms: [r1, r2], groups: ["g1"]), lecture(2, rooms: [r2, r3], groups: ["g2"])]) == [
                "teacher t-a 1-2", "room 102-1 1-2",
            ])
        // One whole group in two rooms with one teacher: the group is in two places too.
        #expect(
            described([lecture(1, rooms: [r1], groups: ["g1"]), lecture(2, rooms: [r2], groups: ["g1"])]) == [
                "teacher t-a 1-2", "group g1 1-2",
            ])
        // Its two subgroups in two rooms with one teacher: the teacher is, the group is not.
        #expect(
            described([
                lecture(1, rooms: [r1], groups: ["g1"], subgroup: 1),
                lecture(2, rooms: [r2], groups: ["g1"], subgroup: 2),
            ]) == ["teacher t-a 1-2"])
        // The group split by language (other teachers), or with teachers unknown: not a conflict.
        #expect(
            described([
                lecture(1, rooms: [r1], groups: ["g1"], teachers: ["t-a"]),
                lecture(2, rooms: [r2], groups: ["g1"], teachers: ["t-b"]),
            ]).isEmpty)
        #expect(
            described([
                lecture(1, rooms: [r1], groups: ["g1"], teachers: []),
                lecture(2, rooms: [r2], groups: ["g1"], teachers: []),
            ]).isEmpty)
        // Two teachers' lessons of one subject in one room at once: the room holds two classes.
        #expect(
            described([
                lecture(1, rooms: [r1], groups: ["g1"], teachers: ["t-a"]),
                lecture(2, rooms: [r1], groups: ["g2"], teachers: ["t-b"]),
            ]) == ["room 101-1 1-2"])
    }

    @Test func pairTimesReadTheirText() throws {
        #expect(PairTimes.bsuir.slots.count == 8)
        #expect(PairTimes.bsuir.number(startingAt: Self.time("12:25")) == 3)
        #expect(PairTimes.bsuir.number(startingAt: Self.time("12:26")) == nil)
        let text = "08:30-09:50 10:00-11:20"
        let pairs = try #require(PairTimes(text: text))
        #expect(pairs.text == text)
        #expect(pairs.slot(2)?.end == Self.time("11:20"))
        #expect(pairs.slot(3) == nil && pairs.slot(0) == nil)
        #expect(PairTimes(text: "10:00-09:00") == nil)  // ends before it starts
        #expect(PairTimes(text: "09:00-10:00 09:30-11:00") == nil)  // overlaps the one before
        #expect(PairTimes(text: "") == nil)
        #expect(PairTimes(text: "9-10") == nil)
    }

    @Test func placesLinkToOpenStreetMap() throws {
        let point = try #require(MapPoint(latitude: 53.911_7, longitude: 27.594_9))
        #expect(
            point.openStreetMapURL == "https://www.openstreetmap.org/?mlat=53.9117&mlon=27.5949#map=18/53.9117/27.5949")
        let west = try #require(MapPoint(latitude: -33.856_784_6, longitude: -151))
        #expect(west.openStreetMapURL.hasPrefix("https://www.openstreetmap.org/?mlat=-33.856785&mlon=-151#"))
        #expect(MapPoint(latitude: 90.000_1, longitude: 0) == nil)
        #expect(MapPoint(latitude: 0, longitude: -180.5) == nil)
        #expect(MapPoint(latitude: .nan, longitude: 0) == nil)
        #expect(MapPoint(latitude: 10, longitude: nil) == nil)
    }
}
