import CampusHTTP
import Foundation
import InputRules
import Localization
import Timetable

/// Free rooms (for everyone) and the conflicts report (for admins) in the browser.
struct RoomUsePages: Sendable {
    let directory: TimetableDirectory
    let timetable: TimetableService

    func register(on pages: PageRouter) {
        pages.page(SiteRoutes.freeRooms, freeRooms)
        pages.signedInPage(SiteRoutes.conflicts, conflicts)
        pages.signedInPage(SiteRoutes.buildings, buildings)
        pages.form(SiteRoutes.building, BuildingForm.self, setBuilding)
    }

    // MARK: Free rooms

    @Sendable func freeRooms(_ request: PageRequest) async throws -> PageAnswer {
        let t = request.t
        let pairs = try await timetable.pairTimes()
        let date = request.query("date")
        let pair = request.query("pair").flatMap { Int($0) }
        // The form sends both fields; a pair chosen wins over the time.
        let time = pair == nil ? request.query("time") : nil
        let building = request.query("building").flatMap { Int($0) }
        let type = request.query("type")
        let capacity = request.query("capacity").flatMap { Int($0) }
        var page = FreeRoomsPage(
            date: date ?? timetable.today().iso, time: time ?? "",
            pairs: pairs.slots.enumerated().map { index, slot in
                .init(
                    value: String(index + 1), label: "\(index + 1) · \(slot.start)–\(slot.end)",
                    selected: pair == index + 1)
            },
            building: building.map(String.init) ?? "", type: type ?? "", capacity: capacity.map(String.init) ?? "",
            summary: nil, error: nil, sections: [], none: false)
        do {
            let answer = try await timetable.freeRooms(
                date: date, time: time, pair: pair, building: building, type: type, capacity: capacity)
            page.date = answer.date.iso
            if page.time.isEmpty, pair == nil { page.time = answer.start.description }
            let when =
                pair.map { number in
                    t(
                        "during pair {pair} ({start}–{end})",
                        ["pair": String(number), "start": answer.start.description, "end": answer.end.description])
                } ?? t("at {time}", ["time": answer.start.description])
            page.summary = t.plural(
                "{count} room is free on {date} {when}.", "{count} rooms are free on {date} {when}.", answer.total,
                ["date": ScheduleText(t: t).date(answer.date), "when": when])
            page.none = answer.total == 0
            page.sections = answer.sections.map { section in
                .init(
                    title: TimetablePages.heading(section.label, t),
                    items: section.items.map { found in
                        .init(
                            name: found.room.displayName, url: SiteRoutes.room.path(found.room.id),
                            detail: TimetablePages.detail(found.room, t),
                            until: found.freeUntil.map { t("free until {time}", ["time": $0.description]) }
                                ?? t("free for the rest of the day"))
                    })
            }
        } catch let refusal as Refusal {
            page.error = t.detail(refusal)
        }
        return .page(page)
    }

    // MARK: Conflicts

    @Sendable func conflicts(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let t = request.t
        let from = request.query("from")
        let to = request.query("to")
        let asked = Set(request.queryValues("kind").compactMap(Conflict.Kind.init(rawValue:)))
        var page = ConflictsPage(
            from: from ?? "", to: to ?? "",
            kinds: Conflict.Kind.allCases.map {
                .init(value: $0.rawValue, label: Self.name($0, t), selected: asked.contains($0))
            },
            summary: nil, error: nil, rows: [], hasRows: false)
        do {
            let report = try await timetable.conflicts(from: from, to: to, kinds: asked, limit: nil, by: account.user)
            let types = try await timetable.lessonTypes()
            page.from = report.range.lowerBound.iso
            page.to = report.range.upperBound.iso
            page.summary =
                t.plural(
                    "From {from} to {to}: {count} conflict.", "From {from} to {to}: {count} conflicts.", report.total,
                    [
                        "from": ScheduleText(t: t).date(report.range.lowerBound),
                        "to": ScheduleText(t: t).date(report.range.upperBound),
                    ])
                + (report.total > report.conflicts.count
                    ? " " + t("The first {shown} are listed.", ["shown": String(report.conflicts.count)]) : "")
            page.rows = report.conflicts.map { conflict in
                .init(
                    date: ScheduleText(t: t).date(conflict.first.date), kind: Self.name(conflict.kind, t),
                    name: conflict.name,
                    first: Self.side(conflict.first, types, ScheduleText(t: t)),
                    second: Self.side(conflict.second, types, ScheduleText(t: t)))
            }
            page.hasRows = !page.rows.isEmpty
        } catch let refusal as Refusal where refusal.reason != .notAllowed {
            page.error = t.detail(refusal)
        }
        return .page(page)
    }

    static func name(_ kind: Conflict.Kind, _ t: Translator) -> String {
        switch kind {
        case .teacher: t("Teacher")
        case .room: t("Room")
        case .group: t("Group")
        }
    }

    /// One lesson of a conflict: its time, subject, and whom and where (data, never translated).
    static func side(_ occurrence: Occurrence, _ types: [String: LessonType], _ text: ScheduleText)
        -> ConflictsPage.Side
    {
        let lesson = occurrence.lesson
        var detail = lesson.groups
        if lesson.subgroup != 0 { detail.append("(\(lesson.subgroup))") }
        detail += lesson.teachers.map(\.name) + lesson.rooms.map(\.name)
        let type = lesson.typeID.map { id in types[id].map { text.lessonType($0).abbreviation } ?? id }
        return .init(
            time: "\(lesson.start)–\(lesson.end)",
            subject: [lesson.subject, type].compactMap { $0 }.joined(separator: " "),
            detail: detail.joined(separator: " · "))
    }

    // MARK: Buildings

    @Sendable func buildings(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        guard account.user.role == .admin else { throw Refusal.notAllowed("Only admins describe buildings.") }
        let t = request.t
        return .page(
            BuildingsPage(
                rows: try await directory.buildings().map { building in
                    .init(
                        number: building.number, name: building.name ?? "",
                        latitude: building.point.map { String($0.latitude) } ?? "",
                        longitude: building.point.map { String($0.longitude) } ?? "",
                        mapURL: building.point?.openStreetMapURL,
                        rooms: t.plural("{count} room", "{count} rooms", building.roomCount),
                        action: SiteRoutes.building.path(Int64(building.number)))
                }))
    }

    struct BuildingForm: PageForm {
        var _csrf: String?
        var name: String?
        var latitude: String?
        var longitude: String?
    }

    @Sendable func setBuilding(_ request: PageRequest, _ account: Authenticated, _ form: BuildingForm) async throws
        -> PageAnswer
    {
        let number = try request.id("number")
        guard number <= 1000 else { throw Refusal.notFound("There is nothing at this address.") }
        /// A coordinate as typed: "53.9", or "53,9" as Russian and Ukrainian keyboards write it.
        func coordinate(_ text: String?, field: String) throws -> Double? {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = Double(text.replacingOccurrences(of: ",", with: ".")), value.isFinite else {
                throw Refusal.invalid(FieldProblem(field: field, detail: "“{text}” is not a number.", ["text": text]))
            }
            return value
        }
        do {
            let building = try await directory.setBuilding(
                number: Int(number), name: form.name, latitude: try coordinate(form.latitude, field: "latitude"),
                longitude: try coordinate(form.longitude, field: "longitude"), by: account.user)
            return .redirect(
                SiteRoutes.buildings.path,
                flash: request.t("Building {number} is saved.", ["number": String(building.number)]))
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return .redirect(SiteRoutes.buildings.path, flash: request.t.detail(refusal), kind: .error)
        }
    }
}
