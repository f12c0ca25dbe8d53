import Foundation
import Formats
import Logging
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

    /// Reads IIS files (schedules and lists, in any order) and stores them.
    public func importIIS(
        files: [String], progress: @Sendable (Progress) -> Void = { _ in }
    ) async throws -> ImportSummary {
        var data = TimetableImport()
        for (index, path) in files.enumerated() {
            let name = URL(fileURLWithPath: path).lastPathComponent
            progress(Progress(done: index, total: files.count, file: name))
            let contents = try InputFile.read(path)
            data.merge(try IIS.read(contents, file: name))
        }
        progress(Progress(done: files.count, total: files.count, file: ""))
        return try await store(data)
    }

    /// Stores an import in one transaction.
    public func store(_ data: TimetableImport) async throws -> ImportSummary {
        let summary = try await database.write { db in try await TimetableStore(db).store(data, now: Date()) }
        logger.info(
            "timetable imported",
            metadata: [
                "schedules": "\(summary.schedules)", "lessons": "\(summary.lessons)", "added": "\(summary.lessonsAdded)",
                "removed": "\(summary.lessonsRemoved)",
            ])
        return summary
    }
}
