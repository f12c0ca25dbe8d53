import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import Testing
import Timetable

@testable import CampusHTTP
@testable import CampusServer
@testable import Formats

extension TestServer {
    /// Imports the IIS fixtures into the server's database.
    func importFixtures(_ files: [String] = Fixtures.iisFiles) async throws {
        let database = try await Database.open(databaseLocation, logger: TestDatabases.logger)
        var data = TimetableImport()
        for file in files { data.merge(try IIS.read(try Fixtures.data("iis/\(file)"), file: file)) }
        _ = try await TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt).store(data)
        await database.close()
    }
}

@Suite struct TimetableAPITests {
    /// 2023-09-25 10:00 in Minsk (a Monday of study week 1).
    static let mondayMorning = Date(timeIntervalSince1970: 1_695_625_200)

    @Test(arguments: TestDatabases.kinds)
    func aGroupsWeek(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            try await server.importFixtures()
            let schedule = try await server.api().getGroupSchedule(
                path: .init(name: "151004"), query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json
            #expect(schedule.days.count == 7)
            #expect(schedule.timeZone == "Europe/Minsk")
            let monday = schedule.days[0]
            #expect(monday.date == "2023-09-25")
            #expect(monday.weekday == 1)
            #expect(monday.week == 1)
            #expect(monday.lessons.map(\.start) == monday.lessons.map(\.start).sorted())
            let lab = try #require(monday.lessons.first { $0.subgroup == 1 })
            #expect(lab._type?.id == "ЛР")
            #expect(lab._type?.colour == "#e08a1e")
            #expect(!lab.rooms.isEmpty)
            #expect(lab.groups == ["151004"])
            let total = schedule.days.reduce(0) { $0 + $1.lessons.count }
            // Subgroup 1: whole-group lessons and its own.
            let first = try await server.api().getGroupSchedule(
                path: .init(name: "151004"), query: .init(from: "2023-09-25", to: "2023-10-01", subgroup: 1)
            ).ok.body.json
            let firstLessons = first.days.flatMap(\.lessons)
            #expect(firstLessons.allSatisfy { $0.subgroup != 2 })
            #expect(firstLessons.count < total)
            // Subjects.
            let only = try await server.api().getGroupSchedule(
                path: .init(name: "151004"), query: .init(from: "2023-09-25", to: "2023-10-01", subject: ["СП", "ВТ"])
            ).ok.body.json
            #expect(Set(only.days.flatMap(\.lessons).map(\.subject)) == ["СП", "ВТ"])
        }
    }

