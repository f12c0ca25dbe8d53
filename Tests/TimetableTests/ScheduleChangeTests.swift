import Testing

@testable import Timetable

@Suite struct ScheduleChangeTests {
    let monday = LocalDate(iso: "2027-01-18")!

    func lesson(
        _ id: Int64, _ subject: String, _ start: String, _ end: String, room: String = "200-1",
        teacher: String = "Первый О.", subgroup: Int = 0, type: String = "ЛК"
    ) -> Lesson {
        Lesson(
            id: id, subject: subject, typeID: type, start: WallTime(start)!, end: WallTime(end)!, subgroup: subgroup,
            date: monday, rooms: [RoomReference(id: id, name: room)],
            teachers: [TeacherReference(urlID: "t", name: teacher)])
    }

    func on(_ lessons: [Lesson], _ date: LocalDate? = nil) -> [Occurrence] {
        lessons.map { Occurrence(lesson: $0, date: date ?? monday) }
    }

    @Test func unchangedOccurrencesAreNoChangeEvenWithNewLessonIDs() {
        let before = on([lesson(1, "Мат", "09:00", "10:20"), lesson(2, "Мат", "10:35", "11:55")])
        let after = on([lesson(7, "Мат", "09:00", "10:20"), lesson(8, "Мат", "10:35", "11:55")])
        #expect(ScheduleChange.between(before, after).isEmpty)
    }

    @Test func twoPairsOfOneSubjectPairByTime() {
        // The second pair moves to another room; the first stays as it was.
        let before = on([lesson(1, "Мат", "09:00", "10:20"), lesson(2, "Мат", "10:35", "11:55")])
        let after = on([lesson(1, "Мат", "09:00", "10:20"), lesson(3, "Мат", "10:35", "11:55", room: "604-5")])
        let changes = ScheduleChange.between(before, after)
        #expect(changes.map(\.kind) == [.room])
        #expect(changes.first?.before?.rooms == ["200-1"])
        #expect(changes.first?.after?.rooms == ["604-5"])
        #expect(changes.first?.beforeLesson == 2)
        #expect(changes.first?.afterLesson == 3)
    }

    @Test func kindsOfChange() {
        let before = on([
            lesson(1, "Мат", "09:00", "10:20"), lesson(2, "Физ", "10:35", "11:55"),
            lesson(3, "Хим", "12:25", "13:45", subgroup: 1), lesson(4, "Ист", "14:00", "15:20"),
        ])
        let after =
            on([
                lesson(1, "Мат", "09:00", "10:20", teacher: "Второй Д."), lesson(5, "Физ", "13:00", "14:20"),
                lesson(6, "Англ", "16:00", "17:20", type: "ПЗ"),
            ]) + on([lesson(4, "Ист", "14:00", "15:20")], monday.adding(days: 3))
        let changes = ScheduleChange.between(before, after)
        // In the order of the day: each at its new time, or its old one if it was cancelled.
        #expect(changes.map(\.kind) == [.teacher, .cancelled, .moved, .added, .moved])
        #expect(changes[0].before?.teachers == ["Первый О."] && changes[0].after?.teachers == ["Второй Д."])
        #expect(changes[1].subject == "Хим" && changes[1].subgroup == 1 && changes[1].after == nil)
        #expect(changes[2].before?.start == WallTime("10:35") && changes[2].after?.start == WallTime("13:00"))
        #expect(changes[3].subject == "Англ" && changes[3].before == nil)
        // Moved to Thursday of the same week.
        #expect(changes[4].before?.date == monday && changes[4].after?.date == monday.adding(days: 3))
    }

    @Test func aMoveToAnotherWeekIsACancellationAndAnAddition() {
        let before = on([lesson(1, "Мат", "09:00", "10:20")])
        let after = on([lesson(1, "Мат", "09:00", "10:20")], monday.adding(days: 7))
        #expect(ScheduleChange.between(before, after).map(\.kind) == [.cancelled, .added])
    }

    @Test func theSameSubjectOfAnotherSubgroupOrTypeIsAnotherLesson() {
        let before = on([lesson(1, "Мат", "09:00", "10:20", subgroup: 1)])
        let after = on([
            lesson(1, "Мат", "09:00", "10:20", subgroup: 2), lesson(2, "Мат", "09:00", "10:20", type: "ПЗ"),
        ])
        #expect(ScheduleChange.between(before, after).map(\.kind) == [.added, .cancelled, .added])
    }
}
