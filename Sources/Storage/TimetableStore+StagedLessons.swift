import SQLKit
import Timetable

/// An import's lessons, one row per identity whichever schedules name it, gathered schedule by
/// schedule in the import's order. An importer that reads many files stages each file's
/// schedules as soon as it is read and stores the lessons in batches while the other files are
/// still being read (lessons reference nothing, so they may go before the directory); the rest of
/// the import (``TimetableStore/store(_:now:staged:)``) then finds them stored. A lesson's row is
/// its first schedule's; later schedules only add teachers, which are links, not row columns.
public struct StagedLessons: Sendable {
    /// Each staged schedule's lesson identities, in lesson order.
    var keys: [[String]] = []
    var lessons: [String: ImportedLesson] = [:]
    /// The identities in the order they were first staged.
    var order: [String] = []
    /// Identities staged and not yet given to ``TimetableStore/store(_:)``.
    var pending: [String] = []
    var stored = TimetableStore.StoredLessons()
    /// The lessons in the database before the import stored any.
    let countBefore: Int

    /// How many schedules are staged.
    public var schedules: Int { keys.count }

    /// Stages schedules; `hashes` holds their lessons' identity hashes
    /// (``TimetableStore/identityHashes(of:)``).
    public mutating func stage(_ schedules: [ImportedSchedule], hashes: [[String]]) {
        for (schedule, scheduleKeys) in zip(schedules, hashes) {
            for (lesson, key) in zip(schedule.lessons, scheduleKeys) {
                if var existing = lessons[key] {
                    existing.teachers = Array(Set(existing.teachers + lesson.teachers)).sorted()
                    lessons[key] = existing
                } else {
                    lessons[key] = lesson
                    order.append(key)
                    pending.append(key)
                }
            }
            keys.append(scheduleKeys)
        }
    }

    /// The first `size` staged lessons not stored yet, once that many wait (all of them with
    /// `size` nil); they are no longer pending after this.
    public mutating func takePending(_ size: Int? = nil) -> PendingLessons? {
        let count = size ?? pending.count
        guard count > 0, pending.count >= count else { return nil }
        let rows = pending.prefix(count).compactMap { key in lessons[key].map { (key, $0) } }
        pending.removeFirst(count)
        return PendingLessons(rows: rows)
    }

    /// Takes the row ids of a batch ``TimetableStore/store(_:)`` stored.
    public mutating func record(_ batch: TimetableStore.StoredLessons) {
        stored.ids.merge(batch.ids) { $1 }
        stored.added.formUnion(batch.added)
    }
}

/// Staged lessons on their way to the database: identity hash and lesson.
public struct PendingLessons: Sendable {
    let rows: [(String, ImportedLesson)]
}

extension TimetableStore {
    /// Starts staging an import's lessons (run inside the import's write transaction).
    public func stageLessons() async throws -> StagedLessons {
        StagedLessons(countBefore: try await count("lessons"))
    }

    /// Stores a batch of staged lessons (a new identity is added, a known one gets the new full
    /// subject and note), answering their row ids for ``StagedLessons/record(_:)``.
    public func store(_ batch: PendingLessons) async throws -> StoredLessons {
        try await storeLessons(batch.rows)
    }
}
