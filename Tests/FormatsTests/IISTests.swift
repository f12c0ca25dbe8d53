import CampusTestSupport
import Foundation
import Testing
import Timetable

@testable import Formats

func day(_ text: String) -> LocalDate { LocalDate(dotted: text)! }

@Suite struct IISTests {
    @Test func everyFixtureIsRead() throws {
        #expect(Fixtures.iisFiles.count == 7)
        for file in Fixtures.iisFiles {
            let data = try Fixtures.data("iis/\(file)")
            let result = try IIS.read(data, file: file)
            #expect(!result.groups.isEmpty || !result.teachers.isEmpty, "\(file)")
        }
    }

    @Test func theSchedulesOf151004() throws {
        let result = try IIS.read(try Fixtures.data("iis/151004.json"))
        let schedule = try #require(result.schedules.first)
        #expect(schedule.owner == .group("151004"))
        #expect(schedule.term == TermDates(lessonsStart: day("01.09.2023"), lessonsEnd: day("21.12.2023")))
        #expect(schedule.lessons.count == 42)
        // Weekdays come from the keys of `schedules`.
        var perDay: [Weekday: Int] = [:]
        for lesson in schedule.lessons { perDay[lesson.weekday!, default: 0] += 1 }
        #expect(perDay == [.monday: 10, .tuesday: 7, .wednesday: 11, .thursday: 7, .friday: 4, .saturday: 3])
        // Lessons without teachers or rooms are kept.
        #expect(schedule.lessons.filter { $0.teachers.isEmpty }.count == 7)
        #expect(schedule.lessons.filter { $0.rooms.isEmpty }.count == 7)
        #expect(schedule.lessons.allSatisfy { $0.groups == ["151004"] })
        // The group's own record, with speciality and faculty.
        let group = try #require(result.groups.first { $0.name == "151004" })
        #expect(group.course == 3)
        #expect(group.specialityID == 20022)
        #expect(group.studentCount == 28)
        #expect(result.specialities.first?.abbreviation == "ПОИТ")
        #expect(result.faculties.first?.abbreviation == "ФКСиС")
        // Rooms: "213a-4 к." has a Latin a and is the same room as 213а.
        let rooms = Set(result.rooms.map(\.key.displayName))
        #expect(rooms.contains("213б-4"))
        #expect(rooms.contains("213а-4"))
        #expect(!rooms.contains("213a-4"))
        #expect(rooms.contains("04-4"))
        let basement = try #require(result.rooms.first { $0.key.name == "04" })
        #expect(basement.floor == 0)
        #expect(result.rooms.first { $0.key.displayName == "604-2" }?.floor == nil)
        #expect(result.rooms.first { $0.key.displayName == "209-4" }?.floor == 2)
        // Teachers embedded in lessons carry the full degree and its abbreviation.
        #expect(result.teachers.count == 13)
        let teacher = try #require(result.teachers.first { $0.urlID == "n-novitskaia" })
        #expect(teacher.lastName == "Новицкая")
    }

    @Test func weeksAndSubgroupsOf010101() throws {
        let schedule = try #require(try IIS.read(try Fixtures.data("iis/010101.json")).schedules.first)
        #expect(schedule.lessons.count == 39)
        #expect(schedule.lessons.filter { $0.weeks == [2, 4] }.count == 13)
        // [1, 2, 3, 4] is every week.
        #expect(schedule.lessons.filter { $0.weeks.isEmpty }.count == 2)
        #expect(Set(schedule.lessons.map(\.subgroup)) == [0, 1, 2])
        #expect(schedule.lessons.allSatisfy { $0.dateRange != nil && $0.date == nil && !$0.isExam })
    }

