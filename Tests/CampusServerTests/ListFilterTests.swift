import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import Testing

@testable import CampusServer

extension TimetableServerSuites {
    /// The directory lists' filters on the web pages (issue 16, item 5): the same answers as the API's,
    /// kept when the sections change.
    @Suite struct ListFilterTests {
        @Test func listsFilterAsTheAPIDoes() async throws {
            try await TestServer.run { server in
                try await server.importFixtures()
                let api = server.api()
                let third = try await api.listGroups(query: .init(course: 3)).ok.body.json.total
                let groups = try await server.request(.get, "/timetable/groups?course=3&sections=faculty")
                #expect(groups.text.contains("found: \(third) "))
                #expect(groups.text.contains("<option value=\"3\" selected>3</option>"))
                // The sections' links keep the filter; the filter form keeps the sections.
                #expect(groups.text.contains("sections=speciality&amp;course=3"))
                #expect(groups.text.contains("<input type=\"hidden\" name=\"sections\" value=\"faculty\">"))
                // No form of education in the fixtures: that filter is left out.
                #expect(!groups.text.contains("id=\"filter-form\""))
                let rooms = try await server.request(.get, "/timetable/rooms?building=5")
                let inFive = try await api.listRooms(query: .init(building: 5)).ok.body.json.total
                #expect(rooms.text.contains("found: \(inFive) ") && inFive == 4)
                let department = "ИИТ"
                let teachers = try await server.request(
                    .get,
                    "/timetable/teachers?department=\(department.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                )
                let count = try await api.listTeachers(query: .init(department: department)).ok.body.json.total
                #expect(count > 0 && teachers.text.contains("found: \(count) "))
                #expect(teachers.text.contains("<option value=\"ИИТ\" selected>ИИТ</option>"))
            }
        }
    }
}
