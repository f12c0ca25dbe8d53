import CampusAPI
import CampusClient
import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing
import Timetable

@testable import CampusServer
@testable import Formats

extension TimetableServerSuites {
    /// Free rooms and the conflicts report over the real IIS fixtures (issue 16, items 2 and 3), on
    /// SQLite and PostgreSQL. The end-to-end tests check both against a computation of their own.
    @Suite struct RoomUseAPITests {
        @Test(arguments: TestDatabases.kinds)
        func freeRoomsAgreeWithEachRoomsSchedule(_ kind: Database.Kind) async throws {
            try await TestServer.run(kind) { server in
                try await server.importFixtures()
                let api = server.api()
                // Monday 2023-09-25 (study week 1), pair 3, building 5.
                let answer = try await api.listFreeRooms(query: .init(date: "2023-09-25", pair: 3, building: 5)).ok.body
                    .json
                #expect(answer.start == "12:25" && answer.end == "13:45" && answer.pair == 3)
                #expect(answer.pairs.count == 8)
                let free = Set(answer.sections.flatMap { $0.items.map(\.room.id) })
                #expect(answer.total == free.count)
                let all = try await api.listRooms(query: .init(building: 5)).ok.body.json.sections.flatMap(\.items)
                #expect(!all.isEmpty)
                var busy = 0
                // Each room's own schedule (another path: the schedule's expansion) says the same.
                for room in all {
                    let day = try await api.getRoomSchedule(
                        path: .init(roomId: room.id), query: .init(from: "2023-09-25", to: "2023-09-25")
                    ).ok.body.json.days[0]
                    let held = day.lessons.contains { $0.start < "13:45" && "12:25" < $0.end }
                    #expect(held == !free.contains(room.id), "room \(room.name)")
                    if held { busy += 1 }
                }
                #expect(busy == 2, "the fixtures have two lessons in building 5 then")
                // A time: the minute 12:30 is the same question as the third pair here.
                let atTime = try await api.listFreeRooms(query: .init(date: "2023-09-25", time: "12:30", building: 5))
                    .ok
                    .body.json
                #expect(atTime.pair == 3 && atTime.start == "12:30" && atTime.end == "12:30")
                #expect(atTime.total == answer.total)
                // Capacity: the fixtures know no capacities, so none is left.
                let seats = try await api.listFreeRooms(query: .init(date: "2023-09-25", pair: 3, capacity: 10)).ok.body
                    .json
                #expect(seats.total == 0)
            }
        }

        @Test func freeRoomsRefuseWhatTheyCannotAnswer() async throws {
            try await TestServer.run { server in
                for query in [
                    "time=12:00&pair=1", "time=25:00", "time=noon", "pair=9", "pair=0", "capacity=0", "date=2023-02-30",
                    "building=-1",
                ] {
                    let answer = try await server.request(.get, "/api/v1/rooms/free?\(query)")
                    #expect(answer.status == .unprocessableContent, "\(query)")
                    #expect(answer.headers[.contentType] == "application/problem+json", "\(query)")
                }
                // Without a time or pair: now.
                #expect(try await server.request(.get, "/api/v1/rooms/free").status == .ok)
            }
        }

        @Test(arguments: TestDatabases.kinds)
        func conflictsAreForAdminsOnly(_ kind: Database.Kind) async throws {
            try await TestServer.run(kind) { server in
                try await server.importFixtures()
                try await server.register("student@example.org")
                try await server.register("organizer@example.org", organizer: true)
                try await server.register("admin@example.org")
                try await server.makeAdmin("admin@example.org")
                let path = "/api/v1/conflicts?from=2022-09-01&to=2023-08-31"
                #expect(try await server.request(.get, path).status == .unauthorized)
                for (email, status) in [
                    ("student@example.org", HTTPResponse.Status.forbidden), ("organizer@example.org", .forbidden),
                    ("admin@example.org", .ok),
                ] {
                    let token = try await server.login(email)
                    #expect(try await server.request(.get, path, token: token).status == status, "\(email)")
                    // The page too: admins see it, others get 403.
                    let page = try await server.request(
                        .get, "/admin/conflicts?from=2022-09-01&to=2023-08-31",
                        headers: [.cookie: "\(CookieName.session)=\(token)"])
                    #expect(page.status == status, "\(email)")
                }
                let token = try await server.login("admin@example.org")
                let report = try await server.api(token: token).listConflicts(
                    query: .init(from: "2022-09-01", to: "2023-08-31")
                ).ok.body.json
                // Group 213871 has a whole-group language class over subgroup 2's programming lesson
                // (IIS's own data); its language classes at the same times (split by language) are not
                // conflicts.
                #expect(report.total == report.conflicts.count)
                let clash = try #require(report.conflicts.first { $0.date == "2022-09-27" })
                #expect(clash.kind == .group && clash.name == "213871")
                #expect(Set([clash.first.subject, clash.second.subject]) == ["ИнЯз", "ОАиП"])
                #expect(!report.conflicts.contains { $0.first.subject == $0.second.subject })
                // Kinds and limits.
                let rooms = try await server.api(token: token).listConflicts(
                    query: .init(from: "2022-09-01", to: "2023-08-31", kind: [.room])
                ).ok.body.json
                #expect(rooms.conflicts.allSatisfy { $0.kind == .room })
                let one = try await server.api(token: token).listConflicts(
                    query: .init(from: "2022-09-01", to: "2023-08-31", limit: 1)
                ).ok.body.json
                #expect(one.conflicts.count == 1 && one.total == report.total)
                let long = try await server.request(
                    .get, "/api/v1/conflicts?from=2022-01-01&to=2023-12-31", token: token)
                #expect(long.status == .unprocessableContent)
            }
        }