    @Test func examsWithoutLessonDatesAreDated() throws {
        let schedule = try #require(
            try IIS.read(try Fixtures.data("iis/no_start_end_lesson_date_on_exams.json")).schedules.first)
        let exams = schedule.lessons.filter(\.isExam)
        #expect(exams.count == 10)
        #expect(exams.allSatisfy { $0.date != nil && $0.weekday == nil && $0.weeks.isEmpty })
        #expect(exams.map { $0.date!.dotted }.contains("31.12.2022"))
        #expect(exams.filter { $0.typeID == "Экзамен" }.count == 5)
        #expect(schedule.term?.examsStart == day("22.12.2022"))
        #expect(schedule.term?.examsEnd == day("10.01.2023"))
    }

    @Test func onlyExamsAndTheAnnouncementOnlyRecord() throws {
        let result = try IIS.read(try Fixtures.data("iis/only_exams.json"))
        let schedule = try #require(result.schedules.first)
        #expect(schedule.lessons.count == 24)
        #expect(schedule.term?.lessonsStart == nil)
        let announcement = try #require(schedule.lessons.first { $0.isAnnouncement })
        // Its subject is missing; its times come from announcementStart and announcementEnd.
        #expect(announcement.subject == "Announcement")
        #expect(announcement.note == "Организационное собрание, ауд. 112-3")
        #expect(announcement.start.description == "11:00")
        #expect(announcement.end.description == "12:00")
        #expect(announcement.typeID == nil)
        #expect(announcement.rooms.isEmpty)
        #expect(announcement.date == day("26.09.2022"))
    }

    @Test func announcementsWithDatesKeepTheirLessonTimes() throws {
        let schedule = try #require(try IIS.read(try Fixtures.data("iis/with_announcement.json")).schedules.first)
        let lesson = try #require(schedule.lessons.first)
        #expect(lesson.isAnnouncement)
        #expect(lesson.start.description == "10:35")
        #expect(lesson.weekday == .saturday)
        #expect(lesson.weeks.isEmpty)
        #expect(lesson.rooms.map(\.displayName) == ["139-1", "31-1"])
    }

    @Test func theGroupAndEmployeeLists() throws {
        let groups = try IIS.read(try Fixtures.data("iis/groups.json"))
        #expect(groups.groups.count == 327)
        #expect(groups.groups.filter { $0.course == nil }.count == 33)
        #expect(Set(groups.faculties.map(\.id)).count == 8)
        #expect(Set(groups.specialities.map(\.id)).count == 79)
        let employees = try IIS.read(try Fixtures.data("iis/employees.json"))
        #expect(employees.teachers.count == 568)
        #expect(Set(employees.teachers.map(\.urlID)).count == 568)
        // Departments are keyed without "Каф.".
        #expect(employees.departments.map(\.abbreviation).contains("ПОИТ"))
        #expect(employees.departments.map(\.abbreviation).contains("Информатики"))
        #expect(employees.teachers.filter { $0.departments?.isEmpty == true }.count == 4)
        // In the list, `degree` is the abbreviation.
        let abramov = try #require(employees.teachers.first { $0.urlID == "i-abramov" })
        #expect(abramov.degreeAbbreviation == "д.ф.-м.н.")
        #expect(abramov.degree == nil)
    }

    @Test func otherListsAreRead() throws {
        let faculties = try IIS.read(
            Data(#"[{"id":20026,"name":"Факультет компьютерных систем и сетей","abbrev":"ФКСиС"}]"#.utf8))
        #expect(
            faculties.faculties == [
                Faculty(id: 20026, name: "Факультет компьютерных систем и сетей", abbreviation: "ФКСиС")
            ])
        let specialities = try IIS.read(
            Data(
                #"[{"id":20022,"name":"Программное обеспечение информационных технологий","abbrev":"ПОИТ","code":"1-40 01 01","facultyId":20026,"educationForm":{"id":1,"name":"дневная"}}]"#
                    .utf8))
        #expect(specialities.specialities.first?.educationForm == EducationForm(id: 1, name: "Дневная"))
        let departments = try IIS.read(
            Data(
                #"[{"id":20038,"name":"Кафедра программного обеспечения информационных технологий","abbrev":"Каф.ПОИТ"}]"#
                    .utf8))
        #expect(departments.departments.first?.abbreviation == "ПОИТ")
        let (auditories, skipped) = try IIS.auditories(
            Data(
                #"""
                [{"id":1,"name":"604","note":null,"capacity":30,"auditoryType":{"id":2,"name":"лекционная","abbrev":"лк"},"buildingNumber":{"id":5,"name":"5 к."},"department":{"idDepartment":20038,"name":"Кафедра ПОИТ","abbrev":"Каф.ПОИТ"}},
                 {"id":2,"name":"101","auditoryType":{"id":1,"name":"практическая","abbrev":"пз"},"buildingNumber":{"id":9,"name":"Общежитие №4"}},
                 {"id":3,"name":"epam 103 к1","auditoryType":{"id":1,"name":"практическая","abbrev":"пз"},"buildingNumber":{"id":2,"name":"2 к."}}]
                """#.utf8))
        #expect(auditories.rooms.map(\.key.displayName) == ["604-5", "epam 103 к1-2"])
        #expect(auditories.rooms[0].floor == 6)
        #expect(auditories.rooms[0].type == RoomType(name: "Лекционная", abbreviation: "ЛК"))
        #expect(auditories.rooms[0].departmentAbbreviation == "ПОИТ")
        #expect(auditories.rooms[1].isOffCampus)
        #expect(skipped == ["101 (Общежитие №4)"])
    }

    @Test func anEmployeeScheduleIsTheTeachersOwn() throws {
        let json = #"""
            {"startDate":"01.09.2023","endDate":"21.12.2023","startExamsDate":null,"endExamsDate":null,
             "employeeDto":{"id":505741,"urlId":"i-kirinovich","firstName":"Ирина","middleName":"Федоровна","lastName":"Киринович","degree":"к.т.н.","rank":"доцент","photoLink":"https://iis.bsuir.by/api/v1/employees/photo/505741"},
             "studentGroupDto":null,
             "schedules":{"Вторник":[{"subject":"СПО","subjectFullName":"Системное программное обеспечение","lessonTypeAbbrev":"ЛК","startLessonTime":"12:25","endLessonTime":"13:45","weekNumber":[1,3],"numSubgroup":0,"auditories":["604-2 к."],"employees":[],"studentGroups":[{"name":"010101","numberOfStudents":27},{"name":"010102","numberOfStudents":25}],"startLessonDate":"05.09.2023","endLessonDate":"19.12.2023","announcement":false}]},
             "exams":[]}
            """#
        let result = try IIS.read(Data(json.utf8))
        let schedule = try #require(result.schedules.first)
        #expect(schedule.owner == .teacher("i-kirinovich"))
        let lesson = try #require(schedule.lessons.first)
        #expect(lesson.teachers == ["i-kirinovich"])
        #expect(lesson.groups == ["010101", "010102"])
        #expect(result.groups.map(\.name) == ["010101", "010102"])
        #expect(result.teachers.first?.degreeAbbreviation == "к.т.н.")
    }

    @Test func swappedDatesAreSwappedBack() throws {
        let json = #"""
            {"studentGroupDto":{"name":"999999"},"schedules":{"Понедельник":[{"subject":"X","startLessonTime":"09:00","endLessonTime":"10:20","startLessonDate":"21.12.2023","endLessonDate":"04.09.2023","weekNumber":[0],"numSubgroup":0}]},"exams":null}
            """#
        let lesson = try #require(try IIS.read(Data(json.utf8)).schedules.first?.lessons.first)
        #expect(lesson.dateRange == day("04.09.2023")...day("21.12.2023"))
        #expect(lesson.weeks.isEmpty)
    }

    @Test(arguments: [
        (
            #"{"studentGroupDto":{"name":"1"},"schedules":{"Понедельник":[{"subject":"X","startLessonTime":"9-00","endLessonTime":"10:20"}]}}"#,
            #"x.json: schedules.Понедельник[0].startLessonTime: “9-00” is not a time like 09:00."#
        ),
        (
            #"{"studentGroupDto":{"name":"1"},"schedules":{"Funday":[]}}"#,
            "x.json: schedules.Funday: is not a weekday; expected Понедельник … Воскресенье."
        ),
        (
            #"{"studentGroupDto":{"name":"1"},"schedules":{"Понедельник":[{"subject":"X","startLessonTime":"09:00","endLessonTime":"10:20","weekNumber":"1"}]}}"#,
            "x.json: schedules.Понедельник[0].weekNumber: expected a list."
        ),
        (
            #"{"studentGroupDto":{"name":"1"},"exams":[{"subject":"X","startLessonTime":"09:00","endLessonTime":"10:20"}]}"#,
            "x.json: exams[0].dateLesson: is missing: a lesson in exams needs its date."
        ),
        (
            #"{"studentGroupDto":{"name":"1"},"schedules":{"Понедельник":[{"subject":"X","startLessonTime":"11:00","endLessonTime":"10:20"}]}}"#,
            "x.json: schedules.Понедельник[0].endLessonTime: 10:20 is not after the start time 11:00."
        ),
        (
            #"{"studentGroupDto":{"name":"1"},"schedules":{"Понедельник":[{"subject":"X","startLessonTime":"09:00","endLessonTime":"10:20","startLessonDate":"31.02.2023"}]}}"#,
            #"x.json: schedules.Понедельник[0].startLessonDate: “31.02.2023” is not a date like 01.09.2023."#
        ),
        (#"{"schedules":{}}"#, "x.json: studentGroupDto: is missing, and so is employeeDto: whose schedule is this?"),
        (#"{"studentGroupDto":{"name":"1"}, "#, "x.json: is not valid JSON."),
        ("[]", "x.json: is an empty list, or a list of something other than objects."),
        (#"{"hello":1}"#, #"x.json: is not an IIS schedule: it has no “schedules”, “exams” or “studentGroupDto”."#),
    ])
    func badFilesAreExplainedByFileAndField(_ json: String, _ message: String) {
        #expect(throws: ImportError.self) { try IIS.read(Data(json.utf8), file: "x.json") }
        do {
            _ = try IIS.read(Data(json.utf8), file: "x.json")
        } catch {
            #expect(String(describing: error) == message)
        }
    }

    @Test func roomStrings() {
        #expect(IIS.room("604-5 к.")?.key == RoomKey(name: "604", building: 5))
        #expect(IIS.room("604-5 к.")?.floor == 6)
        #expect(IIS.room("epam 104 к1-2 к.")?.key == RoomKey(name: "epam 104 к1", building: 2))
        #expect(IIS.room("epam 104 к1-2 к.")?.isOffCampus == true)
        #expect(IIS.room("Спортзал")?.key == RoomKey(name: "Спортзал", building: nil))
        #expect(IIS.room("  ") == nil)
        #expect(IIS.room("207а-5 к.")?.key.name == "207а")
        #expect(IIS.room("213a-4 к.")?.key.name == "213а")
        #expect(IIS.room("31-1 к.")?.floor == 0)
        #expect(IIS.room("111(3)-1 к.")?.floor == 1)
    }

    @Test func lastUpdateDates() throws {
        #expect(try IIS.lastUpdate(Data(#"{"lastUpdateDate":"17.11.2023"}"#.utf8)) == day("17.11.2023"))
        #expect(throws: ImportError.self) { try IIS.lastUpdate(Data(#"{"date":"17.11.2023"}"#.utf8)) }
    }

    @Test func identityIgnoresTeachersAndNotesButNotGroups() {
        let a = ImportedLesson(
            subject: "СПО", start: WallTime("09:00")!, end: WallTime("10:20")!, weekday: .monday, teachers: ["a"],
            groups: ["1", "2"], note: "x")
        var b = a
        b.teachers = ["b"]
        b.note = nil
        b.groups = ["2", "1"]
        #expect(a.identity == b.identity)
        b.groups = ["1"]
        #expect(a.identity != b.identity)
    }
}
