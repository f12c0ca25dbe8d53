import Accounts
import CampusHTTP
import Formats
import Foundation
import Localization
import Logging
import NIOCore
import ServiceLifecycle
import Storage
import Timetable

/// Keeps the timetable in step with an IIS-compatible server (BSUIR's is
/// https://iis.bsuir.by/api/v1): the lists first, then each group's and teacher's schedule, but
/// only when its last-update date says it changed. Requests run a few at a time and are retried
/// with backoff. Every schedule that arrives is stored; one that fails leaves what was there, so a
/// failed or partial sync never deletes data.
public struct IISSync: Sendable {
    let api: URL
    let database: Database
    let logger: Logger
    /// The institution's time zone (``TimetableImporter``).
    let timeZone: TimeZone
    /// How many requests run at once.
    var concurrency: Int
    /// How many times a request is tried before it counts as failed.
    var attempts: Int
    /// The wait before the second attempt; it doubles with each further one.
    var backoff: Duration
    /// Schedules are stored in batches of this many, so that progress survives a failure.
    var batchSize: Int
    /// How long one request may take in all (connecting, redirects, the whole body).
    var deadline: Duration
    /// Who syncs, for the audit log: the server's job, or the command line.
    var actor: AuditActor

    /// `baseURL` is the server, with or without the `/api/v1` of IIS's paths.
    public init(
        baseURL: URL, database: Database, logger: Logger, timeZone: TimeZone, concurrency: Int = 4, attempts: Int = 3,
        backoff: Duration = .milliseconds(500), deadline: Duration = .seconds(30), actor: AuditActor = .scheduledJob
    ) {
        var api = baseURL
        while api.path.hasSuffix("/") { api = api.deletingLastPathComponent() }
        if !api.path.hasSuffix("/api/v1") { api = api.appendingPathComponent("api/v1") }
        self.api = api
        self.database = database
        self.logger = logger
        self.timeZone = timeZone
        self.concurrency = max(1, concurrency)
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.batchSize = 50
        self.deadline = deadline
        self.actor = actor
    }

    public struct Report: Sendable, Equatable, CustomStringConvertible {
        public var groups = 0
        public var teachers = 0
        /// Schedules downloaded because they changed (or were never fetched).
        public var downloaded = 0
        /// Schedules whose last-update date had not changed.
        public var unchanged = 0
        /// Owners the server has no schedule for.
        public var withoutSchedule = 0
        /// Owners whose schedule could not be fetched or read; their data stays as it was.
        public var failed: [String] = []
        public var lessons = 0

        public var description: String {
            var text =
                "\(groups) groups and \(teachers) teachers checked: \(downloaded) schedules downloaded, "
                + "\(unchanged) unchanged, \(withoutSchedule) without a schedule"
            if !failed.isEmpty { text += ", \(failed.count) failed (\(failed.prefix(5).joined(separator: ", ")))" }
            return text + "."
        }
    }

    public struct SyncError: PhrasedError {
        public var phrase: Phrase

        /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
        /// are `values`, as for a ``FieldProblem``.
        init(detail message: String, _ values: [String: String] = [:], parts: [String: Phrase] = [:]) {
            phrase = Phrase(message, values, parts: parts)
        }
    }

