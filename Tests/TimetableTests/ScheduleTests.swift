import Foundation
import Testing

@testable import Timetable

@Suite struct ScheduleTests {
    func lesson(
        _ subject: String, _ start: String, _ end: String, weekday: Weekday? = .monday, weeks: Set<Int> = [],
        subgroup: Int = 0, range: ClosedRange<LocalDate>? = day("01.09.2023")...day("21.12.2023"),
        date: LocalDate? = nil, id: Int64 = 0
    ) -> Lesson {
        Lesson(
            id: id, subject: subject, start: WallTime(start)!, end: WallTime(end)!,
            weekday: date == nil ? weekday : nil,
            weeks: weeks, subgroup: subgroup, dateRange: date == nil ? range : nil, date: date)
    }

    @Test func aLessonOccursOnItsWeekdayInItsWeeksWithinItsDates() {
        let oddMondays = lesson("СПО", "09:00", "10:20", weeks: [1, 3])
        // 04.09.2023 is week 2, 11.09 week 3, 18.09 week 4, 25.09 week 1.
        #expect(!oddMondays.occurs(on: day("04.09.2023"), calendar: .bsuir))
        #expect(oddMondays.occurs(on: day("11.09.2023"), calendar: .bsuir))
        #expect(!oddMondays.occurs(on: day("12.09.2023"), calendar: .bsuir))
        #expect(oddMondays.occurs(on: day("25.09.2023"), calendar: .bsuir))
        #expect(!oddMondays.occurs(on: day("25.12.2023"), calendar: .bsuir))
        let days = oddMondays.days(in: day("01.09.2023")...day("31.10.2023"), calendar: .bsuir)
        #expect(days.map(\.dotted) == ["11.09.2023", "25.09.2023", "09.10.2023", "23.10.2023"])
        #expect(days.allSatisfy { oddMondays.occurs(on: $0, calendar: .bsuir) })
    }

    @Test func datedLessonsOccurOnceWhateverTheirWeekday() {
        let exam = lesson("Экз", "09:00", "14:00", date: day("10.01.2023"))
        #expect(exam.occurs(on: day("10.01.2023"), calendar: .bsuir))
        #expect(!exam.occurs(on: day("17.01.2023"), calendar: .bsuir))
        #expect(exam.days(in: day("01.01.2023")...day("31.01.2023"), calendar: .bsuir) == [day("10.01.2023")])
        #expect(exam.days(in: day("11.01.2023")...day("31.01.2023"), calendar: .bsuir).isEmpty)
    }

    @Test func occurrencesAreSortedAndFilteredBySubgroupAndSubject() {
        let lessons = [
            lesson("Лаба", "09:00", "10:20", subgroup: 2, id: 1),
            lesson("Лекция", "10:35", "11:55", id: 2),
            lesson("Лаба", "09:00", "10:20", subgroup: 1, id: 3),
            lesson("Лекция", "09:00", "10:20", weekday: .tuesday, id: 4),
        ]
        let week = Schedule.week(holding: day("11.09.2023"))
        let all = Schedule.occurrences(of: lessons, in: week, calendar: .bsuir)
        #expect(all.map(\.lesson.id) == [3, 1, 2, 4])
        let first = Schedule.occurrences(of: lessons, in: week, calendar: .bsuir, filter: ScheduleFilter(subgroup: 1))
        #expect(first.map(\.lesson.id) == [3, 2, 4])
        let lectures = Schedule.occurrences(
            of: lessons, in: week, calendar: .bsuir, filter: ScheduleFilter(subjects: ["лекция"]))
        #expect(lectures.map(\.lesson.id) == [2, 4])
        // A subgroup of one group: another group's subgroups all stay (a saved schedule in mine).
        var other = lesson("Чужая", "12:25", "13:45", subgroup: 2, id: 5)
        other.groups = ["010101"]
        var mine = lesson("Своя", "12:25", "13:45", subgroup: 2, id: 6)
        mine.groups = ["151004"]
        let scoped = ScheduleFilter(subgroup: 1, subgroupOf: ["151004"])
        #expect(scoped.admits(other) && !scoped.admits(mine))
        #expect(!ScheduleFilter(subgroup: 1).admits(other))
    }

    @Test func windowsAreGapsBetweenLessonsNotBeforeOrAfter() {
        let lessons = [
            lesson("A", "09:00", "10:20", subgroup: 1),
            lesson("B", "09:00", "11:55", subgroup: 2),
            lesson("C", "12:25", "13:45"),
            lesson("D", "15:50", "17:10"),
        ]
        let occurrences = Schedule.occurrences(
            of: lessons, in: day("11.09.2023")...day("11.09.2023"), calendar: .bsuir)
        let windows = Schedule.windows(in: occurrences)
        #expect(windows.count == 1)
        #expect(windows.first?.start.description == "13:45")
        #expect(windows.first?.end.description == "15:50")
        #expect(windows.first?.minutes == 125)
        // A 30-minute lunch break is not a window unless asked for.
        #expect(Schedule.windows(in: occurrences, minimumMinutes: 30).count == 2)
    }

