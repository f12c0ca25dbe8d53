import Accounts
import Foundation
import Localization
import SQLKit
import Storage
import Timetable

/// Reminders (issue 39), written once a minute by one instance (a shared job): a student's next
/// lesson N minutes before it begins (their choice, 15 by default; at most one per lesson, never
/// for a lesson an import removed, never after it began: one due while the server was down goes
/// out late, marked so, or not at all), a task's deadline a day and an hour before it, an exam N
/// days before it. Each is a notification like any other: inbox, push and mail by the user's
/// settings, quiet hours kept; a reminder expires when its moment passes.
struct Reminders: Sendable {
    let database: Database
    let timetable: TimetableService
    let languages: Languages
    let timeZone: TimeZone
    let now: @Sendable () -> Date

    /// A reminder this late after its moment is marked late.
    static let lateAfter: TimeInterval = 120

    /// What one round writes: lessons and tasks (each minute), or exams (each hour).
    enum Round: Sendable {
        case lessonsAndTasks
        case exams
    }

    /// Writes the reminders due now; returns how many.
    @discardableResult
    func remind(_ round: Round) async throws -> Int {
        let now = now()
        let (students, choices, preferences) = try await database.read { db in
            let store = NotificationStore(db)
            let students = try await store.students()
            let ids = students.map(\.id)
            return (students, try await store.choices(of: ids), try await store.preferences(of: ids))
        }
        var notices: [NewNotification] = []
        let today = LocalDate(now, in: timeZone)
        let horizon = LocalDate(
            now.addingTimeInterval(Double(NotificationPreferences.lessonMinutesRange.upperBound) * 60), in: timeZone)
        let last = round == .exams ? today.adding(days: NotificationPreferences.examDaysRange.upperBound) : horizon
        for (group, members) in Dictionary(grouping: students, by: { $0.group ?? "" }) where !group.isEmpty {
            guard
                let schedule = try? await timetable.schedule(
                    of: [.group(group)], in: today...last, filter: ScheduleFilter())
            else { continue }
            let occurrences = schedule.days.flatMap(\.occurrences)
            for member in members {
                let mine = occurrences.filter {
                    member.subgroup == 0 || $0.lesson.subgroup == 0 || $0.lesson.subgroup == member.subgroup
                }
                let preference = preferences[member.id] ?? NotificationPreferences()
                let t = languages.translator(member.language) ?? languages.choose(choice: nil, acceptLanguage: nil)
                let timing = NotificationTiming(preferences: preference, institution: timeZone)
                let lessonChoice = choices[member.id]?[.nextLesson] ?? NotificationTopic.nextLesson.defaultChoice
                if round == .lessonsAndTasks, lessonChoice.any {
                    for occurrence in mine where occurrence.date <= horizon && !occurrence.lesson.isAnnouncement {
                        let start = occurrence.start.moment(in: timeZone)
                        let due = start.addingTimeInterval(-Double(preference.lessonMinutes) * 60)
                        guard due <= now, now < start else { continue }
                        notices.append(
                            NewNotification(
                                userID: member.id, topic: .nextLesson,
                                cause: "lesson:\(occurrence.lesson.id):\(occurrence.date.iso)",
                                title: t(
                                    "{subject} at {time}", context: "notification",
                                    ["subject": occurrence.lesson.subject, "time": occurrence.lesson.start.description]),
                                body: Self.details(of: occurrence.lesson),
                                link: SiteRoutes.myTimetable.path, choice: lessonChoice,
                                late: now.timeIntervalSince(due) > Self.lateAfter, dueAt: timing.release(now),
                                expiresAt: start))
                    }
                }
                let examChoice = choices[member.id]?[.examSoon] ?? NotificationTopic.examSoon.defaultChoice
                if round == .exams, examChoice.any {
                    for occurrence in mine where occurrence.lesson.isExam && occurrence.date > today {
                        let days = today.days(until: occurrence.date)
                        guard days <= preference.examDays else { continue }
                        notices.append(
                            NewNotification(
                                userID: member.id, topic: .examSoon,
                                cause: "exam:\(occurrence.lesson.id):\(occurrence.date.iso)",
                                title: t.plural(
                                    "Exam in {count} day: {subject}", "Exam in {count} days: {subject}", days,
                                    context: "notification", ["subject": occurrence.lesson.subject]),
                                body: ScheduleText(t: t).date(occurrence.date) + ", "
                                    + occurrence.lesson.start.description
                                    + " · " + Self.details(of: occurrence.lesson),
                                link: SiteRoutes.myTimetable.path, choice: examChoice, dueAt: timing.release(now)))
                    }
                }
            }
        }
        if round == .lessonsAndTasks { notices += try await taskReminders(now: now) }
        let written = try await database.write { [notices] db in
            let store = NotificationStore(db)
            var written = 0
            for notice in notices where try await store.write(notice, now: now) != nil { written += 1 }
            return written
        }
        return written
    }

    /// A task's deadline a day before it, and an hour before it.
    private func taskReminders(now: Date) async throws -> [NewNotification] {
        let (tasks, readers, choices, preferences) = try await database.read { db in
            let store = NotificationStore(db)
            let tasks = try await store.tasksDue(after: now, until: now.addingTimeInterval(24 * 3600))
            let ids = Array(Set(tasks.map(\.userID)))
            return (
                tasks, try await store.readers(ids), try await store.choices(of: ids),
                try await store.preferences(of: ids)
            )
        }
        var notices: [NewNotification] = []
        for task in tasks {
            guard let reader = readers[task.userID] else { continue }
            let choice = choices[task.userID]?[.taskDeadline] ?? NotificationTopic.taskDeadline.defaultChoice
            guard choice.any else { continue }
            let t = languages.translator(reader.language) ?? languages.choose(choice: nil, acceptLanguage: nil)
            let hour = task.deadline.timeIntervalSince(now) <= 3600
            let timing = NotificationTiming(preferences: preferences[task.userID] ?? .init(), institution: timeZone)
            let title =
                hour
                ? t("Due within an hour: {subject}", context: "notification", ["subject": task.subject])
                : t("Due tomorrow: {subject}", context: "notification", ["subject": task.subject])
            notices.append(
                NewNotification(
                    userID: task.userID, topic: .taskDeadline, cause: "task:\(task.id):\(hour ? "hour" : "day")",
                    title: title, body: String(task.text.prefix(300)), link: SiteRoutes.task.path(task.id),
                    choice: choice, dueAt: timing.release(now), expiresAt: task.deadline))
        }
        return notices
    }

    /// The lesson's type, rooms and teachers: `ЛК · 505-2 · Иванов И. И.`.
    static func details(of lesson: Lesson) -> String {
        ([lesson.typeID].compactMap { $0 } + [lesson.rooms.map(\.name).joined(separator: ", ")]
            + [lesson.teachers.map(\.name).joined(separator: ", ")]).filter { !$0.isEmpty }.joined(separator: " · ")
    }
}

extension SharedJob {
    /// Next lessons and tasks' deadlines, each minute.
    static func reminders(_ reminders: Reminders) -> SharedJob {
        SharedJob(name: "reminders", interval: .seconds(60)) { try await reminders.remind(.lessonsAndTasks) }
    }

    /// Exams N days ahead, each hour.
    static func examNotices(_ reminders: Reminders) -> SharedJob {
        SharedJob(name: "exam-notices", interval: .seconds(3600), firstDelay: .seconds(30)) {
            try await reminders.remind(.exams)
        }
    }
}