        @Test(arguments: TestDatabases.kinds)
        func buildingsOnTheMap(_ kind: Database.Kind) async throws {
            try await TestServer.run(kind) { server in
                try await server.importFixtures()
                try await server.register("student@example.org")
                try await server.register("admin@example.org")
                try await server.makeAdmin("admin@example.org")
                let api = server.api()
                let buildings = try await api.listBuildings().ok.body.json
                #expect(buildings.map(\.number) == [1, 2, 3, 4, 5])
                #expect(buildings.first { $0.number == 5 }?.roomCount == 4)
                #expect(buildings.allSatisfy { $0.mapUrl == nil })
                // Who may set a place.
                let place = #"{"name":"Корпус 5","latitude":53.9117,"longitude":27.5949}"#
                #expect(try await server.request(.put, "/api/v1/buildings/5", json: place).status == .unauthorized)
                let student = try await server.login("student@example.org")
                #expect(
                    try await server.request(.put, "/api/v1/buildings/5", json: place, token: student).status
                        == .forbidden)
                let admin = try await server.login("admin@example.org")
                for bad in [
                    #"{"latitude":53.9}"#, #"{"latitude":91,"longitude":27}"#, #"{"latitude":53,"longitude":"x"}"#,
                    #"{"latitude":53,"longitude":27,"colour":1}"#,
                ] {
                    let answer = try await server.request(.put, "/api/v1/buildings/5", json: bad, token: admin)
                    #expect(answer.status == .unprocessableContent, "\(bad)")
                }
                // A group's week before the change, so that a kept answer would show if it were not dropped.
                let week = "/api/v1/groups/151004/schedule?from=2023-09-25&to=2023-10-01"
                #expect(!(try await server.request(.get, week).text.contains("openstreetmap")))
                let set = try await server.request(.put, "/api/v1/buildings/5", json: place, token: admin)
                #expect(set.status == .ok)
                let url = "https://www.openstreetmap.org/?mlat=53.9117&mlon=27.5949#map=18/53.9117/27.5949"
                #expect(set.json["mapUrl"] as? String == url && set.json["name"] as? String == "Корпус 5")
                // The rooms of building 5, and lessons in them, link to the place; other rooms do not.
                let rooms = try await api.listRooms(query: .init(building: 5)).ok.body.json.sections.flatMap(\.items)
                #expect(rooms.count == 4 && rooms.allSatisfy { $0.mapUrl == url && $0.latitude == 53.9117 })
                let other = try await api.listRooms(query: .init(building: 4)).ok.body.json.sections.flatMap(\.items)
                #expect(other.allSatisfy { $0.mapUrl == nil })
                let schedule = try await api.getGroupSchedule(
                    path: .init(name: "151004"), query: .init(from: "2023-09-25", to: "2023-10-01")
                ).ok.body.json
                let placed = schedule.days.flatMap(\.lessons).flatMap(\.rooms).filter { $0.name.hasSuffix("-5") }
                #expect(!placed.isEmpty && placed.allSatisfy { $0.mapUrl == url })
                // The room's page links to the map.
                let page = try await server.request(.get, "/timetable/rooms/\(try #require(rooms.first).id)")
                #expect(page.text.contains("id=\"room-map\"") && page.text.contains("mlat=53.9117"))
                // Neither coordinate clears the place.
                let cleared = try await server.request(
                    .put, "/api/v1/buildings/5", json: #"{"name":"Корпус 5"}"#, token: admin)
                #expect(cleared.status == .ok && cleared.json["mapUrl"] == nil)
                #expect(
                    try await api.getRoom(path: .init(roomId: try #require(rooms.first).id)).ok.body.json.mapUrl == nil)
            }
        }

        @Test func seedThreeRoomsKeepTheirPlaces() async throws {
            try await TestServer.run { server in
                let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
                let subjects = #"""
                    [{"id": 294624, "name": "Розробка iOS-застосунків", "faculty": "Факультет інформатики",
                      "specialty": "121. Інженерія програмного забезпечення", "year": 3, "trimester": 3, "type": "prof",
                      "numberOfGroups": 4}]
                    """#
                let lessons = #"""
                    [{"id": 294624, "name": "Розробка iOS-застосунків", "group": 3, "date": "11.04.2024", "time": "11:40",
                      "auditorium": "1-120", "latitude": 50.464187, "longitude": 30.520186}]
                    """#
                let data = try KMASchedule.read(subjects: Data(subjects.utf8), schedule: Data(lessons.utf8))
                _ = try await TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt).store(
                    data)
                await database.close()
                let rooms = try await server.api().listRooms(query: .init(q: "1-120")).ok.body.json.sections.flatMap(
                    \.items)
                let room = try #require(rooms.first)
                #expect(room.latitude == 50.464187 && room.longitude == 30.520186)
                #expect(room.mapUrl?.contains("mlat=50.464187&mlon=30.520186") == true)
            }
        }
    }
}
