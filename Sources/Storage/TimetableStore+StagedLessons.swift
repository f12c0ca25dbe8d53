import Foundation
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
    /// For each identity, the teachers whose own schedules (staged so far) name it.
    var ownTeachers: [String: Set<String>] = [:]
    /// Identities whose teachers, or whose teachers' own schedules, a schedule staged after the
    /// first one that named them may have changed: the lesson may have been stored (and linked)
    /// before that.
    var touched = Set<String>()
    /// Identities staged and not yet given to ``TimetableStore/store(_:now:)``.
    var pending: [String] = []
    var stored = TimetableStore.StoredLessons()
    /// The lessons in the database before the import stored any.
    let countBefore: Int
    /// Whether the links were kept as they were (``TimetableStore/keepLinksBefore()``), to
    /// record the changes the import brings: not for an import into an empty timetable.
    let keptLinks: Bool
    /// The last lesson row id before the import (the ones it adds come after it).
    let lastIDBefore: Int64

    /// How many schedules are staged.
    public var schedules: Int { keys.count }

    /// Stages schedules; `hashes` holds their lessons' identity hashes
    /// (``TimetableStore/identityHashes(of:)``).
    public mutating func stage(_ schedules: [ImportedSchedule], hashes: [[String]]) {
        for (schedule, scheduleKeys) in zip(schedules, hashes) {
            if case .teacher(let urlID) = schedule.owner {
                for key in scheduleKeys {
                    ownTeachers[key, default: []].insert(urlID)
                    touched.insert(key)
                }
            }
            for (lesson, key) in zip(schedule.lessons, scheduleKeys) {
                if var existing = lessons[key] {
                    let teachers = Array(Set(existing.teachers + lesson.teachers)).sorted()
                    if teachers != existing.teachers.sorted() { touched.insert(key) }
                    existing.teachers = teachers
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
        let own = pending.prefix(count).compactMap { key in ownTeachers[key].map { (key, $0) } }
        pending.removeFirst(count)
        return PendingLessons(rows: rows, ownTeachers: Dictionary(uniqueKeysWithValues: own))
    }

    /// Takes the row ids of a batch ``TimetableStore/store(_:now:)`` stored.
    public mutating func record(_ batch: TimetableStore.StoredLessons) {
        stored.merge(batch)
    }
}

/// Staged lessons on their way to the database: identity hash and lesson, and the teachers whose
/// own schedules named each one so far.
public struct PendingLessons: Sendable {
    let rows: [(String, ImportedLesson)]
    let ownTeachers: [String: Set<String>]
}

extension TimetableStore {
    /// Starts staging an import's lessons (run inside the import's write transaction); unless
    /// the import holds no schedules, keeps the links as they are to record the changes it
    /// brings (``recordChanges(gone:lastIDBefore:today:now:)``).
    public func stageLessons(withSchedules: Bool = true) async throws -> StagedLessons {
        let count = try await count("lessons")
        let keeping = withSchedules && count > 0
        var lastID: Int64 = 0
        if keeping {
            try await keepLinksBefore()
            lastID =
                try await db.raw("SELECT COALESCE(MAX(id), 0) AS n FROM lessons").first(
                    decodingColumn: "n", as: Int64.self)
                ?? 0
        }
        return StagedLessons(countBefore: count, keptLinks: keeping, lastIDBefore: lastID)
    }

    /// Stores a batch of staged lessons (a new identity is added, a known one gets the new full
    /// subject and note), answering their row ids for ``StagedLessons/record(_:)``; on PostgreSQL
    /// the groups and rooms of the lessons it adds are linked with them (``linkAddedLessons(_:stored:now:)``).
    public func store(_ batch: PendingLessons, now: Date) async throws -> StoredLessons {
        var stored = try await storeLessons(batch.rows)
        try await linkAddedLessons(batch, stored: &stored, now: now)
        return stored
    }
}
