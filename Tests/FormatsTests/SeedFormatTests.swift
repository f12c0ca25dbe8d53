import Foundation
import Testing
import Timetable

@testable import Formats

/// Files in the formats of seed 004 ("Schedule") and seed 003 ("KMAScheduler"). The KMA
/// schedule.json is the app's own sample; the others follow its decoders field for field.
func sample(_ path: String) throws -> Data {
    try Data(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/\(path)"))
}

@Suite struct OddEvenScheduleTests {
    @Test func aWeeklyScheduleOfOddAndEvenWeeks() throws {
        let data = try OddEvenSchedule.schedule(
            try sample("odd-even/schedule.json"), group: "24-ИСТ-1-1", termStart: day("09.02.2026"))
        let lessons = try #require(data.schedules.first?.lessons)
        #expect(data.schedules.first?.owner == .group("24-ИСТ-1-1"))
        #expect(lessons.count == 3)
        let maths = try #require(lessons.first { $0.subject == "Математика" })
        #expect(maths.weekday == .monday)
        #expect(maths.weeks == [1])
        #expect(maths.typeID == "lecture")
        #expect(maths.start.description == "08:00")
        #expect(maths.rooms == [RoomKey(name: "3301", building: nil)])
        #expect(maths.teachers == ["sidorova"])
        #expect(maths.dateRange?.lowerBound == day("09.02.2026"))
        #expect(lessons.first { $0.subject == "Физика" }?.weeks == [2])
        #expect(lessons.first { $0.subject == "Программирование" }?.rooms.isEmpty == true)
        // The free slot's message, and the pairs the file numbers, are kept (issue 16, item 5).
        #expect(
            data.windowNotes["24-ИСТ-1-1"] == [
                WindowNote(
                    weekday: .monday, weeks: [1], start: try #require(WallTime("09:45")),
                    end: try #require(WallTime("11:20")), text: "Окно")
            ])
        #expect(data.pairTimes?.text == "08:00-09:35 09:45-11:20 11:35-13:10")
        let sidorova = try #require(data.teachers.first { $0.urlID == "sidorova" })
        #expect(sidorova.lastName == "Сидорова")
        #expect(sidorova.firstName == "Е.")
        #expect(sidorova.middleName == "В.")
        // Odd and even weeks follow the term start.
        let calendar = StudyCalendar.oddEven(termStart: day("09.02.2026"))
        let lesson = Lesson(
            subject: maths.subject, start: maths.start, end: maths.end, weekday: maths.weekday, weeks: maths.weeks,
            dateRange: maths.dateRange)
        #expect(
            lesson.days(in: day("09.02.2026")...day("08.03.2026"), calendar: calendar).map(\.dotted)
                == ["09.02.2026", "23.02.2026"])
    }

    @Test func teacherCardsAndTheUsersGroup() throws {
        let data = try OddEvenSchedule.teachers(try sample("odd-even/teachers.json"))
        #expect(data.teachers.count == 3)
        #expect(data.teacherCards["sidorova"]?.marksAttendance == .yes)
        #expect(data.teacherCards["sidorova"]?.automaticPassPossible == true)
        #expect(data.teacherCards["sidorova"]?.description == "Строгая, но объясняет понятно.")
        #expect(data.teacherCards["ivanov"]?.marksAttendance == .sometimes)
        #expect(data.teacherCards["petrov"]?.automaticPassPossible == nil)
        #expect(try OddEvenSchedule.group(fromUser: try sample("odd-even/user.json")) == "24-ИСТ-1-1")
        #expect(OddEvenSchedule.kind(of: try sample("odd-even/user.json")) == .user)
        #expect(OddEvenSchedule.kind(of: try sample("odd-even/schedule.json")) == .schedule)
    }

    @Test(arguments: [
        (
            #"{"oddWeek":{"days":[{"weekday":1,"slots":[{"pairNumber":1,"startTime":"08:00","endTime":"09:35","lesson":{"name":"X","type":"seminar","teacher":{"id":"a","name":"A"}}}]}]},"evenWeek":{"days":[]}}"#,
            #"s.json: oddWeek.days[0].slots[0].lesson.type: “seminar” is not a lesson type; expected lecture, practice or lab."#
        ),
        (
            #"{"oddWeek":{"days":[{"weekday":9,"slots":[]}]},"evenWeek":{"days":[]}}"#,
            "s.json: oddWeek.days[0].weekday: 9 is not a weekday (1 Monday … 7 Sunday)."
        ),
        (#"{"oddWeek":{"days":[]}}"#, "s.json: evenWeek: is missing."),
        (
            #"{"oddWeek":{"days":[{"weekday":1,"slots":[{"pairNumber":1,"startTime":"08:00","endTime":"09:35"},{"pairNumber":1,"startTime":"09:45","endTime":"11:20"}]}]},"evenWeek":{"days":[]}}"#,
            "s.json: oddWeek.days[0].slots[1].pairNumber: pair 1 is on this day twice."
        ),
    ])
    func badFilesNameTheField(_ json: String, _ message: String) {
        #expect(throws: ImportError.self) { try OddEvenSchedule.schedule(Data(json.utf8), group: "g", file: "s.json") }
        do {
            _ = try OddEvenSchedule.schedule(Data(json.utf8), group: "g", file: "s.json")
        } catch {
            #expect(String(describing: error) == message)
        }
    }
}

@Suite struct KMAScheduleTests {
    @Test func subjectsAndDatedLessons() throws {
        let data = try KMASchedule.read(
            subjects: try sample("kma/subjects.json"), schedule: try sample("kma/schedule.json"))
        #expect(data.subjects.count == 5)
        #expect(data.subjects.first { $0.id == 11 }?.kind == .freeChoice)
        #expect(data.subjects.first { $0.id == 294624 }?.kind == .professional)
        // A group for every group of every subject, each with its schedule.
        #expect(data.groups.count == 4 + 2 + 3 + 3 + 1)
        #expect(data.schedules.count == data.groups.count)
        // The title is the subject's name alone: no English word is stored beside it.
        #expect(data.groups.first { $0.name == "294624-3" }?.title == "Розробка iOS-застосунків")
        let ios = try #require(data.schedules.first { $0.owner == .group("294624-3") }?.lessons.first)
        #expect(ios.date == day("11.04.2024"))
        #expect(ios.start.description == "11:40")
        #expect(ios.end.description == "13:00")
        #expect(ios.rooms == [RoomKey(name: "1-120", building: nil)])
        // The room keeps the place the file gives (issue 16, item 4).
        let room = try #require(data.rooms.first { $0.key.name == "1-120" })
        #expect(room.point == MapPoint(latitude: 50.464187, longitude: 30.520186))
        // Two subjects the sample files under id 3 stay two lessons of group 3-1.
        #expect(
            data.schedules.first { $0.owner == .group("3-1") }?.lessons.map(\.subject).sorted() == [
                "Кібербезпека", "Менеджмент",
            ])
    }

    @Test func placesMustBeOnTheGlobe() throws {
        func read(_ place: String) throws -> TimetableImport {
            try KMASchedule.read(
                subjects: try sample("kma/subjects.json"),
                schedule: Data(
                    #"[{"id":3,"name":"Менеджмент","group":1,"date":"11.04.2024","time":"08:30","auditorium":"7-105",\#(place)}]"#
                        .utf8), scheduleFile: "schedule.json")
        }
        #expect(try read(#""latitude":0,"longitude":0"#).rooms.first?.point == nil)  // 0, 0: no place
        #expect(try read(#""latitude":50,"longitude":30"#).rooms.first?.point == MapPoint(latitude: 50, longitude: 30))
        for bad in [#""latitude":91,"longitude":30"#, #""latitude":50"#, #""latitude":50,"longitude":-181"#] {
            do {
                _ = try read(bad)
                Issue.record("expected an error for \(bad)")
            } catch {
                #expect(
                    String(describing: error)
                        == "schedule.json: [0].latitude: latitude and longitude must both be given, −90 to 90 and −180 to 180."
                )
            }
        }
    }

    @Test func lessonsMustNameAKnownSubjectAndGroup() throws {
        let lessons = Data(
            #"[{"id":3,"name":"Менеджмент","group":5,"date":"11.04.2024","time":"08:30","auditorium":"7-105"}]"#.utf8)
        #expect(throws: ImportError.self) {
            try KMASchedule.read(
                subjects: try sample("kma/subjects.json"), schedule: lessons, scheduleFile: "schedule.json")
        }
        let unknown = Data(#"[{"id":99,"name":"X","group":1,"date":"11.04.2024","time":"08:30"}]"#.utf8)
        do {
            _ = try KMASchedule.read(
                subjects: try sample("kma/subjects.json"), schedule: unknown, scheduleFile: "schedule.json")
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error) == "schedule.json: [0].id: 99 is not a subject of the subjects file.")
        }
    }
}
