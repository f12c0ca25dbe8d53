import Testing

@testable import Timetable

/// Seed 004's notes are kept by pair number (`odd_1_3`: the third pair of Mondays in odd weeks),
/// not by the order of the day's lessons (issue 35, item 18).
@Suite struct SlotKeyTests {
    static func time(_ text: String) -> WallTime { WallTime(text)! }

    /// Seed 004's own pairs: 08:00, 09:45, 11:35, 13:25.
    static let pairs = PairTimes(text: "08:00-09:35 09:45-11:20 11:35-13:10 13:25-15:00")!

    static func lesson(
        _ id: Int64, _ start: String, _ end: String, weeks: Set<Int>, weekday: Weekday = .monday, subgroup: Int = 0
    ) -> Lesson {
        Lesson(
            id: id, subject: "S\(id)", start: time(start), end: time(end), weekday: weekday, weeks: weeks,
            subgroup: subgroup)
    }

    /// Odd Mondays: pair 1, a window in pair 2, pair 3. Even Mondays: pair 2 alone.
    static let lessons = [
        lesson(1, "08:00", "09:35", weeks: [1]),
        lesson(2, "11:35", "13:10", weeks: [1]),
        lesson(3, "09:45", "11:20", weeks: [2]),
    ]

    func found(_ key: String, in lessons: [Lesson] = Self.lessons) -> Int64? {
        SlotKey(key)?.lesson(in: lessons, pairs: Self.pairs)?.id
    }

    @Test func aSlotIsItsPairNotTheNthLessonOfTheDay() {
        #expect(found("odd_1_1") == 1)
        // The second pair of odd Mondays is a window: no lesson, not the next one (pair 3).
        #expect(found("odd_1_2") == nil)
        #expect(found("odd_1_3") == 2)
        // Even Mondays start with pair 2.
        #expect(found("even_1_1") == nil)
        #expect(found("even_1_2") == 3)
        #expect(found("odd_1_4") == nil)
        #expect(found("odd_2_1") == nil)
    }

    @Test func everyWeekLessonsAndLateStartsAndSubgroups() {
        // A lesson of every week is in odd and even weeks alike; one that starts ten minutes into
        // pair 4 is still pair 4.
        let late = Self.lesson(4, "13:35", "15:00", weeks: [])
        #expect(found("odd_1_4", in: Self.lessons + [late]) == 4)
        #expect(found("even_1_4", in: Self.lessons + [late]) == 4)
        // Two subgroups in one pair: no single lesson to attach the note to.
        let split = [
            Self.lesson(5, "08:00", "09:35", weeks: [], weekday: .tuesday, subgroup: 1),
            Self.lesson(6, "08:00", "09:35", weeks: [], weekday: .tuesday, subgroup: 2),
        ]
        #expect(found("odd_2_1", in: split) == nil)
        #expect(found("odd_2_1", in: [split[1]]) == 6)
        // A time outside every pair has no number.
        #expect(Self.pairs.number(of: Self.time("07:00")) == nil)
        #expect(Self.pairs.number(of: Self.time("09:40")) == nil)
        #expect(Self.pairs.number(of: Self.time("11:35")) == 3)
    }

    @Test func keysAreRead() {
        #expect(SlotKey("odd_3_2").map { [$0.oddWeek ? 1 : 0, $0.weekday.rawValue, $0.pair] } == [1, 3, 2])
        #expect(SlotKey("even_7_12")?.pair == 12)
        for bad in ["odd_3", "odd_8_1", "odd_1_0", "odd_1_13", "weekly_1_1", "odd_1_1_1", "", "odd_1_x"] {
            #expect(SlotKey(bad) == nil, "\(bad)")
        }
    }
}
