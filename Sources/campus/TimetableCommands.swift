import ArgumentParser
import CampusServer
import Foundation
import InputRules
import Localization
import Storage
import Timetable

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import timetable files.",
        subcommands: [IISFiles.self, OddEvenFiles.self, KMAFiles.self])

    struct OddEvenFiles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "odd-even",
            abstract: "Import a weekly schedule of odd and even weeks (schedule.json, teachers.json, user.json).",
            discussion: """
                The files of the "Schedule" app: schedule.json with oddWeek and evenWeek, teachers.json with the \
                students' teacher cards, user.json naming the group. With --term-start, the institution's calendar \
                becomes odd and even weeks counted from that date.
                """)

        @OptionGroup var storage: StorageOptions
        @Argument(help: "schedule.json, teachers.json and user.json, in any order.") var files: [String]
        @Option(help: "The group the schedule belongs to (otherwise user.json's).") var group: String?
        @Option(name: .customLong("term-start"), help: "The first day of term, YYYY-MM-DD.") var termStart: String?
        @Option(name: .customLong("term-end"), help: "The last day of term (default: 26 weeks later).") var termEnd:
            String?

        func validate() throws {
            if let termStart, case .failure(let problem) = LocalDate.read(iso: termStart) {
                throw ValidationError(LocalDate.problemText(problem, field: "--term-start", example: "2026-02-09"))
            }
            if let termEnd, case .failure(let problem) = LocalDate.read(iso: termEnd) {
                throw ValidationError(LocalDate.problemText(problem, field: "--term-end", example: "2026-06-30"))
            }
        }

        func run() async throws {
            let summary = try await withDatabase(storage) { database, logger in
                do {
                    return try await TimetableImporter(
                        database: database, logger: logger, timeZone: institutionTimeZone(), actor: .commandLine
                    ).importOddEven(
                        files: files, group: group, termStart: termStart.flatMap { LocalDate(iso: $0) },
                        termEnd: termEnd.flatMap { LocalDate(iso: $0) })
                } catch {
                    throw Failure(error, t)
                }
            }
            print(
                t(
                    "Imported lessons: {lessons} ({added} new, {removed} removed); teachers: {teachers}.",
                    [
                        "lessons": String(summary.lessons), "added": String(summary.lessonsAdded),
                        "removed": String(summary.lessonsRemoved), "teachers": String(summary.teachers),
                    ]))
        }
    }

    struct KMAFiles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "kma",
            abstract: "Import a study plan and its dated lessons (subjects.json and schedule.json of KMAScheduler).")

        @OptionGroup var storage: StorageOptions
        @Argument(help: "subjects.json") var subjects: String
        @Argument(help: "schedule.json") var schedule: String
        @Option(help: "How long a lesson lasts, in minutes (the files give only its start).") var minutes = 80

        func run() async throws {
            let summary = try await withDatabase(storage) { database, logger in
                do {
                    return try await TimetableImporter(
                        database: database, logger: logger, timeZone: institutionTimeZone(), actor: .commandLine
                    ).importKMA(
                        subjects: subjects, schedule: schedule, minutes: minutes)
                } catch {
                    throw Failure(error, t)
                }
            }
            print(
                t(
                    "Imported lessons: {lessons} ({added} new, {removed} removed); subject groups: {groups}.",
                    [
                        "lessons": String(summary.lessons), "added": String(summary.lessonsAdded),
                        "removed": String(summary.lessonsRemoved), "groups": String(summary.groups),
                    ]))
        }
    }

    struct IISFiles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "iis",
            abstract: "Import BSUIR IIS responses: schedules of groups and teachers, and the lists.",
            discussion: """
                Files may be given in any order. Every file is read and checked before anything is \
                stored; then all of them are stored in one transaction. Importing the same files again \
                changes nothing.
                """)

        @OptionGroup var storage: StorageOptions
        @Argument(help: "IIS JSON files.") var files: [String]

        func run() async throws {
            let started = ContinuousClock.now
            let progress = ProgressBar(title: "Reading")
            let summary = try await withDatabase(storage) { database, logger in
                do {
                    return try await TimetableImporter(
                        database: database, logger: logger, timeZone: institutionTimeZone(), actor: .commandLine
                    ).importIIS(files: files) {
                        progress.show($0.done, of: $0.total, note: $0.file)
                    }
                } catch {
                    progress.end()
                    throw Failure(error, t)
                }
            }
            progress.end()
            let seconds = (ContinuousClock.now - started).components
            let elapsed = Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18
            print(
                t(
                    "Imported schedules: {schedules}; lessons: {lessons} ({added} new, {removed} removed); groups: {groups}, teachers: {teachers}, rooms: {rooms}; in {seconds} s.",
                    [
                        "schedules": String(summary.schedules), "lessons": String(summary.lessons),
                        "added": String(summary.lessonsAdded), "removed": String(summary.lessonsRemoved),
                        "groups": String(summary.groups), "teachers": String(summary.teachers),
                        "rooms": String(summary.rooms),
                        "seconds": t.number(elapsed, fractionDigits: 2),
                    ]))
            if summary.changes > 0 {
                print(
                    t(
                        "Changes of lessons in the next 8 weeks, once per group, teacher and room: {count}.",
                        ["count": String(summary.changes)]))
            }
        }
    }
}

/// A progress bar on standard error when it is a terminal; plain lines otherwise.
final class ProgressBar: @unchecked Sendable {
    let title: String
    let isTerminal = isatty(2) == 1
    private var lastLine = ""