    @Test func nowAndNext() {
        let lessons = [lesson("A", "09:00", "10:20"), lesson("B", "10:35", "11:55")]
        let occurrences = Schedule.occurrences(
            of: lessons, in: day("11.09.2023")...day("18.09.2023"), calendar: .bsuir)
        let during = Schedule.nowAndNext(
            in: occurrences, at: LocalDateTime(date: day("11.09.2023"), minutes: 9 * 60 + 30))
        #expect(during.current.map(\.lesson.subject) == ["A"])
        #expect(during.minutesLeft == 50)
        #expect(during.next?.lesson.subject == "B")
        #expect(during.minutesUntilNext == 65)
        let evening = Schedule.nowAndNext(in: occurrences, at: LocalDateTime(date: day("11.09.2023"), minutes: 20 * 60))
        #expect(evening.current.isEmpty)
        #expect(evening.next?.date == day("18.09.2023"))
        #expect(evening.minutesUntilNext == 7 * 1440 - 11 * 60)
    }
}

@Suite struct ListingTests {
    let faculties = [20026: Faculty(id: 20026, name: nil, abbreviation: "ФКСиС")]
    let specialities = [
        20022: Speciality(
            id: 20022, name: "Программное обеспечение информационных технологий", abbreviation: "ПОИТ",
            facultyID: 20026,
            educationForm: EducationForm(id: 1, name: "Дневная"))
    ]

    @Test func groupsAreFoundByNameOrSpecialityAndSectioned() {
        let groups = [
            StudyGroup(name: "151004", course: 3, facultyID: 20026, specialityID: 20022),
            StudyGroup(name: "151003", course: 3, facultyID: 20026, specialityID: 20022),
            StudyGroup(name: "010101", course: 4),
        ]
        let byName = Listing.groups(
            groups, specialities: specialities, faculties: faculties, filter: .init(search: "1510"),
            sections: .speciality)
        #expect(byName.map(\.title) == ["ПОИТ (ФКСиС, дневная)"])
        #expect(byName.first?.items.map(\.name) == ["151003", "151004"])
        let bySpeciality = Listing.groups(
            groups, specialities: specialities, faculties: faculties, filter: .init(search: "поит"), sections: .flow)
        #expect(bySpeciality.flatMap(\.items).count == 2)
        let byWord = Listing.groups(
            groups, specialities: specialities, faculties: faculties, filter: .init(search: "программн"),
            sections: .faculty)
        #expect(byWord.map(\.title) == ["ФКСиС"])
        let all = Listing.groups(
            groups, specialities: specialities, faculties: faculties, filter: .init(), sections: .speciality)
        #expect(all.map(\.title) == ["ПОИТ (ФКСиС, дневная)", "No speciality"])
        let fourth = Listing.groups(
            groups, specialities: specialities, faculties: faculties, filter: .init(course: 4), sections: .course)
        #expect(fourth.map(\.title) == ["Course 4"])
    }

    @Test func teachersAreFoundByAnyNamePartAndSectioned() {
        let teachers = [
            Teacher(
                id: 1, urlID: "i-kirinovich", firstName: "Ирина", middleName: "Федоровна", lastName: "Киринович",
                rank: "доцент", degreeAbbreviation: "к.т.н.", departments: ["ПОИТ"]),
            Teacher(
                id: 2, urlID: "a-aksenov", firstName: "Артём", middleName: "Юрьевич", lastName: "Аксёнов",
                departments: ["ПОИТ", "ЭВМ"]),
        ]
        #expect(Listing.teachers(teachers, search: "кир ир", sections: .letter).flatMap(\.items).map(\.id) == [1])
        #expect(Listing.teachers(teachers, search: "аксенов", sections: .letter).flatMap(\.items).map(\.id) == [2])
        #expect(Listing.teachers(teachers, search: "артем", sections: .letter).flatMap(\.items).map(\.id) == [2])
        #expect(Listing.teachers(teachers, search: "эвм", sections: .letter).flatMap(\.items).map(\.id) == [2])
        let byDepartment = Listing.teachers(teachers, search: nil, sections: .department)
        #expect(byDepartment.map(\.title) == ["ПОИТ", "ЭВМ"])
        #expect(byDepartment.first?.items.count == 2)
        #expect(Listing.teachers(teachers, search: nil, sections: .rank).map(\.title) == ["доцент", "No rank"])
        #expect(Listing.teachers(teachers, search: nil, sections: .letter).map(\.title) == ["А", "К"])
    }

    @Test func roomsAreSectionedByBuildingAndFloorWithOffCampusLast() {
        let rooms = [
            Room(id: 1, name: "604", building: 5, floor: 6, type: RoomType(name: "Лекционная", abbreviation: "лк")),
            Room(id: 2, name: "epam 104 к1", building: 2, isOffCampus: true),
            Room(id: 3, name: "213б", building: 4, floor: 2),
            Room(id: 4, name: "209", building: 4, floor: 2),
        ]
        let byBuilding = Listing.rooms(rooms, search: nil, sections: .building)
        #expect(byBuilding.map(\.title) == ["Building 4", "Building 5", "Off campus"])
        #expect(byBuilding.first?.items.map(\.displayName) == ["209-4", "213б-4"])
        #expect(Listing.rooms(rooms, search: "604-5", sections: .floor).map(\.title) == ["Building 5, floor 6"])
        #expect(Listing.rooms(rooms, search: nil, type: "лк", sections: .building).flatMap(\.items).map(\.id) == [1])
    }

    @Test func departmentKeys() {
        #expect(Department.key("Каф.информатики") == "Информатики")
        #expect(Department.key("Каф.ПОИТ") == "ПОИТ")
        #expect(Department.key("ИСиТ") == "ИСиТ")
    }
}
