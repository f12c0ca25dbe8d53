import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// What is personal in a timetable: my schedule, favorites, my calendar feed; each user's alone.
@Suite struct MyTimetableTests {
    /// Ann (151004, subgroup 2) and Ben, with the IIS fixtures.
    static func cast(_ server: TestServer) async throws -> (ann: String, ben: String) {
        try await server.importFixtures()
        try await server.register("ann@example.org")
        try await server.register("ben@example.org")
        let ann = try await server.login("ann@example.org")
        let ben = try await server.login("ben@example.org")
        _ = try await server.api(token: ann).updateMe(body: .json(.init(group: "151004", subgroup: 2))).ok
        return (ann, ben)
    }

    @Test(arguments: TestDatabases.kinds)
    func myScheduleIsMyGroupAndSubgroup(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let (ann, ben) = try await Self.cast(server)
            let mine = try await server.api(token: ann).getMySchedule(
                query: .init(from: "2023-09-25", to: "2023-10-01")
            ).ok.body.json
            let group = try await server.api().getGroupSchedule(
                path: .init(name: "151004"), query: .init(from: "2023-09-25", to: "2023-10-01", subgroup: 2)
            ).ok.body.json
            #expect(mine.subgroup == 2)
            #expect(mine.days.flatMap(\.lessons).map(\.lessonId) == group.days.flatMap(\.lessons).map(\.lessonId))
            #expect(!mine.days.flatMap(\.lessons).isEmpty)
            // Without a group: 404 that says what to do; without a login: 401.
            let none = try await server.request(.get, "/api/v1/me/schedule", token: ben)
            #expect(none.status == .notFound && none.text.contains("profile"))
            #expect(try await server.request(.get, "/api/v1/me/schedule").status == .unauthorized)
            // A group the timetable does not have is refused in the profile.
            let unknown = try await server.request(.patch, "/api/v1/me", json: #"{"group":"999999"}"#, token: ben)
            #expect(unknown.status == .unprocessableContent && unknown.text.contains("999999"))
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func favoritesAreEachUsersOwn(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let (ann, ben) = try await Self.cast(server)
            let room = try #require(
                try await server.api().listRooms(query: .init()).ok.body.json.sections.first?.items.first)
            let department = try #require(try await server.api().listDepartments().ok.body.json.first)
            for path in [
                "group/010101", "teacher/i-kirinovich", "room/\(room.id)",
                "department/\(department.abbreviation.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")",
            ] {
                let added = try await server.request(.put, "/api/v1/me/favorites/\(path)", token: ann)
                #expect(added.status == .ok, "\(path): \(added.text)")
            }
            // Adding again changes nothing.
            #expect(try await server.request(.put, "/api/v1/me/favorites/group/010101", token: ann).status == .ok)
            let list = try await server.api(token: ann).listFavorites().ok.body.json.items
            #expect(list.map(\.kind) == [.group, .teacher, .room, .department])
            #expect(list[0].name == "010101" && list[1].name.contains("Киринович"))
            // Ben sees none of them, and cannot remove them: 404, as for any favorite he lacks.
            #expect(try await server.api(token: ben).listFavorites().ok.body.json.items.isEmpty)
            let bens = try await server.request(.delete, "/api/v1/me/favorites/group/010101", token: ben)
            #expect(bens.status == .notFound)
            #expect(try await server.api(token: ann).listFavorites().ok.body.json.items.count == 4)
            // What the timetable lacks is not found; an unknown kind is a bad request.
            #expect(try await server.request(.put, "/api/v1/me/favorites/group/999999", token: ann).status == .notFound)
            #expect(try await server.request(.put, "/api/v1/me/favorites/room/abc", token: ann).status == .notFound)
            let planet = try await server.request(.put, "/api/v1/me/favorites/planet/mars", token: ann)
            #expect(planet.status == .unprocessableContent, "\(planet.status) \(planet.text)")
            #expect(try await server.request(.get, "/api/v1/me/favorites").status == .unauthorized)
            // Removing.
            let removed = try await server.request(.delete, "/api/v1/me/favorites/group/010101", token: ann)
            #expect(removed.status == .noContent)
            #expect(try await server.api(token: ann).listFavorites().ok.body.json.items.count == 3)
            #expect(
                try await server.request(.delete, "/api/v1/me/favorites/group/010101", token: ann).status == .notFound)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func myCalendarFeedHasRemindersAndANewAddressEndsTheOld(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind, configure: { $0.baseURL = "https://campus.example.org" }) { server in
            let (ann, ben) = try await Self.cast(server)
            let feed = try await server.api(token: ann).getMyCalendar().ok.body.json
            #expect(feed.url.hasPrefix("https://campus.example.org/api/v1/calendars/"))
            #expect(feed.reminderMinutes == nil)
            // The same address until it is changed, and another one for Ben.
            #expect(try await server.api(token: ann).getMyCalendar().ok.body.json.url == feed.url)
            #expect(try await server.api(token: ben).getMyCalendar().ok.body.json.url != feed.url)
            let path = String(feed.url.dropFirst("https://campus.example.org".count))
            let plain = try await server.request(.get, path)
            #expect(plain.status == .ok && plain.text.contains("BEGIN:VEVENT") && !plain.text.contains("VALARM"))
            let reminded = try await server.api(token: ann).setMyCalendar(body: .json(.init(reminderMinutes: 15)))
                .ok.body.json
            #expect(reminded.url == feed.url && reminded.reminderMinutes == 15)
            let text = try await server.request(.get, path).text
            #expect(text.contains("BEGIN:VALARM\r\nACTION:DISPLAY") && text.contains("TRIGGER:-PT15M"))
            #expect(
                text.components(separatedBy: "BEGIN:VEVENT").count == text.components(separatedBy: "BEGIN:VALARM").count
            )
            #expect(text.contains("X-WR-CALNAME:My timetable") && text.contains("DESCRIPTION:Lesson: "))
            // The feed speaks its owner's language.
            _ = try await server.api(token: ann).updateMe(body: .json(.init(language: "ru"))).ok
            let russian = try await server.request(.get, path).text
            #expect(russian.contains("X-WR-CALNAME:Моё расписание") && russian.contains("DESCRIPTION:Занятие: "))
            // Too early a reminder is refused; a new address makes the old one 404.
            let tooEarly = try await server.request(
                .put, "/api/v1/me/calendar", json: #"{"reminderMinutes":20000}"#, token: ann)
            #expect(tooEarly.status == .badRequest || tooEarly.status == .unprocessableContent)
            let moved = try await server.api(token: ann).setMyCalendar(
                body: .json(.init(reminderMinutes: 15, newAddress: true))
            ).ok.body.json
            #expect(moved.url != feed.url && moved.reminderMinutes == 15)
            #expect(try await server.request(.get, path).status == .notFound)
            let newPath = String(moved.url.dropFirst("https://campus.example.org".count))
            #expect(try await server.request(.get, newPath).status == .ok)
            #expect(try await server.request(.get, "/api/v1/calendars/not-a-token/calendar.ics").status == .notFound)
        }
    }
}
