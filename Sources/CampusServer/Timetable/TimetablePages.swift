import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import NIOCore
import Storage
import Timetable

/// The timetable in the browser: search, lists of groups, teachers and rooms, and schedule pages
/// with a week grid and a day list.
struct TimetablePages: Sendable {
    let pages: WebPages
    var services: Services { pages.services }
    var timetable: TimetableService { services.timetable }

    func register(on routes: PageRoutes) {
        routes.get("/timetable", home)
        routes.get("/timetable/groups", groupList)
        routes.get("/timetable/teachers", teacherList)
        routes.get("/timetable/rooms", roomList)
        routes.get("/timetable/groups/:name", groupSchedule)
        routes.get("/timetable/teachers/:urlId", teacherSchedule)
        routes.get("/timetable/rooms/:roomId", roomSchedule)
        routes.get("/timetable/lesson-types.css", lessonTypeStyles)
    }

    /// A query parameter as a form sent it (`+` is a space).
    static func parameter(_ request: Request, _ name: String, maxLength: Int = 100) -> String? {
        guard let raw = request.uri.queryParameters[Substring(name)] else { return nil }
        let text = String(raw).replacingOccurrences(of: "+", with: " ").trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : String(text.prefix(maxLength))
    }

    static func link(_ path: String, _ parts: [(String, String?)]) -> String {
        let query = parts.compactMap { key, value in
            value.map { "\(key)=\(WebPages.percentEncoded($0).replacingOccurrences(of: "/", with: "%2F"))" }
        }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    static func groupURL(_ name: String) -> String {
        "/timetable/groups/\(WebPages.percentEncoded(name).replacingOccurrences(of: "/", with: "%2F"))"
    }
    static func teacherURL(_ urlID: String) -> String { "/timetable/teachers/\(WebPages.percentEncoded(urlID))" }
    static func roomURL(_ id: Int64) -> String { "/timetable/rooms/\(id)" }

    // MARK: Home and lists

    @Sendable func home(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let query = Self.parameter(request, "q")
        var values: [String: Any] = ["q": query ?? ""]
        if let group = visitor.user?.group {
            values["myGroup"] = ["name": group, "url": Self.groupURL(group)]
        }
        let (groups, teachers, rooms, specialities, faculties) = try await services.database.read { db in
            let store = TimetableStore(db)
            return (
                try await store.groups(), try await store.teachers(), try await store.rooms(),
                try await store.specialities(), try await store.faculties()
            )
        }
        values["counts"] = ["groups": groups.count, "teachers": teachers.count, "rooms": rooms.count]
        values["empty"] = groups.isEmpty && teachers.isEmpty
        if let query {
            let specialityByID = Dictionary(specialities.map { ($0.id, $0) }) { a, _ in a }
            let foundGroups = Listing.groups(
                groups, specialities: specialityByID,
                faculties: Dictionary(faculties.map { ($0.id, $0) }) { a, _ in a },
                filter: .init(search: query), sections: .speciality
            ).flatMap(\.items)
            let foundTeachers = Listing.teachers(teachers, search: query, sections: .letter).flatMap(\.items)
            let foundRooms = Listing.rooms(rooms, search: query, sections: .building).flatMap(\.items)
            values["results"] =
                [
                    "groups": foundGroups.prefix(30).map { groupValues($0, specialityByID) },
                    "teachers": foundTeachers.prefix(30).map(teacherValues),
                    "rooms": foundRooms.prefix(30).map(roomValues),
                    "groupCount": foundGroups.count, "teacherCount": foundTeachers.count, "roomCount": foundRooms.count,
                    "none": foundGroups.isEmpty && foundTeachers.isEmpty && foundRooms.isEmpty,
                ] as [String: Any]
        }
        return try await pages.render("timetable", values, for: visitor, section: "timetable")
    }

    // Mustache looks a missing key up in the enclosing contexts, so every item has the same keys:
    // a name, a link and one line of detail.

    private func groupValues(_ group: StudyGroup, _ specialities: [Int: Speciality]) -> [String: Any] {
        var detail = [group.title, group.specialityID.flatMap { specialities[$0]?.abbreviation }].compactMap { $0 }
        if let course = group.course { detail.append("course \(course)") }
        return ["name": group.name, "url": Self.groupURL(group.name), "detail": detail.joined(separator: " · ")]
    }

    private func teacherValues(_ teacher: Teacher) -> [String: Any] {
        let detail = [teacher.departments.joined(separator: ", "), teacher.rank ?? ""].filter { !$0.isEmpty }
        return [
            "name": teacher.fullName, "url": Self.teacherURL(teacher.urlID), "detail": detail.joined(separator: " · "),
        ]
    }

    private func roomValues(_ room: Room) -> [String: Any] {
        var details: [String] = []
        if let type = room.type?.name { details.append(type) }
        if let capacity = room.capacity { details.append("\(capacity) seats") }
        if let department = room.departmentAbbreviation { details.append(department) }
        if room.isOffCampus { details.append("off campus") }
        return ["name": room.displayName, "url": Self.roomURL(room.id), "detail": details.joined(separator: " · ")]
    }

    private func list(
        _ request: Request, kind: String, title: String, sectionChoices: [String], chosen: String,
        sections: [[String: Any]], total: Int, visitor: WebPages.Visitor
    ) async throws -> Response {
        let query = Self.parameter(request, "q")
        let values: [String: Any] = [
            "kind": kind, "title": title, "q": query ?? "", "sections": sections, "total": total,
            "sectionChoices": sectionChoices.map { choice in
                [
                    "name": choice, "selected": choice == chosen,
                    "url": Self.link("/timetable/\(kind)", [("q", query), ("sections", choice)]),
                ] as [String: Any]
            },
            "tabs": [("groups", "Groups"), ("teachers", "Teachers"), ("rooms", "Rooms")].map { tab in
                ["url": Self.link("/timetable/\(tab.0)", [("q", query)]), "title": tab.1, "current": tab.0 == kind]
            },
        ]
        return try await pages.render("timetable-list", values, for: visitor, section: "timetable")
    }

    @Sendable func groupList(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let chosen = Listing.GroupSections(rawValue: Self.parameter(request, "sections") ?? "") ?? .speciality
        let (groups, specialities, faculties) = try await services.database.read { db in
            let store = TimetableStore(db)
            return (try await store.groups(), try await store.specialities(), try await store.faculties())
        }
        let specialityByID = Dictionary(specialities.map { ($0.id, $0) }) { a, _ in a }
        let course = Self.parameter(request, "course").flatMap { Int($0) }
        let sections = Listing.groups(
            groups, specialities: specialityByID, faculties: Dictionary(faculties.map { ($0.id, $0) }) { a, _ in a },
            filter: .init(search: Self.parameter(request, "q"), course: course), sections: chosen)
        return try await list(
            request, kind: "groups", title: "Groups", sectionChoices: Listing.GroupSections.allCases.map(\.rawValue),
            chosen: chosen.rawValue,
            sections: sections.map { ["title": $0.title, "items": $0.items.map { groupValues($0, specialityByID) }] },
            total: sections.reduce(0) { $0 + $1.items.count }, visitor: visitor)
    }

    @Sendable func teacherList(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let chosen = Listing.TeacherSections(rawValue: Self.parameter(request, "sections") ?? "") ?? .letter
        let teachers = try await services.database.read { db in try await TimetableStore(db).teachers() }
        let sections = Listing.teachers(teachers, search: Self.parameter(request, "q"), sections: chosen)
        return try await list(
            request, kind: "teachers", title: "Teachers",
            sectionChoices: Listing.TeacherSections.allCases.map(\.rawValue), chosen: chosen.rawValue,
            sections: sections.map { ["title": $0.title, "items": $0.items.map(teacherValues)] },
            total: Set(sections.flatMap { $0.items.map(\.id) }).count, visitor: visitor)
    }

    @Sendable func roomList(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let chosen = Listing.RoomSections(rawValue: Self.parameter(request, "sections") ?? "") ?? .building
        let rooms = try await services.database.read { db in try await TimetableStore(db).rooms() }
        let sections = Listing.rooms(rooms, search: Self.parameter(request, "q"), sections: chosen)
        return try await list(
            request, kind: "rooms", title: "Rooms", sectionChoices: Listing.RoomSections.allCases.map(\.rawValue),
            chosen: chosen.rawValue, sections: sections.map { ["title": $0.title, "items": $0.items.map(roomValues)] },
            total: sections.reduce(0) { $0 + $1.items.count }, visitor: visitor)
    }

    // MARK: Schedules

    @Sendable func groupSchedule(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        guard let name = context.parameters.get("name").flatMap({ $0.removingPercentEncoding }),
            let group = try await services.database.read({ db in try await TimetableStore(db).group(named: name) })
        else { throw Problem.notFound("There is no group \(context.parameters.get("name") ?? "").") }
        let speciality = try await services.database.read { db in
            try await TimetableStore(db).specialities().first { $0.id == group.specialityID }
        }
        var subtitle: [String] = []
        if let title = group.title { subtitle.append(title) }
        if let speciality { subtitle.append(speciality.name) }
        if let course = group.course { subtitle.append("course \(course)") }
        if let count = group.studentCount { subtitle.append("\(count) students") }
        // The visitor's own group opens on their subgroup.
        var subgroup = Self.parameter(request, "subgroup").flatMap { Int($0) }
        if subgroup == nil, let user = visitor.user, user.group == group.name, user.subgroup != 0 {
            subgroup = user.subgroup
        }
        return try await schedule(
            request, visitor: visitor, target: .group(group.name), title: "Group \(group.name)",
            subtitle: subtitle.joined(separator: " · "), path: Self.groupURL(group.name),
            feed: "/api/v1/groups/\(WebPages.percentEncoded(group.name))/calendar.ics", subgroup: subgroup ?? 0,
            showSubgroups: true, term: group.term, extra: [:])
    }

    @Sendable func teacherSchedule(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let urlID = context.parameters.get("urlId") ?? ""
        guard
            let (teacher, card) = try await services.database.read({ db -> (Teacher, TeacherCard?)? in
                let store = TimetableStore(db)
                guard let teacher = try await store.teacher(urlID: urlID) else { return nil }
                return (teacher, try await store.teacherCard(teacherID: teacher.id))
            })
        else { throw Problem.notFound("There is no teacher \(urlID).") }
        var subtitle = [teacher.rank, teacher.degree ?? teacher.degreeAbbreviation].compactMap { $0 }
        if !teacher.departments.isEmpty { subtitle.append(teacher.departments.joined(separator: ", ")) }
        var extra: [String: Any] = [:]
        if let card {
            var values: [String: Any] = [:]
            if let description = card.description { values["description"] = description }
            if let subject = card.subject { values["subject"] = subject }
            switch card.marksAttendance {
            case .yes: values["attendance"] = "Marks attendance"
            case .no: values["attendance"] = "Does not mark attendance"
            case .sometimes: values["attendance"] = "Sometimes marks attendance"
            case nil: break
            }
            if let automatic = card.automaticPassPossible {
                values["automatic"] = automatic ? "Automatic pass possible" : "No automatic pass"
                values["automaticYes"] = automatic
            }
            extra["card"] = values
        }
        return try await schedule(
            request, visitor: visitor, target: .teacher(teacher.urlID), title: teacher.fullName,
            subtitle: subtitle.joined(separator: " · "), path: Self.teacherURL(teacher.urlID),
            feed: "/api/v1/teachers/\(WebPages.percentEncoded(teacher.urlID))/calendar.ics", subgroup: 0,
            showSubgroups: false, term: teacher.term, extra: extra)
    }

    @Sendable func roomSchedule(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        guard let id = context.parameters.get("roomId", as: Int64.self),
            let room = try await services.database.read({ db in try await TimetableStore(db).room(id: id) })
        else { throw Problem.notFound("There is no room \(context.parameters.get("roomId") ?? "").") }
        return try await schedule(
            request, visitor: visitor, target: .room(room.id), title: "Room \(room.displayName)",
            subtitle: roomValues(room)["detail"] as? String ?? "", path: Self.roomURL(room.id),
            feed: "/api/v1/rooms/\(room.id)/calendar.ics", subgroup: 0, showSubgroups: false, term: nil, extra: [:])
    }

    /// A schedule page: now and next, week navigation, a week grid (rows are the week's time
    /// slots, windows between lessons grey) and a day list.
    private func schedule(
        _ request: Request, visitor: WebPages.Visitor, target: TimetableService.Target, title: String,
        subtitle: String, path: String, feed: String, subgroup: Int, showSubgroups: Bool, term: TermDates?,
        extra: [String: Any]
    ) async throws -> Response {
        let today = timetable.today()
        var anchor = today
        if let text = Self.parameter(request, "week") {
            switch LocalDate.read(iso: text) {
            case .success(let date): anchor = date
            case .failure(let problem):
                throw Problem.invalid(
                    .init(field: "week", detail: LocalDate.problemText(problem, field: "week", example: "2026-11-16")))
            }
        } else if let span = term?.span, !span.contains(today), today < span.lowerBound {
            // Before the term starts, show its first week.
            anchor = span.lowerBound
        }
        let week = Schedule.week(holding: anchor)
        let filter = ScheduleFilter(subgroup: subgroup == 0 ? nil : subgroup)
        let result = try await timetable.schedule(of: [target], in: week, filter: filter)
        let now = LocalDateTime(services.now(), in: timetable.timeZone)
        let view = Self.parameter(request, "view")
        let query: [(String, String?)] = [("subgroup", subgroup == 0 ? nil : String(subgroup)), ("view", view)]

        // Now and next, from today on.
        let (nowNext, types) = try await timetable.nowAndNext(of: [target], filter: filter)
        var banner: [String: Any] = [:]
        if let current = nowNext.current.first {
            banner["current"] = lessonValues(current, types: types, now: now, target: target)
            banner["minutesLeft"] = Self.duration(nowNext.minutesLeft ?? 0)
        }
        if let next = nowNext.next {
            var values = lessonValues(next, types: types, now: now, target: target)
            values["when"] =
                next.date == now.date ? "today" : "\(next.date.weekday.englishName) \(Self.shortDate(next.date))"
            banner["next"] = values
            banner["minutesUntil"] = Self.duration(nowNext.minutesUntilNext ?? 0)
        }

        // The week grid: one row per time slot of the week.
        let shownDays = result.days.filter { $0.date.weekday != .sunday || !$0.occurrences.isEmpty }
        let slots = Set(
            result.days.flatMap { $0.occurrences.map { SlotKey(start: $0.lesson.start, end: $0.lesson.end) } }
        )
        .sorted()
        let rows: [[String: Any]] = slots.map { slot in
            [
                "time": "\(slot.start)–\(slot.end)",
                "cells": shownDays.map { day -> [String: Any] in
                    let lessons = day.occurrences.filter { $0.lesson.start == slot.start && $0.lesson.end == slot.end }
                    let before = day.occurrences.contains { $0.lesson.end <= slot.start }
                    let after = day.occurrences.contains { $0.lesson.start >= slot.end }
                    return [
                        "lessons": lessons.map { lessonValues($0, types: result.types, now: now, target: target) },
                        "window": lessons.isEmpty && before && after
                            && !day.occurrences.contains { $0.lesson.start < slot.end && $0.lesson.end > slot.start },
                        "today": day.date == today,
                    ]
                },
            ]
        }
        let days: [[String: Any]] = shownDays.map { day in
            var items: [[String: Any]] = []
            var windows = day.windows
            for occurrence in day.occurrences {
                while let window = windows.first, window.end <= occurrence.lesson.start {
                    items.append([
                        "window": true, "start": window.start.description, "end": window.end.description,
                        "minutes": Self.duration(window.minutes),
                    ])
                    windows.removeFirst()
                }
                items.append(["lesson": lessonValues(occurrence, types: result.types, now: now, target: target)])
            }
            return [
                "weekday": day.date.weekday.englishName, "short": day.date.weekday.shortEnglishName,
                "date": Self.shortDate(day.date), "iso": day.date.iso, "today": day.date == today,
                "week": day.week.map { result.calendar.weekName($0) } ?? "", "items": items,
                "empty": day.occurrences.isEmpty, "past": day.date < today,
            ]
        }
        let weekNumber = result.calendar.week(of: week.lowerBound)
        var values: [String: Any] = [
            "title": title, "subtitle": subtitle, "feed": feed,
            "weekTitle":
                "\(Self.shortDate(week.lowerBound)) – \(Self.shortDate(week.upperBound)) \(week.upperBound.year)",
            "studyWeek": weekNumber.map {
                result.calendar.cycleLength == 2
                    ? "\(result.calendar.weekName($0).capitalized) week" : "Study week \($0)"
            } ?? "",
            "previous": Self.link(path, [("week", week.lowerBound.adding(days: -7).iso)] + query),
            "next": Self.link(path, [("week", week.lowerBound.adding(days: 7).iso)] + query),
            "thisWeek": Self.link(path, query),
            "isThisWeek": week.contains(today),
            "dayHeaders": days, "rows": rows, "days": days, "hasLessons": !slots.isEmpty,
            "banner": banner, "hasBanner": !banner.isEmpty,
            "listView": view == "list", "gridView": view == "grid",
            "gridURL": Self.link(
                path,
                [
                    ("week", Self.parameter(request, "week")), ("subgroup", subgroup == 0 ? nil : String(subgroup)),
                    ("view", "grid"),
                ]),
            "listURL": Self.link(
                path,
                [
                    ("week", Self.parameter(request, "week")), ("subgroup", subgroup == 0 ? nil : String(subgroup)),
                    ("view", "list"),
                ]),
        ]
        if let term, let span = term.span {
            values["term"] =
                "\(Self.shortDate(span.lowerBound)) \(span.lowerBound.year) – \(Self.shortDate(span.upperBound)) \(span.upperBound.year)"
        }
        if showSubgroups {
            let all = try await timetable.lessons(of: [target], in: term?.span ?? week)
            let present = Set(all.map(\.subgroup)).union(subgroup == 0 ? [] : [subgroup])
            values["subgroups"] = ([0] + present.filter { $0 != 0 }.sorted()).map { number in
                [
                    "label": number == 0 ? "All" : "Subgroup \(number)", "selected": number == subgroup,
                    "url": Self.link(
                        path, [("week", Self.parameter(request, "week")), ("subgroup", String(number)), ("view", view)]),
                ] as [String: Any]
            }
        }
        for (key, value) in extra { values[key] = value }
        return try await pages.render("schedule", values, for: visitor, section: "timetable")
    }

    struct SlotKey: Hashable, Comparable {
        var start: WallTime
        var end: WallTime
        static func < (lhs: SlotKey, rhs: SlotKey) -> Bool { (lhs.start, lhs.end) < (rhs.start, rhs.end) }
    }

    private func lessonValues(
        _ occurrence: Occurrence, types: [String: LessonType], now: LocalDateTime, target: TimetableService.Target
    ) -> [String: Any] {
        let lesson = occurrence.lesson
        let type = lesson.typeID.map { types[$0] ?? .unknown($0) }
        var values: [String: Any] = [
            "start": lesson.start.description, "end": lesson.end.description, "subject": lesson.subject,
            "fullSubject": lesson.subjectFullName ?? lesson.subject, "typeClass": type.map(Self.typeClass) ?? "lt-none",
            "typeName": type?.name ?? "", "typeAbbreviation": type?.abbreviation ?? "",
            "past": occurrence.end <= now, "now": occurrence.start <= now && now < occurrence.end,
            "rooms": lesson.rooms.map { ["name": $0.name, "url": Self.roomURL($0.id)] },
            "teachers": lesson.teachers.map { ["name": $0.name, "url": Self.teacherURL($0.urlID)] },
            "exam": lesson.isExam, "date": Self.shortDate(occurrence.date),
            "subgroup": lesson.subgroup == 0 ? false : lesson.subgroup, "note": lesson.note ?? false,
            "groups": [[String: Any]](),
        ]
        if case .group = target {
        } else {
            values["groups"] = lesson.groups.map { ["name": $0, "url": Self.groupURL($0)] }
        }
        return values
    }

    static func typeClass(_ type: LessonType) -> String {
        "lt-" + type.id.utf8.map { String(format: "%02x", $0) }.joined()
    }

    static func shortDate(_ date: LocalDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(date.day) \(months[date.month - 1])"
    }

    static func duration(_ minutes: Int) -> String {
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 24 * 60 {
            return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
        }
        let days = minutes / 1440
        return days == 1 ? "1 day" : "\(days) days"
    }

    /// The colours of lesson types, as classes (lesson types are editable, so this is made from
    /// the database rather than written in campus.css).
    @Sendable func lessonTypeStyles(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let types = try await services.database.read { db in try await TimetableStore(db).lessonTypes() }
        var css = ".lt-none { --type-colour: #8a929c; }\n"
        for type in types {
            let colour =
                type.colour.range(of: #"^#[0-9a-fA-F]{6}$"#, options: .regularExpression) != nil
                ? type.colour : "#8a929c"
            css += ".\(Self.typeClass(type)) { --type-colour: \(colour); }\n"
        }
        return Response(
            status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: css)))
    }
}