    init(title: String) { self.title = title }

    func show(_ done: Int, of total: Int, note: String) {
        guard total > 0 else { return }
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = "\(title) ▕\(bar)▏ \(done)/\(total) \(note)"
        if isTerminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
        } else if done == total || done % max(1, total / 10) == 0 {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        lastLine = line
    }

    func end() {
        if isTerminal && !lastLine.isEmpty { FileHandle.standardError.write(Data("\n".utf8)) }
        lastLine = ""
    }
}

struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", abstract: "Print the schedule of a group, teacher or room.",
        discussion: "campus schedule --group 151004 --date 2023-09-25 prints that day; add --week for its whole week.")

    @OptionGroup var storage: StorageOptions
    @Option(help: "A group's name, such as 151004.") var group: String?
    @Option(help: "A teacher's URL id, such as i-kirinovich.") var teacher: String?
    @Option(help: "A room, such as 604-5, or its id.") var room: String?
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: String?
    @Flag(help: "Print the whole week of the day.") var week = false
    @Option(help: "Whole-group lessons and this subgroup's only.") var subgroup: Int?
    @Option(
        name: .customLong("time-zone"),
        help: "The institution's time zone (default Europe/Minsk; env CAMPUS_TIME_ZONE).")
    var timeZone: String?

    func validate() throws {
        if [group, teacher, room].compactMap({ $0 }).count != 1 {
            throw ValidationError("Give one of --group, --teacher and --room.")
        }
        if let date, case .failure(let problem) = LocalDate.read(iso: date) {
            throw ValidationError(LocalDate.problemText(problem, field: "--date", example: "2023-09-25"))
        }
    }

    func run() async throws {
        let zone = institutionTimeZone(timeZone)
        let text = try await withDatabase(storage) { database, logger in
            let printer = SchedulePrinter(database: database, timeZone: zone, t: t)
            let day = date.flatMap { LocalDate(iso: $0) } ?? LocalDate(Date(), in: zone)
            let range = week ? Schedule.week(holding: day) : day...day
            do {
                return try await printer.table(
                    group: group, teacher: teacher, room: room, range: range, subgroup: subgroup)
            } catch let error as SchedulePrinter.NotFound {
                throw Failure(error.description)
            }
        }
        print(text, terminator: "")
    }
}

struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar", abstract: "Show or set how the institution numbers its study weeks.",
        discussion: """
            bsuir: a 4-week cycle from the week of 1 September (the default). odd-even: odd and even \
            weeks from --term-start. dated: every lesson has its own date.
            """)

    @OptionGroup var storage: StorageOptions
    @Argument(help: "bsuir, odd-even or dated; absent shows the current setting.") var kind: String?
    @Option(name: .customLong("term-start"), help: "The first day of term, YYYY-MM-DD (for odd-even).")
    var termStart: String?
    @Option(help: "The numbered pairs of a day, such as \"09:00-10:20 10:35-11:55\" (BSUIR's by default).")
    var pairs: String?

    func run() async throws {
        let text = try await withDatabase(storage) { database, _ in
            try await StudyCalendarSetting(database: database).set(kind: kind, termStart: termStart, pairs: pairs)
        }
        print(text)
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Bring the timetable up to date from its source.", subcommands: [IISServer.self])

    struct IISServer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "iis",
            abstract: "Sync from an IIS-compatible server: the lists, then every schedule that changed.",
            discussion: "A failed or partial sync keeps the data that was there.")

        @OptionGroup var storage: StorageOptions
        @Option(name: .customLong("base-url"), help: "The server, such as https://iis.bsuir.by (env CAMPUS_IIS_URL).")
        var baseURL: String?
        @Option(help: "How many requests run at once.") var concurrency = 4

        func run() async throws {
            guard let text = baseURL ?? Environment.value("CAMPUS_IIS_URL"), let url = URL(string: text),
                url.scheme != nil
            else { throw ValidationError("Give --base-url, such as https://iis.bsuir.by.") }
            let report = try await withDatabase(storage) { database, logger in
                do {
                    return try await IISSync(
                        baseURL: url, database: database, logger: logger, timeZone: institutionTimeZone(),
                        concurrency: concurrency, actor: .commandLine
                    )
                    .run()
                } catch {
                    throw Failure(
                        t("The sync failed; nothing was removed. {reason}", ["reason": describeForPeople(error, t)]))
                }
            }
            let checked = t(
                "Synced. Checked groups: {groups}, teachers: {teachers}; schedules downloaded: {downloaded}, unchanged: {unchanged}, without a schedule: {without}.",
                [
                    "groups": String(report.groups), "teachers": String(report.teachers),
                    "downloaded": String(report.downloaded), "unchanged": String(report.unchanged),
                    "without": String(report.withoutSchedule),
                ])
            print(checked)
            if !report.failed.isEmpty {
                print(
                    t(
                        "Failed: {count} ({names}).",
                        [
                            "count": String(report.failed.count),
                            "names": report.failed.prefix(5).joined(separator: ", "),
                        ]))
            }
            if !report.failed.isEmpty { throw ExitCode(2) }
        }
    }
}

/// The institution's time zone: `option`, else CAMPUS_TIME_ZONE, else Europe/Minsk (a command's
/// `validate` has refused a name that is not one).
func institutionTimeZone(_ option: String? = nil) -> TimeZone {
    TimeZone(identifier: option ?? Environment.value("CAMPUS_TIME_ZONE") ?? "Europe/Minsk") ?? .gmt
}
