import Foundation

/// A student's note on a lesson (seed 003's marker on the lesson, seed 004's notes per slot):
/// on every day of the lesson, or on one date of it. Private to its author.
public struct LessonNote: Sendable, Equatable {
    public var id: Int64
    /// The id schedule occurrences carry.
    public var lessonID: Int64
    /// The one day it is about; nil for every day of the lesson.
    public var date: LocalDate?
    public var text: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: Int64, lessonID: Int64, date: LocalDate?, text: String, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.lessonID = lessonID
        self.date = date
        self.text = text
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The longest note, in characters (several lines).
    public static let maximumLength = 2000
    /// The most notes one user keeps.
    public static let limit = 2000

    /// Whether the note belongs on this occurrence of a lesson.
    public func applies(to occurrence: Occurrence) -> Bool {
        occurrence.lesson.id == lessonID && (date == nil || date == occurrence.date)
    }
}

/// Seed 004's notes, kept by slot: `odd_3_2` is the second pair of Wednesdays in odd weeks.
public struct SlotKey: Sendable, Hashable {
    public var oddWeek: Bool
    public var weekday: Weekday
    /// The pair (the institution's numbered time slot): 1 for the first of the day, 2 for the second …
    public var pair: Int

    /// Reads `odd_3_2` or `even_1_4`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "_")
        guard parts.count == 3, parts[0] == "odd" || parts[0] == "even", let day = Int(parts[1]),
            let weekday = Weekday(rawValue: day), let pair = Int(parts[2]), (1...12).contains(pair)
        else { return nil }
        self.oddWeek = parts[0] == "odd"
        self.weekday = weekday
        self.pair = pair
    }

    /// The lesson of `lessons` in this slot: a lesson on the weekday that meets in odd (or even)
    /// study weeks and takes pair `pair` of the institution's `pairs` (seed 004 numbers its slots
    /// by pair, so an empty second pair is a window, not the next lesson); nil when there is none,
    /// or when several lessons (subgroups) take that pair.
    public func lesson(in lessons: [Lesson], pairs: PairTimes) -> Lesson? {
        let found = lessons.filter { lesson in
            lesson.weekday == weekday && lesson.date == nil
                && (lesson.weeks.isEmpty || lesson.weeks.contains { ($0 % 2 == 1) == oddWeek })
                && pairs.number(of: lesson.start) == pair
        }
        return found.count == 1 ? found[0] : nil
    }
}
