import CampusHTTP
import Foundation
import InputRules
import SharedHelpers
import Timetable

/// Makes a schedule page: now and next, week navigation, a week grid (rows are the week's time
/// slots, windows between lessons grey) and a day list.
struct SchedulePageBuilder: Sendable {
    let myTimetable: MyTimetableService
    let now: @Sendable () -> Date
    let timetable: TimetableService

    func page(
        _ request: PageRequest, targets: [TimetableService.Target], title: String, subtitle: String, route: String,
        feed: String, subgroup: Int, showSubgroups: Bool, term: TermDates?, card: SchedulePage.Card?,
        favorite: Favorite?, subgroupOf: Set<String>? = nil, find: String? = nil
    ) async throws -> SchedulePage {
        let today = timetable.today()
        var anchor = today
        let weekText = request.query("week")
        if let weekText {
            switch LocalDate.read(iso: weekText) {
            case .success(let date): anchor = date
            case .failure(let problem):
                throw Refusal.invalid(LocalDate.fieldProblem(problem, field: "week", example: "2026-11-16"))
            }
        } else if let span = term?.span, !span.contains(today), today < span.lowerBound {
            // Before the term starts, show its first week.
            anchor = span.lowerBound
        }
        let week = Schedule.week(holding: anchor)
        let search = request.text("q")
        let filter = ScheduleFilter(
            subgroup: subgroup == 0 ? nil : subgroup, subgroupOf: subgroupOf, containing: search)
        let result = try await timetable.schedule(of: targets, in: week, filter: filter)
        let pairs = try await timetable.pairTimes()
        let now = LocalDateTime(now(), in: timetable.timeZone)
        let view = request.query("view")
        let subgroupText = subgroup == 0 ? nil : String(subgroup)
        func link(_ parts: [(String, String?)]) -> String { Route<Void>(route).path(query: parts) }
        let query: [(String, String?)] = [("subgroup", subgroupText), ("view", view), ("q", search)]
        let text = ScheduleText(t: request.t)
        // The visitor's own notes, as markers on their lessons, and their nicknames for groups.
        var notes: [LessonNote] = []
        var nicknames: [String: String] = [:]
        var display = DisplaySettings()
        if let user = request.visitor.user {
            let ids = Set(result.days.flatMap { $0.occurrences.map(\.lesson.id) })
            notes = try await myTimetable.notes(of: user, lessonIDs: Array(ids))
            nicknames = try await myTimetable.nicknames(of: user)
            display = try await myTimetable.displaySettings(of: user)
        }
        let noteBack = request.visitor.user == nil ? nil : link([("week", weekText)] + query)
        func lesson(_ occurrence: Occurrence, _ types: [String: LessonType]) -> SchedulePage.Lesson {
            Self.lesson(
                occurrence, types: types, now: now, showGroups: Self.showsGroups(targets), text: text, notes: notes,
                noteBack: noteBack, nicknames: nicknames, calendar: result.calendar, pairs: pairs, display: display)
        }

        // Now and next, from today on.
        let (nowNext, types) = try await timetable.nowAndNext(of: targets, filter: filter)
        var banner = SchedulePage.Banner()
        if let current = nowNext.current.first {
            banner.current = lesson(current, types)
            banner.minutesLeft = text.duration(nowNext.minutesLeft ?? 0)
        }
        if let next = nowNext.next {
            var values = lesson(next, types)
            values.when = text.when(next.date, today: now.date)
            banner.next = values
            banner.minutesUntil = text.duration(nowNext.minutesUntilNext ?? 0)
        }

        // The week grid: one row per time slot of the week.
        let shownDays = result.days.filter { $0.date.weekday != .sunday || !$0.occurrences.isEmpty }
        let lessonSlots = Set(
            result.days.flatMap { $0.occurrences.map { SlotKey(start: $0.lesson.start, end: $0.lesson.end) } })
        let slots = Self.gridSlots(lessonSlots, windows: shownDays.flatMap(\.windows), pairs: pairs)
        let rows = slots.map { slot in
            SchedulePage.Row(
                time: "\(slot.start)–\(slot.end)",
                cells: shownDays.map { day in
                    let lessons = day.occurrences.filter { $0.lesson.start == slot.start && $0.lesson.end == slot.end }
                    // The day's window this slot is in; its first slot says its times and message.
                    let window = lessons.isEmpty ? day.windows.first(where: { slot.isIn($0) }) : nil
                    let first = window.map { window in slots.first(where: { $0.isIn(window) }) == slot } ?? false
                    return SchedulePage.Cell(
                        lessons: lessons.map { lesson($0, result.types) }, window: window != nil,
                        today: day.date == today,
                        free: first ? window.map { Self.freeTime($0, text) } : nil)
                })
        }
        let days = shownDays.map { day in
            var items: [SchedulePage.DayItem] = []
            var windows = day.windows[...]
            for occurrence in day.occurrences {
                while let window = windows.first, window.end <= occurrence.lesson.start {
                    items.append(.init(window: Self.freeTime(window, text)))
                    windows = windows.dropFirst()
                }
                items.append(.init(lesson: lesson(occurrence, result.types)))
            }
            return SchedulePage.Day(
                weekday: text.weekday(day.date), short: text.weekday(day.date, short: true),
                date: text.shortDate(day.date), iso: day.date.iso, today: day.date == today,
                week: day.week.map { text.week($0, in: result.calendar) }, items: items,
                empty: day.occurrences.isEmpty, past: day.date < today)
        }
        let weekNumber = result.calendar.week(of: week.lowerBound)
        let studyWeek =
            weekNumber.map { text.studyWeek($0, in: result.calendar) }
            ?? StudyCalendar.academicWeek(of: week.lowerBound).map(text.academicWeek) ?? ""
        var subgroups: [SchedulePage.Choice] = []
        if showSubgroups {
            let all = try await timetable.lessons(of: targets, in: term?.span ?? week)
            let present = Set(all.map(\.subgroup)).union(subgroup == 0 ? [] : [subgroup])
            subgroups = ([0] + present.filter { $0 != 0 }.sorted()).map { number in
                .init(
                    label: number == 0
                        ? request.t("All", context: "subgroups")
                        : request.t("Subgroup {number}", ["number": String(number)]), selected: number == subgroup,
                    url: link([("week", weekText), ("subgroup", String(number)), ("view", view)]))
            }
        }
        var nicknameBox: NicknameBox?
        var title = title
        if let favorite, favorite.kind == .group, request.visitor.user != nil {
            nicknameBox = NicknameBox(group: favorite.id, value: nicknames[favorite.id] ?? "", back: link(query))
            if let nickname = nicknames[favorite.id] { title += " · " + nickname }
        }
        var page = SchedulePage(
            title: title, subtitle: subtitle, feed: feed, find: find,
            term: term?.span.map { text.span($0.lowerBound, $0.upperBound) },
            card: card,
            weekTitle: text.span(week.lowerBound, week.upperBound),
            studyWeek: studyWeek,
            previous: link([("week", week.lowerBound.adding(days: -7).iso)] + query),
            next: link([("week", week.lowerBound.adding(days: 7).iso)] + query), thisWeek: link(query),
            isThisWeek: week.contains(today), dayHeaders: days, rows: rows, days: days,
            hasLessons: !lessonSlots.isEmpty,
            banner: banner, hasBanner: banner.current != nil || banner.next != nil, listView: view == "list",
            gridView: view == "grid",
            gridURL: link([("week", weekText), ("subgroup", subgroupText), ("view", "grid")]),
            listURL: link([("week", weekText), ("subgroup", subgroupText), ("view", "list")]), subgroups: subgroups,
            favorite: favorite == nil ? nil : try await star(favorite, request: request, back: link(query)),
            nickname: nicknameBox)
        page.q = search ?? ""
        page.lastChanged = term?.lastChanged.map {
            request.t("changed by the institution on {date}", ["date": text.date($0)])
        }
        page.jump = .init(action: route, date: anchor.iso, subgroup: subgroupText, view: view == "exams" ? nil : view)
        page.examsURL = link([("subgroup", subgroupText), ("view", "exams")])
        page.changes = try await changes(of: targets, filter: filter, today: today, request: request)
        if view == "exams" {
            page.examView = true
            page.exams = try await exams(of: targets, filter: filter, term: term, today: today) { occurrence in
                SchedulePage.Exam(
                    date: text.date(occurrence.date), left: text.daysLeft(today.days(until: occurrence.date)),
                    past: occurrence.date < today, lesson: lesson(occurrence, result.types))
            }
            page.noExams = page.exams.isEmpty
        }
        return page
    }