    @Test func windowsAndTeacherAndRoomSchedules() async throws {
        try await TestServer.run { server in
            try await server.importFixtures()
            let week = try await server.api().getGroupSchedule(
                path: .init(name: "151004"), query: .init(from: "2023-11-13", to: "2023-11-19")
            ).ok.body.json
            #expect(week.days.contains { !$0.windows.isEmpty })
            let teacher = try await server.api().getTeacherSchedule(
                path: .init(urlId: "o-smoliakova"), query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json
            let taught = teacher.days.flatMap(\.lessons)
            #expect(!taught.isEmpty)
            #expect(taught.allSatisfy { $0.teachers.contains { $0.urlId == "o-smoliakova" } })
            let rooms = try await server.api().listRooms(query: .init(q: "209-4")).ok.body.json
            let room = try #require(rooms.sections.first?.items.first)
            #expect(room.name == "209-4")
            let roomWeek = try await server.api().getRoomSchedule(
                path: .init(roomId: room.id), query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json
            #expect(roomWeek.days.flatMap(\.lessons).allSatisfy { $0.rooms.contains { $0.id == room.id } })
            let compound = try await server.api().getCompoundSchedule(
                body: .json(.init(groups: ["151004", "010101"], from: "2023-09-25", to: "2023-09-25"))
            ).ok.body.json
            let lessons = compound.days.flatMap(\.lessons)
            #expect(Set(lessons.flatMap(\.groups)) == ["151004", "010101"])
        }
    }

    @Test func theFastScheduleIsTheBytesJSONEncoderWrites() async throws {
        try await TestServer.run { server in
            try await server.importFixtures()
            let rooms = try await server.api().listRooms(query: .init(q: "209-4")).ok.body.json
            let room = try #require(rooms.sections.first?.items.first)
            let subjects = "subject=%D0%A1%D0%9F&subject=%D0%92%D0%A2"  // СП, ВТ
            var paths: [String] = []
            for week in ["2023-09-25", "2023-11-13", "2023-12-25", "2024-01-08"] {
                let days = "from=\(week)&to=\(LocalDate(iso: week).map { $0.adding(days: 6).iso } ?? week)"
                paths += [
                    "/api/v1/groups/151004/schedule?\(days)", "/api/v1/groups/010101/schedule?\(days)&subgroup=1",
                    "/api/v1/groups/151004/schedule?\(days)&\(subjects)",
                    "/api/v1/teachers/o-smoliakova/schedule?\(days)", "/api/v1/rooms/\(room.id)/schedule?\(days)",
                ]
            }
            var lessons = 0
            for path in paths {
                let answer = try await server.request(.get, path)
                #expect(answer.status == .ok && answer.headers[.contentType] == "application/json; charset=utf-8")
                // Read back and written again by Foundation's encoder, as the generated handler
                // would have: the same bytes.
                let body = Data(buffer: answer.body)
                let document = try JSONDecoder().decode(Components.Schemas.Schedule.self, from: body)
                #expect(try APIJSON.encoder().encode(document) == body, "\(path)")
                lessons += document.days.flatMap(\.lessons).count
            }
            #expect(lessons > 100)
            // Unknown owners are problems, as the handler said them.
            #expect(try await server.request(.get, "/api/v1/groups/nope/schedule").status == .notFound)
            #expect(try await server.request(.get, "/api/v1/teachers/nobody/schedule").status == .notFound)
        }
    }

    @Test func listsAndDetails() async throws {
        try await TestServer.run { server in
            try await server.importFixtures()
            let groups = try await server.api().listGroups(query: .init(q: "1510", sections: .flow)).ok.body.json
            #expect(groups.sections.map(\.title) == ["1510"])
            #expect(groups.total == 8)
            let poit = try await server.api().listGroups(query: .init(q: "поит", course: 3)).ok.body.json
            #expect(poit.sections.flatMap(\.items).allSatisfy { $0.course == 3 })
            let detail = try await server.api().getGroup(path: .init(name: "151004")).ok.body.json
            #expect(detail.speciality?.abbreviation == "ПОИТ")
            #expect(detail.faculty?.abbreviation == "ФКСиС")
            #expect(detail.term.lessonsStart == "2023-09-01")
            #expect(detail.flow.contains("151003"))
            let teachers = try await server.api().listTeachers(query: .init(q: "смолякова")).ok.body.json
            #expect(teachers.sections.flatMap(\.items).map(\.urlId) == ["o-smoliakova"])
            let teacher = try await server.api().getTeacher(path: .init(urlId: "o-smoliakova")).ok.body.json
            #expect(teacher.teacher.lastName == "Смолякова")
            #expect(try await server.api().listFaculties().ok.body.json.count == 8)
            #expect(
                try await server.api().listLessonTypes().ok.body.json.contains {
                    $0.id == "ПЗ" && $0.colour == "#2e9e5b"
                })
        }
    }

    @Test func unknownThingsAndBadRangesAreExplained() async throws {
        try await TestServer.run { server in
            try await server.importFixtures(["151004.json"])
            let missing = try await server.request(.get, "/api/v1/groups/999999/schedule")
            #expect(missing.status == .notFound)
            #expect((missing.json["detail"] as? String) == "There is no group 999999.")
            #expect(try await server.request(.get, "/api/v1/teachers/nobody/calendar.ics").status == .notFound)
            #expect(try await server.request(.get, "/api/v1/rooms/424242").status == .notFound)
            let backwards = try await server.request(
                .get, "/api/v1/groups/151004/schedule?from=2023-10-01&to=2023-09-01")
            #expect(backwards.status == .unprocessableContent)
            let long = try await server.request(.get, "/api/v1/groups/151004/schedule?from=2023-01-01&to=2024-12-31")
            #expect(long.status == .unprocessableContent)
            let bad = try await server.request(.get, "/api/v1/groups/151004/schedule?from=25.09.2023")
            #expect(bad.status == .unprocessableContent)
            #expect((bad.json["detail"] as? String)?.contains("2023-09-25") == true)
            let empty = try await server.request(.post, "/api/v1/schedule", json: "{}")
            #expect(empty.status == .unprocessableContent)
        }
    }

    @Test func theStudyWeekAndNowAndNext() async throws {
        let clock = TestClock(Self.mondayMorning)
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        defer { Task { await cleanup() } }
        try await TestServer.run(location: location, clock: clock) { server in
            try await server.importFixtures(["151004.json"])
            let week = try await server.api().getStudyWeek(query: .init(date: "2021-02-01")).ok.body.json
            #expect(week.week == 3)
            #expect(week.cycleLength == 4)
            #expect(week.monday == "2021-02-01")
            let today = try await server.api().getStudyWeek().ok.body.json
            #expect(today.date == "2023-09-25")
            #expect(today.week == 1)
            // Monday 10:00: the 09:00 lecture is on, the 10:35 one next.
            let now = try await server.api().getGroupNow(path: .init(name: "151004")).ok.body.json
            #expect(now.current.map(\.subject) == ["РиАТ"])
            #expect(now.minutesLeft == 20)
            #expect(now.next?.start == "10:35")
            #expect(now.minutesUntilNext == 35)
            // Without dates, a schedule is this week's.
            let schedule = try await server.api().getGroupSchedule(path: .init(name: "151004")).ok.body.json
            #expect(schedule.from == "2023-09-25")
            #expect(schedule.to == "2023-10-01")
        }
    }

    @Test func calendarFeeds() async throws {
        try await TestServer.run(configure: { $0.baseURL = "https://campus.example.org" }) { server in
            try await server.importFixtures(["151004.json"])
            let response = try await server.request(.get, "/api/v1/groups/151004/calendar.ics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/calendar; charset=utf-8")
            let text = response.text
            #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
            #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Minsk"))
            #expect(text.contains("DTSTART;TZID=Europe/Minsk:"))
            #expect(text.contains("RRULE:FREQ=WEEKLY;INTERVAL=4;UNTIL="))
            #expect(text.contains("@campus.example.org"))
            // Lines are folded at 75 octets.
            #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
            // UIDs are stable: the same feed again has the same ones.
            func uids(_ text: String) -> [String] {
                text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }
            }
            let again = try await server.request(.get, "/api/v1/groups/151004/calendar.ics")
            #expect(uids(text) == uids(again.text))
            #expect(Set(uids(text)).count == uids(text).count)
        }
    }

