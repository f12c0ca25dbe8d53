import CampusAPI
import CampusClient
import CampusHTTP
import CampusTestSupport
import Foundation
import Storage
import Testing
import Timetable

@testable import CampusServer

extension TimetableServerSuites {
    /// The schedule pages complete (issue 16, item 5), on the real IIS fixtures: the lesson's pair and
    /// weeks, announcements marked, a search inside the schedule, the date picker, the exam session,
    /// and a week number under a dated calendar.
    @Suite struct SchedulePageTests {
        /// 2022-12-20 10:00 in Minsk, two days before group 913801's first consultation.
        static let beforeTheSession = Date(timeIntervalSince1970: 1_671_519_600)

        /// The subjects of the lesson cards: a `div`, or the `summary` that opens to the full name.
        static func subjects(in html: String) -> [String] {
            html.components(separatedBy: " class=\"subject\"").dropFirst().compactMap { part in
                guard let start = part.firstIndex(of: ">"), let end = part.range(of: "</") else { return nil }
                return String(part[part.index(after: start)..<end.lowerBound])
            }
        }

        @Test func lessonCardsSearchAndTheDatePicker() async throws {
            try await TestServer.run { server in
                try await server.importFixtures(["151004.json", "with_announcement.json"])
                // Study week 2: СП on Thursday at 12:25 is in weeks 2 and 4, the third pair.
                let week = try await server.request(.get, "/timetable/groups/151004?week=2023-10-02&view=list")
                #expect(week.status == .ok)
                #expect(week.text.contains("<span class=\"weeks\">weeks 2, 4</span>"))
                #expect(week.text.contains("<span class=\"pair\">pair 3</span>"))
                #expect(week.text.contains("<span class=\"pair\">pair 1</span>"))
                // The date picker keeps the view and shows the week's Monday.
                #expect(week.text.contains("id=\"jump-date\" required") && week.text.contains("value=\"2023-10-02\""))
                #expect(week.text.contains("<input type=\"hidden\" name=\"view\" value=\"list\">"))
                // Search by any part of a subject's name (short or full), in any case.
                let all = Self.subjects(in: week.text)
                let found = try await server.request(
                    .get, "/timetable/groups/151004?week=2023-10-02&view=list&q=%D0%B0%D0%BF%D1%80")
                let subjects = Self.subjects(in: found.text)
                #expect(!subjects.isEmpty && subjects.count < all.count)
                #expect(Set(subjects) == ["МиАПР"])
                // A date in the middle of a week opens that week.
                let jumped = try await server.request(.get, "/timetable/groups/151004?week=2023-10-05")
                #expect(jumped.text.contains("value=\"2023-10-05\"") && jumped.text.contains("Study week 2"))
                // An announcement is marked as one.
                let announcement = try await server.request(.get, "/timetable/groups/010201?week=2022-09-05&view=list")
                #expect(announcement.text.contains(" announcement\">"))
                #expect(announcement.text.contains("<span class=\"announcement-label\">Announcement</span>"))
            }
        }