    /// The exam session: every exam and consultation of the targets in date and time order, over
    /// the term (or from a year back to a year ahead when the term is unknown).
    private func exams(
        of targets: [TimetableService.Target], filter: ScheduleFilter, term: TermDates?, today: LocalDate,
        _ make: (Occurrence) -> SchedulePage.Exam
    ) async throws -> [SchedulePage.Exam] {
        let range = term?.span ?? today.adding(days: -365)...today.adding(days: 365)
        let calendar = try await timetable.studyCalendar()
        let lessons = try await timetable.lessons(of: targets, in: range).filter(\.isExam)
        return Schedule.occurrences(of: lessons, in: range, calendar: calendar, filter: filter).map(make)
    }

    /// The star for a signed-in visitor: whether it is a favorite of theirs.
    private func star(_ favorite: Favorite?, request: PageRequest, back: String) async throws -> FavoriteToggle? {
        guard let favorite, let user = request.visitor.user else { return nil }
        let favorites = try await myTimetable.kept(by: user)
        return FavoriteToggle(
            kind: favorite.kind.rawValue, id: favorite.id,
            isFavorite: favorites.contains(favorite), back: back)
    }

    struct SlotKey: Hashable, Comparable {
        var start: WallTime
        var end: WallTime
        static func < (lhs: SlotKey, rhs: SlotKey) -> Bool { (lhs.start, lhs.end) < (rhs.start, rhs.end) }