    /// One sync: lists, then changed schedules.
    public func run() async throws -> Report {
        var report = Report()
        // The lists: groups and employees are required; the others are stored when the server has them.
        var lists = TimetableImport()
        for (path, required) in [
            ("student-groups", true), ("employees/all", true), ("faculties", false), ("specialities", false),
            ("departments", false), ("auditories", false),
        ] {
            guard let data = try await fetch(path, query: [:]) else {
                if required { throw SyncError(detail: "{url} has nothing (404).", ["url": "\(api)/\(path)"]) }
                continue
            }
            do {
                lists.merge(path == "auditories" ? try IIS.auditories(data).import : try IIS.read(data, file: path))
            } catch {
                if required {
                    throw SyncError(
                        detail: "{place}: {reason}", ["place": "\(api)/\(path)"], parts: ["reason": phrase(of: error)])
                }
                logger.warning(
                    "IIS list skipped", metadata: ["list": "\(path)", "error": "\(describeForPeople(error))"])
            }
        }
        _ = try await TimetableImporter(database: database, logger: logger, timeZone: timeZone).store(lists)
        let known = try await database.read { db in try await TimetableStore(db).lastUpdates() }
        let groups = lists.groups.map(\.name)
        let teachers = lists.teachers.map(\.urlID)
        report.groups = groups.count
        report.teachers = teachers.count

        // Each owner: last-update date, then the schedule if it changed.
        let owners = groups.map { ScheduleOwner.group($0) } + teachers.map { ScheduleOwner.teacher($0) }
        var pending: [TimetableImport] = []
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var next = 0
            func start() {
                guard next < owners.count else { return }
                let owner = owners[next]
                next += 1
                group.addTask {
                    do {
                        return try await self.check(owner, known: known)
                    } catch {
                        logger.warning(
                            "IIS schedule failed", metadata: ["owner": "\(owner)", "error": "\(ErrorLog.text(error))"])
                        return .failed("\(owner)")
                    }
                }
            }
            for _ in 0..<concurrency { start() }
            while let outcome = try await group.next() {
                switch outcome {
                case .unchanged: report.unchanged += 1
                case .none: report.withoutSchedule += 1
                case .failed(let owner): report.failed.append(owner)
                case .downloaded(let data):
                    report.downloaded += 1
                    report.lessons += data.lessonCount
                    pending.append(data)
                    if pending.count >= batchSize {
                        try await store(pending)
                        pending.removeAll()
                    }
                }
                start()
            }
        }
        try await store(pending)
        let (actor, api) = (actor, api)
        try await database.write { [report] db in
            try await AuditStore(db).record(
                AuditEntry(
                    at: Date(), action: .timetableSynced, actor: actor,
                    target: AuditTarget(kind: "timetable", id: nil, label: api.absoluteString),
                    after: report.description))
        }
        logger.info("IIS sync done", metadata: ["report": "\(report)"])
        return report
    }

    private func store(_ batch: [TimetableImport]) async throws {
        guard !batch.isEmpty else { return }
        var data = TimetableImport()
        for part in batch { data.merge(part) }
        _ = try await TimetableImporter(database: database, logger: logger, timeZone: timeZone).store(data)
    }

    enum Outcome: Sendable {
        case unchanged
        case none
        case failed(String)
        case downloaded(TimetableImport)
    }

    /// One owner: its last-update date, and its schedule when the date is newer than the one
    /// stored (or none is stored).
    func check(_ owner: ScheduleOwner, known: [ScheduleOwner: LocalDate]) async throws -> Outcome {
        let (updatePath, updateQuery, schedulePath, scheduleQuery):
            (String, [String: String], String, [String: String]) =
                switch owner {
                case .group(let name):
                    ("last-update-date/student-group", ["groupNumber": name], "schedule", ["studentGroup": name])
                case .teacher(let urlID):
                    ("last-update-date/employee", ["url-id": urlID], "employees/schedule/\(urlID)", [:])
                }
        var lastUpdate: LocalDate?
        if let data = try await fetch(updatePath, query: updateQuery) {
            lastUpdate = try? IIS.lastUpdate(data)
        }
        if let lastUpdate, let stored = known[owner], stored >= lastUpdate {
            return .unchanged
        }
        guard let data = try await fetch(schedulePath, query: scheduleQuery),
            !data.isEmpty,
            String(decoding: data.prefix(8), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) != "null"
        else { return .none }
        var schedule = try IIS.read(data, file: "\(schedulePath)")
        guard !schedule.schedules.isEmpty else { return .none }
        schedule.schedules[0].lastUpdate = lastUpdate
        return .downloaded(schedule)
    }

    /// GETs `path` under the API with retries and backoff; nil for 404. Other failures (network,
    /// 5xx, 429) are retried; what still fails after the last attempt throws.
    func fetch(_ path: String, query: [String: String]) async throws -> Data? {
        guard var components = URLComponents(url: api.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { throw SyncError(detail: "{path} makes no URL.", ["path": path]) }
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        guard let url = components.url?.absoluteString else {
            throw SyncError(detail: "{path} makes no URL.", ["path": path])
        }
        var delay = backoff
        var lastError: any Error = SyncError(detail: "{url} did not answer.", ["url": url])
        for attempt in 1...attempts {
            if attempt > 1 {
                try await Task.sleep(for: delay)
                delay *= 2
            }
            let fetched: OutboundFetch.Fetched
            do {
                fetched = try await OutboundFetch(
                    addresses: .any, deadline: deadline, maximumBytes: InputFile.maximumSize,
                    headers: [("Accept", "application/json"), ("User-Agent", "Campus timetable sync")]
                ).get(url)
            } catch let error as OutboundFetch.Failed {
                // The network or the server failed; try again.
                lastError = error
                continue
            }
            let status = fetched.status
            switch status {
            case 200..<300: return fetched.body
            case 404: return nil
            case 429, 500..<600:
                lastError = SyncError(detail: "{url} answered {status}.", ["url": url, "status": String(status)])
            default: throw SyncError(detail: "{url} answered {status}.", ["url": url, "status": String(status)])
            }
        }
        throw lastError
    }
}