        @Test func theExamSessionInDateOrder() async throws {
            try await TestServer.run(clock: TestClock(Self.beforeTheSession)) { server in
                try await server.importFixtures(["no_start_end_lesson_date_on_exams.json", "151004.json"])
                let page = try await server.request(.get, "/timetable/groups/913801?view=exams")
                #expect(page.status == .ok && page.text.contains("id=\"exam-session\""))
                let session = String(page.text[try #require(page.text.range(of: "id=\"exam-session\"")).lowerBound...])
                let dates = ["December 22, 2022", "December 23, 2022", "December 26, 2022", "December 31, 2022"]
                let places = try dates.map { try #require(session.range(of: $0)).lowerBound }
                #expect(places == places.sorted())
                #expect(session.contains("in 2 days") && session.contains("in 3 days"))
                #expect(Self.subjects(in: session).first == "ПОМС")
                // A group without exams says so.
                let none = try await server.request(.get, "/timetable/groups/151004?view=exams")
                #expect(none.text.contains("No exams or consultations this term."))
            }
        }

        @Test func aDatedCalendarNumbersTheWeeksOfTheYear() async throws {
            try await TestServer.run { server in
                try await server.importFixtures(["151004.json"])
                let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
                _ = try await StudyCalendarSetting(database: database).set(kind: "dated", termStart: nil)
                await database.close()
                // The week of 1 September 2023 began on 28 August: 25 September is in its fifth week.
                let page = try await server.request(.get, "/timetable/groups/151004?week=2023-09-25")
                #expect(page.text.contains("Week 5 of the academic year"))
            }
        }

        @Test func theDateTheInstitutionLastChangedASchedule() async throws {
            try await TestServer.run { server in
                try await server.importFixtures(["151004.json", "010101.json"])
                // What `campus sync iis` keeps from IIS's last-update dates.
                let changed = try #require(LocalDate(year: 2026, month: 11, day: 20))
                let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
                try await database.write { db in
                    try await db.raw(
                        "UPDATE study_groups SET last_update = \(bind: changed.dayNumber) WHERE name = '151004'"
                    ).run()
                }
                await database.close()
                let group = try await server.api().getGroup(path: .init(name: "151004")).ok.body.json
                #expect(group.term.lastChanged == "2026-11-20")
                let other = try await server.api().getGroup(path: .init(name: "010101")).ok.body.json
                #expect(other.term.lastChanged == nil)
                let page = try await server.request(.get, "/timetable/groups/151004")
                #expect(
                    page.text.contains(
                        "<span id=\"last-changed\">changed by the institution on November 20, 2026</span>"))
            }
        }

        @Test(arguments: TestDatabases.kinds)
        func seedFourWindowMessagesAndPairs(_ kind: Database.Kind) async throws {
            try await TestServer.run(kind) { server in
                let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
                let termStart = try #require(LocalDate(year: 2026, month: 2, day: 9))
                let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("FormatsTests/Data/odd-even/schedule.json").path
                _ = try await TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt)
                    .importOddEven(
                        files: [file], group: "24-ИСТ-1-1", termStart: termStart, termEnd: nil)
                await database.close()
                // Monday of the first (odd) week: maths 08:00–09:35, a window, programming 11:35.
                let api = server.api()
                let odd = try await api.getGroupSchedule(
                    path: .init(name: "24-ИСТ-1-1"), query: .init(from: "2026-02-09", to: "2026-02-09")
                ).ok.body.json.days[0]
                #expect(odd.windows.map(\.message) == ["Окно"])
                #expect(odd.windows.first?.start == "09:35" && odd.windows.first?.end == "11:35")
                // The page says it too, and numbers the pairs as the file did.
                let page = try await server.request(
                    .get, "/timetable/groups/24-%D0%98%D0%A1%D0%A2-1-1?week=2026-02-09&view=list")
                #expect(page.text.contains("<span class=\"window-message\">Окно</span>"))
                #expect(page.text.contains("<span class=\"pair\">pair 3</span>"))
                let pairs = try await server.request(.get, "/api/v1/rooms/free?date=2026-02-09&pair=3")
                #expect(pairs.json["start"] as? String == "11:35")
            }
        }

        /// The grid's rows for windows that hold no lesson's row: the institution's pairs inside
        /// the window, else the window itself; none for a window that holds one already.
        @Test func aWindowGetsARowOfItsOwnWhereNoneHoldsIt() throws {
            typealias Slot = SchedulePageBuilder.SlotKey
            func time(_ text: String) throws -> WallTime { try #require(WallTime(text)) }
            let day = try #require(LocalDate(year: 2026, month: 2, day: 9))
            func occurrence(_ start: String, _ end: String) throws -> Occurrence {
                Occurrence(
                    lesson: Lesson(subject: "S", start: try time(start), end: try time(end), date: day), date: day)
            }
            let windows = Schedule.windows(in: [try occurrence("09:00", "10:20"), try occurrence("12:25", "13:45")])
            try #require(windows.count == 1)
            let lessons: Set<Slot> = [
                Slot(start: try time("09:00"), end: try time("10:20")),
                Slot(start: try time("12:25"), end: try time("13:45")),
            ]
            func rows(_ lessons: Set<Slot>, _ pairs: PairTimes) -> [String] {
                SchedulePageBuilder.gridSlots(lessons, windows: windows, pairs: pairs).map { "\($0.start)–\($0.end)" }
            }
            // BSUIR's second pair lies in the window 10:20–12:25.
            #expect(rows(lessons, .bsuir) == ["09:00–10:20", "10:35–11:55", "12:25–13:45"])
            // No pair fits in it: the window itself.
            let early = try #require(PairTimes(text: "08:00-09:30"))
            #expect(rows(lessons, early) == ["09:00–10:20", "10:20–12:25", "12:25–13:45"])
            // Another day's lesson at 10:35 is a row in the window already: nothing is added.
            let other = lessons.union([Slot(start: try time("10:35"), end: try time("11:55"))])
            #expect(rows(other, early) == ["09:00–10:20", "10:35–11:55", "12:25–13:45"])
        }

        /// The week grid shows the windows the day list shows, with their times and messages (issue
        /// 35, item 25): odd Mondays' second pair is a window no lesson of the week shares, so the
        /// grid gets a row for that pair.
        @Test func windowsAreInTheWeekGridToo() async throws {
            try await TestServer.run { server in
                let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
                let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("FormatsTests/Data/odd-even/schedule.json").path
                _ = try await TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt)
                    .importOddEven(
                        files: [file], group: "24-ИСТ-1-1", termStart: LocalDate(year: 2026, month: 2, day: 9),
                        termEnd: nil)
                await database.close()
                let page = try await server.request(
                    .get, "/timetable/groups/24-%D0%98%D0%A1%D0%A2-1-1?week=2026-02-09&view=grid")
                let gridStart = try #require(page.text.range(of: "id=\"week-grid\""))
                let gridEnd = try #require(page.text.range(of: "id=\"day-list\""))
                let grid = String(page.text[gridStart.lowerBound..<gridEnd.lowerBound])
                #expect(grid.contains("<th class=\"time-col\">09:45–11:20</th>"))
                #expect(grid.contains("Free 09:35–11:35 · 2 h"))
                #expect(grid.contains("<span class=\"window-message\">Окно</span>"))
                // Rows in time order: the window's between the lessons'.
                let rows = ["08:00–09:35", "09:45–11:20", "11:35–13:10"].compactMap {
                    grid.range(of: "<th class=\"time-col\">\($0)</th>")?.lowerBound
                }
                #expect(rows.count == 3 && rows == rows.sorted())
                // The even week has no window: no row is added.
                let even = try await server.request(
                    .get, "/timetable/groups/24-%D0%98%D0%A1%D0%A2-1-1?week=2026-02-16&view=grid")
                #expect(even.status == .ok && !even.text.contains("window-label") && !even.text.contains("window-bar"))
            }
        }

        /// A page reads a date or a number in its query exactly as the API does: a `+` (a space in
        /// a query) or a space around it makes it no date, and no number.
        @Test func queryValuesAreReadExactly() async throws {
            try await TestServer.run { server in
                try await server.importFixtures(["151004.json"])
                let page = "/timetable/groups/151004"
                #expect(try await server.request(.get, "\(page)?week=2023-10-02").status == .ok)
                for week in ["+2023-10-02", "%202023-10-02", "2023-10-02+", "%2B2023-10-02", "2023-10-02%20"] {
                    let answer = try await server.request(
                        .get, "\(page)?week=\(week)", headers: [.accept: "text/html"])
                    #expect(answer.status == .unprocessableContent, "\(week)")
                }
                // The API refuses the same.
                let api = try await server.request(
                    .get, "/api/v1/groups/151004/schedule?from=%2B2023-10-02&to=2023-10-08")
                #expect(api.status == .unprocessableContent)
                // A number with a sign or a space is no subgroup: the whole group shows.
                let signed = try await server.request(.get, "\(page)?week=2023-10-02&subgroup=+2")
                #expect(signed.status == .ok && signed.text.contains(#"aria-current="true">All</a>"#))
                let two = try await server.request(.get, "\(page)?week=2023-10-02&subgroup=2")
                #expect(two.text.contains(#"aria-current="true">Subgroup 2</a>"#))
                // Searches are still what people type: spaces around them do not count.
                let search = try await server.request(
                    .get, "\(page)?week=2023-10-02&view=list&q=+%D0%B0%D0%BF%D1%80+")
                #expect(Set(Self.subjects(in: search.text)) == ["МиАПР"])
            }
        }
    }
}