    @Test func answersAreCachedUntilTheTimetableChanges() async throws {
        try await TestServer.run { server in
            try await server.importFixtures(["151004.json"])
            let path = "/api/v1/groups/151004/schedule?from=2023-09-25&to=2023-10-01"
            let first = try await server.request(.get, path)
            let etag = try #require(first.headers[.eTag])
            let second = try await server.request(.get, path)
            #expect(second.text == first.text)
            #expect(second.headers[.eTag] == etag)
            let notModified = try await server.request(.get, path, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
            #expect(notModified.body.readableBytes == 0)
            // The tag is the answer's: importing the same schedule again leaves it, so a client
            // that polls after every sync downloads nothing.
            try await server.importFixtures(["151004.json"])
            try await Task.sleep(for: .milliseconds(1100))
            let unchanged = try await server.request(.get, path, headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
            // An import elsewhere (the CLI) is seen within a second.
            var changed = try IIS.read(try Fixtures.data("iis/151004.json"))
            changed.schedules[0].lessons = Array(changed.schedules[0].lessons.dropFirst(10))
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            _ = try await TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt).store(
                changed)
            await database.close()
            try await Task.sleep(for: .milliseconds(1100))
            let after = try await server.request(.get, path, headers: [.ifNoneMatch: etag])
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] != etag)
            #expect(after.text != first.text)
        }
    }

    @Test func adminsRecolourLessonTypes() async throws {
        try await TestServer.run { server in
            try await server.importFixtures(["151004.json"])
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            try await server.register("ann@example.org")
            let admin = try await server.login("admin@example.org")
            let ann = try await server.login("ann@example.org")
            let body = ##"{"name":"Лекция","abbreviation":"Лек","colour":"#123456"}"##
            #expect(
                try await server.request(.put, "/api/v1/lesson-types/%D0%9B%D0%9A", json: body).status == .unauthorized)
            #expect(
                try await server.request(.put, "/api/v1/lesson-types/%D0%9B%D0%9A", json: body, token: ann).status
                    == .forbidden)
            let changed = try await server.request(.put, "/api/v1/lesson-types/%D0%9B%D0%9A", json: body, token: admin)
            #expect(changed.status == .ok)
            #expect(changed.json["colour"] as? String == "#123456")
            let css = try await server.request(.get, "/timetable/lesson-types.css")
            #expect(css.text.contains("#123456"))
            let bad = try await server.request(
                .put, "/api/v1/lesson-types/%D0%9B%D0%9A", json: #"{"name":"x","abbreviation":"x","colour":"red"}"#,
                token: admin)
            #expect(bad.status == .unprocessableContent)
            #expect(
                try await server.request(.put, "/api/v1/lesson-types/nope", json: body, token: admin).status
                    == .notFound)
        }
    }
}

@Suite struct ResponseCacheTests {
    static func version(_ database: Database) -> @Sendable () async throws -> String {
        { try await database.read { db in try await TimetableStore(db).version() } }
    }

    func entry(_ version: String, bytes: Int) -> ResponseCache.Entry {
        ResponseCache.Entry(
            version: version, headers: [:], body: ByteBuffer(repeating: 0x61, count: bytes), etag: "\"x\"")
    }

