import Accounts
import Formats
import Foundation
import Logging
import NIOPosix
import SQLKit
import Storage
import Timetable

/// Imports timetable files and sources into the database, all of an import in one transaction,
/// so a bad file changes nothing (IIS files are read while that transaction is open).
public struct TimetableImporter: Sendable {
    let database: Database
    let logger: Logger
    /// The institution's time zone: the day from which an import keeps the changes it brings.
    let timeZone: TimeZone
    /// Who imports, for the audit log: each import writes its entry in its own transaction. Nil
    /// for the stores that are parts of something audited as a whole (a sync) or the demo's data.
    let actor: AuditActor?

    public init(database: Database, logger: Logger, timeZone: TimeZone, actor: AuditActor? = nil) {
        self.database = database
        self.logger = logger
        self.timeZone = timeZone
        self.actor = actor
    }

    /// Where an import is: `done` of `total` files read.
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int
        public var file: String
    }

    /// Reads IIS files (schedules and lists, in any order) and stores them. Files are read on
    /// every core at once (on NIO's thread pool: tasks started from an event loop stay on it) and
    /// merged in the order given; the import's write transaction is open while they are read, and
    /// their lessons go to the database in batches meanwhile (``StagedLessons``), so the database
    /// works while the files are read (docs/BENCHMARKS.md); `batch` is how many new lessons
    /// wait for their batch.
    public func importIIS(
        files: [String], batch: Int = TimetableStore.bulkChunk,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws -> ImportSummary {
        let logger = logger
        let started = ContinuousClock.now
        let now = Date()
        let summary = try await database.write { db in
            let store = TimetableStore(db)
            var staged = try await store.stageLessons(withSchedules: !files.isEmpty)
            let (data, directory) = try await Self.readIIS(
                files, batch: batch, staging: &staged, store: store, now: now, progress: progress)
            logger.debug(
                "timetable files read",
                metadata: ["files": "\(files.count)", "seconds": "\(ContinuousClock.now - started)"])
            let stored: TimetableStore.StoredDirectory
            if let directory { stored = directory } else { stored = try await store.storeDirectory(data, now: now) }
            let summary = try await store.storeSchedules(
                data, directory: stored, staged: staged, now: now, timeZone: timeZone)
            try await audit(summary, source: "IIS", now: now, in: db)
            return summary
        }
        log(summary, started: started)
        return summary
    }

    /// Batches stored at once: the connection runs one statement at a time, and the next batch's
    /// statement is written while the one before it runs.
    static let batchesInFlight = 2

    /// What a reading task, a batch of lessons on its way to the database, or the directory
    /// gives back.
    private enum ReadingEvent: Sendable {
        case read(index: Int, part: TimetableImport, hashes: [[String]])
        case stored(TimetableStore.StoredLessons)
        case directory(TimetableStore.StoredDirectory)
    }

    /// Reads the files, merging them in order and staging their schedules; batches of staged
    /// lessons are stored while the next files are read (``batchesInFlight`` at a time, on the
    /// import's one connection). The first batch is a quarter of the others, so that the database
    /// starts sooner. Once the last file is merged, the directory it names is written and the last
    /// lessons go as one more batch, while the batches before them are still being stored (the
    /// statements queue on the connection; none depends on another's order). Answers what was
    /// read, and what storing its directory gave (nil without files).
    private static func readIIS(
        _ files: [String], batch: Int, staging staged: inout StagedLessons, store: TimetableStore, now: Date,
        progress: @escaping @Sendable (Progress) -> Void
    ) async throws -> (TimetableImport, TimetableStore.StoredDirectory?) {
        var data = TimetableImport()
        var directory: TimetableStore.StoredDirectory?
        var waiting: [Int: (part: TimetableImport, hashes: [[String]])] = [:]
        var merged = 0
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: ReadingEvent.self) { group in
            var next = 0
            var done = 0
            var storing = 0
            var batches = 0
            func start() {
                guard next < files.count else { return }
                let index = next
                next += 1
                group.addTask {
                    let path = files[index]
                    let name = URL(fileURLWithPath: path).lastPathComponent
                    return try await NIOThreadPool.singleton.runIfActive {
                        let part = try IIS.read(try InputFile.read(path), file: name)
                        return .read(
                            index: index, part: part, hashes: TimetableStore.identityHashes(of: part.schedules))
                    }
                }
            }
            for _ in 0..<width { start() }
            while let event = try await group.next() {
                switch event {
                case .stored(let batch):
                    staged.record(batch)
                    storing -= 1
                case .directory(let stored):
                    directory = stored
                case .read(let index, let part, let hashes):
                    waiting[index] = (part, hashes)
                    done += 1
                    progress(
                        Progress(
                            done: done, total: files.count, file: URL(fileURLWithPath: files[index]).lastPathComponent)
                    )
                    start()
                    while let (part, hashes) = waiting.removeValue(forKey: merged) {
                        data.merge(part)
                        staged.stage(part.schedules, hashes: hashes)
                        merged += 1
                    }
                }
                while storing < Self.batchesInFlight,
                    let lessons = staged.takePending(batches == 0 ? max(1, batch / 4) : batch)
                {
                    storing += 1
                    batches += 1
                    group.addTask { .stored(try await store.store(lessons, now: now)) }
                }
                if case .read = event, merged == files.count {
                    if let rest = staged.takePending() {
                        storing += 1
                        group.addTask { .stored(try await store.store(rest, now: now)) }
                    }
                    group.addTask { [data] in .directory(try await store.storeDirectory(data, now: now)) }
                }
            }
        }
        return (data, directory)
    }
    /// Reads seed 004's files (`schedule.json`, and `teachers.json` and `user.json` if given) and
    /// stores them as the group's odd/even weekly schedule. With a term start, the institution's
    /// calendar becomes odd and even weeks from it.
    public func importOddEven(
        files: [String], group: String?, termStart: LocalDate?, termEnd: LocalDate?
    ) async throws -> ImportSummary {
        var schedule: (Data, String)?
        var teachers: (Data, String)?
        var groupName = group
        for path in files {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let data = try InputFile.read(path)
            switch OddEvenSchedule.kind(of: data) {
            case .schedule: schedule = (data, name)
            case .teachers: teachers = (data, name)
            case .user: groupName = try groupName ?? OddEvenSchedule.group(fromUser: data, file: name)
            case nil:
                throw ImportError(
                    file: name, field: "",
                    detail:
                        "is not a schedule.json (oddWeek, evenWeek), teachers.json (teachers) or user.json (group).")
            }
        }
        var data = TimetableImport()
        if let teachers { data.merge(try OddEvenSchedule.teachers(teachers.0, file: teachers.1)) }
        if let schedule {
            guard let groupName else {
                throw ImportError(
                    file: schedule.1, field: "", detail: "belongs to no group: give --group or user.json.")
            }
            data.merge(
                try OddEvenSchedule.schedule(
                    schedule.0, group: groupName, termStart: termStart, termEnd: termEnd, file: schedule.1))
        }
        let summary = try await store(data)
        if let termStart {
            try await database.write { db in
                try await SettingsStore(db).set(.studyCalendar, to: "odd-even \(termStart.iso)")
                try await TimetableStore(db).touch()
            }
        }
        return summary
    }

    /// Reads seed 003's `subjects.json` and `schedule.json` and stores them: each subject's groups
    /// get their dated lessons.
    public func importKMA(subjects: String, schedule: String, minutes: Int) async throws -> ImportSummary {
        let data = try KMASchedule.read(
            subjects: try InputFile.read(subjects), schedule: try InputFile.read(schedule), minutes: minutes,
            subjectsFile: URL(fileURLWithPath: subjects).lastPathComponent,
            scheduleFile: URL(fileURLWithPath: schedule).lastPathComponent)
        return try await store(data)
    }

    /// Stores an import in one transaction (with its audit entry when an actor imports).
    public func store(_ data: TimetableImport) async throws -> ImportSummary {
        let started = ContinuousClock.now
        let timeZone = timeZone
        let summary = try await database.write { db in
            let now = Date()
            let summary = try await TimetableStore(db).store(data, now: now, timeZone: timeZone)
            try await audit(summary, source: "files", now: now, in: db)
            return summary
        }
        log(summary, started: started)
        return summary
    }

    /// The import's audit entry: what it changed, in the import's transaction.
    private func audit(_ summary: ImportSummary, source: String, now: Date, in db: any SQLDatabase) async throws {
        guard let actor else { return }
        try await AuditStore(db).record(
            AuditEntry(
                at: now, action: .timetableImported, actor: actor,
                target: AuditTarget(kind: "timetable", id: nil, label: source),
                after:
                    "\(summary.schedules) schedules, \(summary.lessons) lessons, +\(summary.lessonsAdded) "
                    + "−\(summary.lessonsRemoved), \(summary.changes) changes"))
    }

    private func log(_ summary: ImportSummary, started: ContinuousClock.Instant) {
        logger.debug("timetable stored", metadata: ["seconds": "\(ContinuousClock.now - started)"])
        logger.info(
            "timetable imported",
            metadata: [
                "schedules": "\(summary.schedules)", "lessons": "\(summary.lessons)",
                "added": "\(summary.lessonsAdded)",
                "removed": "\(summary.lessonsRemoved)", "changes": "\(summary.changes)",
            ])
    }
}
