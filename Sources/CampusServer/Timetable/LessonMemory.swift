import Foundation
import NIOConcurrencyHelpers
import Storage
import Timetable

/// Every lesson of a group, teacher or room, kept in memory for one version of the timetable
/// (an import, a sync or a change of lesson types moves it on, and everything here is dropped),
/// so that a schedule made afresh — another week, another subgroup, after the answer cache was
/// dropped — reads nothing from the database: a profile of the fresh path found a fifth of its
/// time in SQLite preparing and stepping the same four queries (docs/BENCHMARKS.md).
final class LessonMemory: Sendable {
    /// A lesson with the day bounds a range is compared with, as the database compares them.
    struct Kept: Sendable {
        var lesson: Lesson
        var first: Int?
        var last: Int?

        init(_ lesson: Lesson, irregular: (first: Int?, last: Int?)?) {
            self.lesson = lesson
            if let irregular {
                (first, last) = irregular
            } else {
                first = lesson.dateRange?.lowerBound.dayNumber
                last = lesson.dateRange?.upperBound.dayNumber
            }
        }

        /// Whether the lesson can take place in `range` (TimetableStore's condition).
        func isIn(_ range: ClosedRange<LocalDate>?) -> Bool {
            guard let range else { return true }
            let from = range.lowerBound.dayNumber
            let to = range.upperBound.dayNumber
            if let date = lesson.date { return (from...to).contains(date.dayNumber) }
            return (first.map { $0 <= to } ?? true) && (last.map { $0 >= from } ?? true)
        }
    }

    /// The most owners kept; past that, memory starts over (300 groups and their teachers and
    /// rooms are about 1,500).
    static let capacity = 5000

    private let kept = NIOLockedValueBox<(version: String, owners: [TimetableService.Target: [Kept]])>(("", [:]))

    /// The owner's lessons at `version`, if they are kept.
    func kept(of target: TimetableService.Target, version: String) -> [Kept]? {
        kept.withLockedValue { kept in kept.version == version ? kept.owners[target] : nil }
    }

    /// The owner's lessons at `version` (by id, each once), read by `read` the first time.
    func lessons(
        of target: TimetableService.Target, version: String, read: () async throws -> [Kept]
    ) async throws -> [Kept] {
        if let found = kept(of: target, version: version) { return found }
        // Kept by id, each once, as a schedule lists them (then one owner's need no sorting).
        var seen: Set<Int64> = []
        let lessons = try await read().filter { seen.insert($0.lesson.id).inserted }.sorted {
            $0.lesson.id < $1.lesson.id
        }
        kept.withLockedValue { kept in
            if kept.version != version || kept.owners.count >= Self.capacity { kept = (version, [:]) }
            kept.owners[target] = lessons
        }
        return lessons
    }
}