        /// Whether the slot lies within the window.
        func isIn(_ window: Window) -> Bool { window.start <= start && end <= window.end }
    }

    /// The week grid's rows, in order: the slots of the week's lessons, and for a window that
    /// holds none of them the institution's pairs inside it (the window itself when it holds no
    /// whole pair), so that every window of the day list is in the grid too.
    static func gridSlots(_ lessonSlots: Set<SlotKey>, windows: [Window], pairs: PairTimes) -> [SlotKey] {
        var slots = lessonSlots
        for window in windows where !slots.contains(where: { $0.isIn(window) }) {
            let inside = pairs.slots.map { SlotKey(start: $0.start, end: $0.end) }.filter { $0.isIn(window) }
            slots.formUnion(inside.isEmpty ? [SlotKey(start: window.start, end: window.end)] : inside)
        }
        return slots.sorted()
    }

    /// A window as the day list and the grid say it: its times, its length and the timetable's
    /// message about it.
    static func freeTime(_ window: Window, _ text: ScheduleText) -> SchedulePage.FreeTime {
        .init(
            start: window.start.description, end: window.end.description, minutes: text.duration(window.minutes),
            message: window.message)
    }

    /// Whether lessons name their groups: not on one group's own schedule.
    static func showsGroups(_ targets: [TimetableService.Target]) -> Bool {
        guard targets.count == 1, case .group = targets[0] else { return true }
        return false
    }

    static func lesson(
        _ occurrence: Occurrence, types: [String: LessonType], now: LocalDateTime, showGroups: Bool,
        text: ScheduleText, notes: [LessonNote] = [], noteBack: String? = nil, nicknames: [String: String] = [:],
        calendar: StudyCalendar = .datedOnly, pairs: PairTimes? = nil, display: DisplaySettings = DisplaySettings()
    ) -> SchedulePage.Lesson {
        let lesson = occurrence.lesson
        let type = lesson.typeID.map { text.lessonType(types[$0] ?? .unknown($0)) }
        let subject = display.subject(of: lesson)
        let fullSubject = lesson.subjectFullName.flatMap { $0.isEmpty ? nil : $0 } ?? lesson.subject
        let groups: [SchedulePage.Link] =
            showGroups
            ? lesson.groups.map {
                .init(name: PersonalTouches.groupName($0, nicknames: nicknames), url: SiteRoutes.group.path($0))
            } : []
        return SchedulePage.Lesson(
            start: lesson.start.description, end: lesson.end.description, subject: subject,
            fullSubject: fullSubject, expandable: fullSubject != subject,
            typeClass: type.map(Self.typeClass) ?? "lt-none",
            typeName: type?.name ?? "", typeAbbreviation: type?.abbreviation ?? "", past: occurrence.end <= now,
            now: occurrence.start <= now && now < occurrence.end,
            rooms: lesson.rooms.map {
                .init(name: $0.name, url: SiteRoutes.room.path($0.id), mapURL: $0.point?.openStreetMapURL)
            },
            teachers: lesson.teachers.map { .init(name: $0.name, url: SiteRoutes.teacher.path($0.urlID)) },
            groups: groups, exam: lesson.isExam, date: text.shortDate(occurrence.date),
            subgroup: lesson.subgroup == 0 ? nil : lesson.subgroup, weeks: text.weeks(lesson.weeks, in: calendar),
            pair: pairs?.number(startingAt: lesson.start), announcement: lesson.isAnnouncement, note: lesson.note,
            myNotes: notes.filter { $0.applies(to: occurrence) }.map(\.text),
            hasNote: notes.contains { $0.applies(to: occurrence) },
            noteURL: noteBack.map {
                SiteRoutes.lessonNotes.path(lesson.id, query: [("date", occurrence.date.iso), ("back", $0)])
            } ?? "",
            canNote: noteBack != nil)
    }

    static func typeClass(_ type: LessonType) -> String {
        "lt-" + type.id.utf8.hexadecimal
    }
}
