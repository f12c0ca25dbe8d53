import CampusAPI
import CampusClient
import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CampusServer

/// The departments list, my teachers and full subject names (issue 35, items 24 and 26), on the
/// real IIS fixtures.
@Suite struct TimetableListsAndDisplayTests {
    static func page(_ server: TestServer, _ path: String, token: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.accept: "text/html"]
        if let token { headers[.cookie] = "\(CookieName.session)=\(token)" }
        return try await server.request(.get, path, headers: headers)
    }

    @Test func departmentsHaveAListAPageAndAStar() async throws {
        try await TestServer.run { server in
            let (ann, _) = try await MyTimetableTests.cast(server)
            let poit = TimetablePages.departmentURL("ПОИТ")
            // The list: every department, each opening on its teachers, with how many it has.
            let list = try await Self.page(server, "/timetable/departments")
            #expect(list.status == .ok)
            #expect(list.text.contains("href=\"\(poit)\"") && list.text.contains("58 teachers"))
            #expect(list.text.contains("href=\"\(TimetablePages.departmentURL("ИРТ"))\""))
            // Searched, in the page and in the API.
            let searched = try await Self.page(server, "/timetable/departments?q=%D0%BF%D0%BE%D0%B8")
            #expect(searched.text.contains("href=\"\(poit)\""))
            #expect(!searched.text.contains("href=\"\(TimetablePages.departmentURL("ИРТ"))\""))
            let found = try await server.api().listDepartments(query: .init(q: "пои")).ok.body.json
            #expect(found.map(\.abbreviation) == ["ПОИТ"])
            #expect(try await server.api().listDepartments().ok.body.json.count >= 32)
            // The department's page (its teachers) has a star for a signed-in visitor only.
            let visitors = try await Self.page(server, poit)
            #expect(visitors.status == .ok && !visitors.text.contains("id=\"favorite\""))
            let before = try await Self.page(server, poit, token: ann)
            #expect(before.text.contains("id=\"favorite\"") && before.text.contains("Add to favorites"))
            #expect(before.text.contains("name=\"kind\" value=\"department\""))
            _ = try await server.api(token: ann).addFavorite(path: .init(kind: .department, id: "ПОИТ")).ok
            #expect(try await Self.page(server, poit, token: ann).text.contains("In favorites"))
            // A department the timetable does not have has no star.
            let none = try await Self.page(server, "/timetable/teachers?department=nowhere", token: ann)
            #expect(none.status == .ok && !none.text.contains("id=\"favorite\""))
            // The lists' tabs and the timetable's home lead there.
            #expect(list.text.contains("href=\"/timetable/departments\" aria-current=\"page\""))
            let home = try await Self.page(server, "/timetable?find=1")
            #expect(home.text.contains("id=\"departments-link\""))
        }
    }

    @Test func myTeachersAreTheTeachersOfMySchedule() async throws {
        try await TestServer.run { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let mine = try await server.api(token: ann).listMyTeachers().ok.body.json
            #expect(mine.total == mine.items.count && mine.total == 13)
            let smoliakova = try #require(mine.items.first { $0.teacher.urlId == "o-smoliakova" })
            #expect(smoliakova.subjects.map(\.subject) == ["ВТ"])
            #expect(smoliakova.subjects.first?.types == ["ЛК", "ЛР"])
            #expect(smoliakova.subjects.first?.subjectFullName == "Веб-технологии")
            // Only the teachers of group 151004: none of 010101's alone.
            let group = try await server.api().getGroupSchedule(
                path: .init(name: "151004"), query: .init(from: "2023-09-01", to: "2023-12-31", subgroup: 2)
            ).ok.body.json
            let taught = Set(group.days.flatMap(\.lessons).flatMap { $0.teachers.map(\.urlId) })
            #expect(Set(mine.items.map(\.teacher.urlId)) == taught)
            // Without a group: 404 that says what to do; without a login: 401.
            let none = try await server.request(.get, "/api/v1/me/teachers", token: ben)
            #expect(none.status == .notFound && none.text.contains("profile"))
            #expect(try await server.request(.get, "/api/v1/me/teachers").status == .unauthorized)
            // The page: each teacher links to their schedule, with what they teach.
            let page = try await Self.page(server, "/timetable/mine/teachers", token: ann)
            #expect(page.status == .ok)
            #expect(page.text.contains("href=\"/timetable/teachers/o-smoliakova\""))
            #expect(page.text.contains("ВТ (ЛК, ЛР)"))
            #expect(page.text.contains("Group 151004 · Subgroup 2"))
            let nobody = try await Self.page(server, "/timetable/mine/teachers", token: ben)
            #expect(nobody.status == .ok && nobody.text.contains("your profile"))
            // My schedule and my timetable page link there.
            #expect(try await Self.page(server, "/timetable", token: ann).text.contains("id=\"my-teachers-link\""))
            #expect(try await Self.page(server, "/timetable/mine", token: ann).text.contains("id=\"my-teachers-link\""))
        }
    }

    @Test func fullSubjectNamesAreEachUsersChoice() async throws {
        try await TestServer.run { server in
            let (ann, ben) = try await MyTimetableTests.cast(server)
            let week = "/timetable/groups/151004?week=2023-09-25&view=list"
            // By default the abbreviation, which opens to the full name (a tap on a phone).
            #expect(try await server.api(token: ann).getTimetableSettings().ok.body.json.fullSubjectNames == false)
            let short = try await Self.page(server, week, token: ann).text
            #expect(short.contains("<summary class=\"subject\" title=\"Веб-технологии\">ВТ</summary>"))
            #expect(short.contains("<div class=\"full-subject\">Веб-технологии</div>"))
            // Chosen in the API: Ann's pages show full names; Ben's and a visitor's do not.
            let saved = try await server.api(token: ann).saveTimetableSettings(
                body: .json(.init(fullSubjectNames: true))
            ).ok.body.json
            #expect(saved.fullSubjectNames)
            #expect(try await server.api(token: ann).getTimetableSettings().ok.body.json.fullSubjectNames)
            let full = try await Self.page(server, week, token: ann).text
            #expect(full.contains("<div class=\"subject\" title=\"Веб-технологии\">Веб-технологии</div>"))
            #expect(!full.contains("<summary class=\"subject\""))
            #expect(try await Self.page(server, week, token: ben).text.contains(">ВТ</summary>"))
            #expect(try await Self.page(server, week).text.contains(">ВТ</summary>"))
            // My teachers follow the choice.
            #expect(
                try await Self.page(server, "/timetable/mine/teachers", token: ann).text.contains(
                    "Веб-технологии (ЛК, ЛР)"))
            // A setting is a boolean; without a login, 401.
            let wrong = try await server.request(
                .put, "/api/v1/me/timetable-settings", json: #"{"fullSubjectNames":"yes"}"#, token: ann)
            #expect(wrong.status == .unprocessableContent)
            #expect(try await server.request(.get, "/api/v1/me/timetable-settings").status == .unauthorized)

            // The form on /timetable/mine: an unticked box goes back to abbreviations.
            let mine = try await Self.page(server, "/timetable/mine", token: ann)
            #expect(mine.text.contains("id=\"full-subject-names\" checked"))
            let csrfCookie = try #require(
                mine.headers[values: .setCookie].first { $0.hasPrefix(CookieName.csrf) }?.split(separator: ";").first)
            let token = try #require(LanguageTests.csrf(mine.text))
            let posted = try await server.request(
                .post, "/timetable/mine/display", json: "_csrf=\(token)",
                headers: [
                    .contentType: "application/x-www-form-urlencoded",
                    .cookie: "\(CookieName.session)=\(ann); \(csrfCookie)",
                ])
            #expect(posted.status == .seeOther)
            #expect(try await server.api(token: ann).getTimetableSettings().ok.body.json.fullSubjectNames == false)
            #expect(try await Self.page(server, week, token: ann).text.contains(">ВТ</summary>"))
        }
    }
}