    @Test func keepsNoMoreThanItsBytes() async throws {
        try await TestDatabases.withDatabase(.sqlite) { database in
            // Bytes are counted as the allocator sees them: the body's storage, the key, the tag
            // and the entry (about 1,500 bytes for an answer of 1,000).
            let cost = ResponseCache.cost(of: entry("v", bytes: 1000), key: "10")
            #expect(cost > 1000 + ResponseCache.entryOverhead)
            let cache = ResponseCache(capacity: 100, maximumBytes: 16 * 1600, version: Self.version(database))
            let version = try await cache.currentVersion()
            // An answer over a sixteenth of the bytes is never kept.
            cache.store(entry(version, bytes: 1601), for: "big")
            #expect(cache.entry("big", version: version) == nil)
            for index in 0..<16 { cache.store(entry(version, bytes: 1000), for: "\(index)") }
            #expect(cache.entry("0", version: version) != nil)
            #expect(cache.entry("15", version: version) != nil)
            // The seventeenth answer would pass the limit: the cache starts over.
            cache.store(entry(version, bytes: 1000), for: "16")
            #expect(cache.entry("0", version: version) == nil)
            #expect(cache.entry("16", version: version) != nil)
            // Storing a key again replaces its bytes rather than adding to them.
            for _ in 0..<40 { cache.store(entry(version, bytes: 1000), for: "16") }
            cache.store(entry(version, bytes: 1000), for: "17")
            #expect(cache.entry("16", version: version) != nil)
            // A body in storage much bigger than its bytes (as a collected answer may be) is kept
            // in storage of its own size (rounded up to a power of two, as NIO allocates).
            var grown = ByteBufferAllocator().buffer(capacity: 4096)
            grown.writeRepeatingByte(0x62, count: 1000)
            cache.store(.init(version: version, headers: [:], body: grown, etag: "\"y\""), for: "grown")
            #expect(cache.entry("grown", version: version)?.body.capacity == 1024)
        }
    }

    @Test func aKeyHoldsOnlyTheParametersTheOperationsKnowInOrder() throws {
        let known: Set<Substring> = ["from", "to", "subgroup"]
        #expect(
            ResponseCache.knownQuery("from=2023-09-25&to=2023-10-01", keeping: known) == "from=2023-09-25&to=2023-10-01"
        )
        // A made-up parameter is left out, and the order the client chose does not matter.
        #expect(
            ResponseCache.knownQuery("to=2023-10-01&cachebuster=81723&from=2023-09-25", keeping: known)
                == "from=2023-09-25&to=2023-10-01")
        #expect(ResponseCache.knownQuery("x=1", keeping: known) == "")
        #expect(ResponseCache.knownQuery("from=a&&to=b", keeping: known) == "from=a&to=b")
        #expect(ResponseCache.knownQuery("", keeping: known) == "")
        // Sorted by name, repeats in the order they came; a value may hold any character.
        #expect(
            ResponseCache.knownQuery("to=1&from=2&subgroup=0&from=1", keeping: known) == "from=2&from=1&subgroup=0&to=1"
        )
        #expect(ResponseCache.knownQuery("from=%D0%98=%26&to", keeping: known) == "from=%D0%98=%26&to")
        #expect(ResponseCache.knownQuery("to=é&from=ё", keeping: known) == "from=ё&to=é")
    }

    @Test func aMadeUpParameterNeitherMakesANewEntryNorFlushesTheCache() async throws {
        try await TestDatabases.withDatabase(.sqlite) { database in
            let documentation = try APIDocumentation.bundled()
            #expect(documentation.cachedQueryParameters.isSuperset(of: ["from", "to"]))
            let cache = ResponseCache(
                keyParameters: documentation.cachedQueryParameters, version: Self.version(database))
            let version = try await cache.currentVersion()
            func request(_ uri: String) -> Request {
                Request(
                    head: HTTPRequest(method: .get, scheme: "http", authority: "campus", path: uri),
                    body: RequestBody(buffer: ByteBuffer()))
            }
            let week = "/api/v1/groups/151004/schedule?from=2023-09-25&to=2023-10-01"
            let key = cache.key(request(week), today: "2023-09-27")
            cache.store(entry(version, bytes: 10), for: key)
            // However many made-up parameters: the same key, the one entry.
            for index in 0..<50 {
                let other = cache.key(request(week + "&nocache=\(index)"), today: "2023-09-27")
                #expect(other == key)
                #expect(cache.entry(other, version: version) != nil)
            }
            #expect(cache.count == 1)
        }
    }

    @Test func keepsNoMoreThanItsEntries() async throws {
        try await TestDatabases.withDatabase(.sqlite) { database in
            let cache = ResponseCache(capacity: 3, version: Self.version(database))
            let version = try await cache.currentVersion()
            for index in 0..<3 { cache.store(entry(version, bytes: 10), for: "\(index)") }
            #expect(cache.entry("2", version: version) != nil)
            cache.store(entry(version, bytes: 10), for: "3")
            #expect(cache.entry("0", version: version) == nil)
            #expect(cache.entry("3", version: version) != nil)
        }
    }
}
