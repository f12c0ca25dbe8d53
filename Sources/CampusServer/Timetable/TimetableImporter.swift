import Formats
import Foundation
import Logging
import NIOPosix
import Storage
import Timetable

/// Imports timetable files and sources into the database: every file is read and checked first,
/// then all of them are stored in one transaction, so a bad file changes nothing.
public struct TimetableImporter: Sendable {
    let database: Database
    let logger: Logger

    public init(database: Database, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Where an import is: `done` of `total` files read.
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int
        public var file: String
    }

    /// Reads IIS files (schedules and lists, in any order) and stores them. Files are read on
    /// every core at once (on NIO's thread pool: tasks started from an event loop stay on it) and
    /// merged in the order given.
    public func importIIS(
        files: [String], progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws -> ImportSummary {
        let started = ContinuousClock.now
        var parts = [TimetableImport?](repeating: nil, count: files.count)
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: (Int, TimetableImport).self) { group in
            var next = 0
            var done = 0
            func start() {
                guard next < files.count else { return }
                let index = next
                next += 1
                group.addTask {
                    let path = files[index]
                    let name = URL(fileURLWithPath: path).lastPathComponent
                    return try await NIOThreadPool.singleton.runIfActive {
                        (index, try IIS.read(try InputFile.read(path), file: name))
                    }
                }
            }
            for _ in 0..<width { start() }
            while let (index, part) = try await group.next() {
                parts[index] = part
                done += 1
                progress(
                    Progress(done: done, total: files.count, file: URL(fileURLWithPath: files[index]).lastPathComponent)
                )
                start()
            }
        }
        var data = TimetableImport()
        for part in parts { if let part { data.merge(part) } }
        logger.debug(
            "timetable files read",
            metadata: ["files": "\(files.count)", "seconds": "\(ContinuousClock.now - started)"])
        return try await store(data)
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

    /// Stores an import in one transaction.
    public func store(_ data: TimetableImport) async throws -> ImportSummary {
        let started = ContinuousClock.now
        let summary = try await database.write { db in try await TimetableStore(db).store(data, now: Date()) }
        logger.debug("timetable stored", metadata: ["seconds": "\(ContinuousClock.now - started)"])
        logger.info(
            "timetable imported",
            metadata: [
                "schedules": "\(summary.schedules)", "lessons": "\(summary.lessons)",
                "added": "\(summary.lessonsAdded)",
                "removed": "\(summary.lessonsRemoved)",
            ])
        return summary
    }
}
