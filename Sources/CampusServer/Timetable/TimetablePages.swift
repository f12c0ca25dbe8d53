import Accounts
import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Localization
import NIOCore
import Storage
import Timetable

/// The timetable in the browser: search, lists of groups, teachers, rooms and departments, and
/// schedule pages (``SchedulePageBuilder``) with a week grid and a day list.
struct TimetablePages: Sendable {
    let configuration: ServerConfiguration
    let directory: TimetableDirectory
    let myTimetable: MyTimetableService
    let timetable: TimetableService
    let builder: SchedulePageBuilder

    func register(on pages: PageRouter) {
        pages.page(SiteRoutes.timetable, home)
        pages.page(SiteRoutes.groups, groupList)
        pages.page(SiteRoutes.teachers, teacherList)
        pages.page(SiteRoutes.rooms, roomList)
        pages.page(SiteRoutes.departments, departmentList)
        pages.page(SiteRoutes.group, groupSchedule)
        pages.page(SiteRoutes.teacher, teacherSchedule)
        pages.page(SiteRoutes.room, roomSchedule)
        pages.resource(SiteRoutes.lessonTypeStyles, lessonTypeStyles)
    }

    // MARK: Home and lists

    @Sendable func home(_ request: PageRequest) async throws -> PageAnswer {
        let query = request.text("q")
        // A signed-in student opens on their own schedule; `?find=1` (or a search) shows the directory.
        if query == nil, request.query("find") == nil, let user = request.visitor.user,
            let (targets, filter) = try? await myTimetable.targets(of: user)
        {
            return .page(try await mySchedule(request, user: user, targets: targets, filter: filter))
        }
        let counts = try await directory.counts()
        var page = TimetableHomePage(
            q: query ?? "",
            myGroup: request.visitor.user?.group.map { .init(name: $0, url: SiteRoutes.group.path($0)) },
            counts: .init(
                groups: counts.groups, teachers: counts.teachers, rooms: counts.rooms,
                departments: try await directory.departments().count),
            empty: counts.groups == 0 && counts.teachers == 0)
        if let query {
            let (groups, specialities) = try await directory.groups(
                filter: .init(search: query), sections: .speciality)
            let foundGroups = groups.flatMap(\.items)
            let foundTeachers = try await directory.teachers(search: query, sections: .letter).flatMap(\.items)
            let foundRooms = try await directory.rooms(search: query, sections: .building).flatMap(\.items)
            let t = request.t
            page.results = .init(
                groups: foundGroups.prefix(30).map { Self.item($0, specialities, t) },
                teachers: foundTeachers.prefix(30).map(Self.item),
                rooms: foundRooms.prefix(30).map { Self.item($0, t) },
                groupCount: foundGroups.count, teacherCount: foundTeachers.count, roomCount: foundRooms.count,
                none: foundGroups.isEmpty && foundTeachers.isEmpty && foundRooms.isEmpty)
        }
        return .page(page)
    }

    /// The visitor's own schedule: their group (their subgroup of it) and the saved schedules
    /// they keep in it.
    func mySchedule(
        _ request: PageRequest, user: Account, targets: [TimetableService.Target], filter: ScheduleFilter
    ) async throws -> SchedulePage {
        let t = request.t
        var parts: [String] = []
        if let group = user.group {
            parts.append(t("Group {name}", ["name": group]))
            if user.subgroup != 0 { parts.append(t("Subgroup {number}", ["number": String(user.subgroup)])) }
        }
        parts += try await myTimetable.savedSchedules(of: user).filter(\.inMySchedule).map(\.name)
        var page = try await builder.page(
            request, targets: targets, title: t("My schedule"), subtitle: parts.joined(separator: " · "),
            route: SiteRoutes.timetable.path, feed: SiteRoutes.myTimetable.path, subgroup: filter.subgroup ?? 0,
            showSubgroups: false, term: nil, card: nil, favorite: nil, subgroupOf: filter.subgroupOf,
            find: SiteRoutes.timetable.path(query: [("find", "1")]))
        if user.group != nil { page.myTeachers = SiteRoutes.myTeachers.path }
        return page
    }

    static func item(_ group: StudyGroup, _ specialities: [Int: Speciality], _ t: Translator) -> DirectoryItem {
        var detail = [group.title, group.specialityID.flatMap { specialities[$0]?.abbreviation }].compactMap { $0 }
        if let course = group.course { detail.append(t("course {number}", ["number": String(course)])) }
        return DirectoryItem(
            name: group.name, url: SiteRoutes.group.path(group.name), detail: detail.joined(separator: " · "))
    }

    static func item(_ teacher: Teacher) -> DirectoryItem {
        let detail = [teacher.departments.joined(separator: ", "), teacher.rank ?? ""].filter { !$0.isEmpty }
        return DirectoryItem(
            name: teacher.fullName, url: SiteRoutes.teacher.path(teacher.urlID), detail: detail.joined(separator: " · ")
        )
    }

    static func item(_ room: Room, _ t: Translator) -> DirectoryItem {
        DirectoryItem(name: room.displayName, url: SiteRoutes.room.path(room.id), detail: detail(room, t))
    }

    static func detail(_ room: Room, _ t: Translator) -> String {
        var details: [String] = []
        if let type = room.type?.name { details.append(type) }
        if let capacity = room.capacity { details.append(t.plural("{count} seat", "{count} seats", capacity)) }
        if let department = room.departmentAbbreviation { details.append(department) }
        if room.isOffCampus { details.append(t("off campus")) }
        return details.joined(separator: " · ")
    }

    /// A list section's heading: data as the institution wrote it, Campus's own words translated.
    static func heading(_ label: SectionLabel, _ t: Translator) -> String {
        switch label {
        case .name(let name): name
        case .faculty(let id): t("Faculty {number}", ["number": String(id)])
        case .course(let course): t("Course {number}", ["number": String(course)])
        case .building(let building): t("Building {number}", ["number": String(building)])
        case .floor(let building, let floor):
            t("Building {building}, floor {floor}", ["building": String(building), "floor": String(floor)])
        case .noSpeciality: t("No speciality")
        case .noRank: t("No rank")
        case .noDegree: t("No degree")
        case .noDepartment: t("No department")
        case .noBuilding: t("No building")
        case .offCampus: t("Off campus")
        case .noLetter: "—"
        }
    }

    /// The name of a way to divide a list into sections, as its chip says.
    static func sectionChoice(_ name: String, _ t: Translator) -> String {
        switch name {
        case "speciality": t("speciality", context: "list sections")
        case "faculty": t("faculty", context: "list sections")
        case "flow": t("flow", context: "list sections")
        case "course": t("course", context: "list sections")
        case "letter": t("letter", context: "list sections")
        case "department": t("department", context: "list sections")
        case "rank": t("rank", context: "list sections")
        case "degree": t("degree", context: "list sections")
        case "building": t("building", context: "list sections")
        case "floor": t("floor", context: "list sections")
        default: name
        }
    }

    /// The directory lists: their tabs' words and their search fields' labels.
    enum ListKind: String, CaseIterable {
        case groups, teachers, rooms, departments

        var route: Route<Void> {
            switch self {
            case .groups: SiteRoutes.groups
            case .teachers: SiteRoutes.teachers
            case .rooms: SiteRoutes.rooms
            case .departments: SiteRoutes.departments
            }
        }

        func title(_ t: Translator) -> String {
            switch self {
            case .groups: t("Groups")
            case .teachers: t("Teachers")
            case .rooms: t("Rooms")
            case .departments: t("Departments")
            }
        }

        func searchLabel(_ t: Translator) -> String {
            switch self {
            case .groups: t("Search groups")
            case .teachers: t("Search teachers")
            case .rooms: t("Search rooms")
            case .departments: t("Search departments")
            }
        }
    }

    func list(
        _ request: PageRequest, kind: ListKind, sectionChoices: [String], chosen: String,
        sections: [TimetableListPage.ListSection], total: Int, filters: [TimetableListPage.Filter] = [],
        favorite: FavoriteToggle? = nil
    ) -> PageAnswer {
        let query = request.text("q")
        let t = request.t
        // The filters chosen stay when the sections change.
        let kept = filters.map { filter in
            (filter.name, filter.options.first { $0.selected && !$0.value.isEmpty }?.value)
        }
        var page = TimetableListPage(
            kind: kind.rawValue, title: kind.title(t), searchLabel: kind.searchLabel(t), q: query ?? "",
            searchAction: kind.route.path, sections: sections, total: total,
            sectionChoices: sectionChoices.map { choice in
                .init(
                    name: Self.sectionChoice(choice, t), selected: choice == chosen,
                    url: kind.route.path(query: [("q", query), ("sections", choice)] + kept))
            },
            tabs: ListKind.allCases.map {
                .init(url: $0.route.path(query: [("q", query)]), title: $0.title(t), current: $0 == kind)
            }, isRooms: kind == .rooms)
        // A filter with nothing to choose (no forms of education in the data, say) is left out.
        page.filters = filters.filter { $0.options.count > 1 }
        page.hasFilters = !page.filters.isEmpty
        page.chosenSections = chosen
        page.favorite = favorite
        return .page(page)
    }

    /// A filter of a list: "any" first, then the choices, the one asked for selected.
    static func filter(
        _ name: String, _ label: String, any: String, _ choices: [(value: String, label: String)], chosen: String?
    ) -> TimetableListPage.Filter {
        .init(
            name: name, label: label,
            options: [.init(value: "", label: any, selected: chosen == nil)]
                + choices.map { .init(value: $0.value, label: $0.label, selected: $0.value == chosen) })
    }

    @Sendable func groupList(_ request: PageRequest) async throws -> PageAnswer {
        let t = request.t
        let chosen = Listing.GroupSections(rawValue: request.query("sections") ?? "") ?? .speciality
        func number(_ name: String) -> Int? { request.query(name).flatMap { Int($0) } }
        let (faculty, course, degree, form) = (number("faculty"), number("course"), number("degree"), number("form"))
        let (sections, specialities) = try await directory.groups(
            filter: .init(
                search: request.text("q"), facultyID: faculty, course: course, educationDegree: degree,
                educationFormID: form),
            sections: chosen)
        let forms = Dictionary(
            (try await directory.specialities()).compactMap { $0.educationForm.map { ($0.id, $0.name) } }
        ) { a, _ in a }
        return list(
            request, kind: .groups,
            sectionChoices: Listing.GroupSections.allCases.map(\.rawValue), chosen: chosen.rawValue,
            sections: sections.map {
                .init(title: Self.heading($0.label, t), items: $0.items.map { Self.item($0, specialities, t) })
            },
            total: sections.reduce(0) { $0 + $1.items.count },
            filters: [
                Self.filter(
                    "faculty", t("Faculty"), any: t("Any faculty"),
                    try await directory.faculties().sorted { $0.abbreviation < $1.abbreviation }.map {
                        (String($0.id), $0.abbreviation)
                    }, chosen: faculty.map(String.init)),
                Self.filter(
                    "course", t("Course"), any: t("Any course"), (1...6).map { (String($0), String($0)) },
                    chosen: course.map(String.init)),
                Self.filter(
                    "degree", t("Degree"), any: t("Any degree"), [("1", t("Bachelor")), ("2", t("Master"))],
                    chosen: degree.map(String.init)),
                Self.filter(
                    "form", t("Form of education"), any: t("Any form"),
                    forms.sorted { $0.value < $1.value }.map { (String($0.key), $0.value) },
                    chosen: form.map(String.init)),
            ])
    }

    /// Teachers; filtered by a department, the department's page, with its star.
    @Sendable func teacherList(_ request: PageRequest) async throws -> PageAnswer {
        let chosen = Listing.TeacherSections(rawValue: request.query("sections") ?? "") ?? .letter
        let department = request.query("department")
        let sections = try await directory.teachers(
            search: request.text("q"), department: department, sections: chosen)
        let departments = try await directory.departments()
        return list(
            request, kind: .teachers,
            sectionChoices: Listing.TeacherSections.allCases.map(\.rawValue), chosen: chosen.rawValue,
            sections: sections.map { .init(title: Self.heading($0.label, request.t), items: $0.items.map(Self.item)) },
            total: Set(sections.flatMap { $0.items.map(\.id) }).count,
            filters: [
                Self.filter(
                    "department", request.t("Department"), any: request.t("Any department"),
                    departments.map { ($0.abbreviation, $0.abbreviation) }, chosen: department)
            ],
            favorite: try await departmentStar(
                department.flatMap { key in departments.first { $0.abbreviation == Department.key(key) } },
                request: request))
    }

    @Sendable func roomList(_ request: PageRequest) async throws -> PageAnswer {
        let t = request.t
        let chosen = Listing.RoomSections(rawValue: request.query("sections") ?? "") ?? .building
        let type = request.query("type")
        let building = request.query("building").flatMap { Int($0) }
        let sections = try await directory.rooms(
            search: request.text("q"), type: type, building: building, sections: chosen)
        let every = try await directory.rooms(search: nil, sections: .building).flatMap(\.items)
        let types = Set(every.compactMap { $0.type?.name }).sorted()
        let buildings = Set(every.compactMap(\.building)).sorted()
        return list(
            request, kind: .rooms,
            sectionChoices: Listing.RoomSections.allCases.map(\.rawValue), chosen: chosen.rawValue,
            sections: sections.map {
                .init(title: Self.heading($0.label, t), items: $0.items.map { Self.item($0, t) })
            },
            total: sections.reduce(0) { $0 + $1.items.count },
            filters: [
                Self.filter("type", t("Room type"), any: t("Any type"), types.map { ($0, $0) }, chosen: type),
                Self.filter(
                    "building", t("Building"), any: t("Any building"), buildings.map { (String($0), String($0)) },
                    chosen: building.map(String.init)),
            ])
    }

    // MARK: Schedules

    @Sendable func groupSchedule(_ request: PageRequest) async throws -> PageAnswer {
        let group = try await directory.group(named: try request.parameter("name"))
        var subtitle: [String] = []
        if let title = group.group.title { subtitle.append(title) }
        if let speciality = group.speciality { subtitle.append(speciality.name) }
        let t = request.t
        if let course = group.group.course { subtitle.append(t("course {number}", ["number": String(course)])) }
        if let count = group.group.studentCount {
            subtitle.append(t.plural("{count} student", "{count} students", count))
        }
        // The visitor's own group opens on their subgroup.
        let name = group.group.name
        var subgroup = request.query("subgroup").flatMap { Int($0) }
        if subgroup == nil, let user = request.visitor.user, user.group == name, user.subgroup != 0 {
            subgroup = user.subgroup
        }
        return .page(
            try await builder.page(
                request, targets: [.group(name)], title: t("Group {name}", ["name": name]),
                subtitle: subtitle.joined(separator: " · "),
                route: SiteRoutes.group.path(name), feed: APIRoutes.groupCalendar.path(name), subgroup: subgroup ?? 0,
                showSubgroups: true, term: group.group.term, card: nil, favorite: Favorite(kind: .group, id: name)))
    }

    @Sendable func teacherSchedule(_ request: PageRequest) async throws -> PageAnswer {
        let (teacher, card) = try await directory.teacher(urlID: try request.parameter("urlId"))
        var subtitle = [teacher.rank, teacher.degree ?? teacher.degreeAbbreviation].compactMap { $0 }
        if !teacher.departments.isEmpty { subtitle.append(teacher.departments.joined(separator: ", ")) }
        var answer: TeacherCardAnswer?
        if let user = request.visitor.user {
            answer = try await myTimetable.cardAnswer(teacher: teacher.urlID, of: user)
        }
        var page = try await builder.page(
            request, targets: [.teacher(teacher.urlID)], title: teacher.fullName,
            subtitle: subtitle.joined(separator: " · "), route: SiteRoutes.teacher.path(teacher.urlID),
            feed: APIRoutes.teacherCalendar.path(teacher.urlID), subgroup: 0, showSubgroups: false,
            term: teacher.term,
            card: TeacherCardPages.card(
                try await myTimetable.cardSummary(teacher: teacher.urlID), imported: card,
                answer: answer,
                teacher: teacher.urlID, user: request.visitor.user, request.t),
            favorite: Favorite(kind: .teacher, id: teacher.urlID))
        // The photo only from where the content security policy lets images come from.
        let photo = teacher.photoURL.flatMap { url -> String? in
            configuration.photoOrigins.contains { url.hasPrefix($0 + "/") } ? url : nil
        }
        page.person = .init(
            photo: photo ?? "", hasPhoto: photo != nil, email: teacher.email ?? "", hasEmail: teacher.email != nil)
        return .page(page)
    }

    @Sendable func roomSchedule(_ request: PageRequest) async throws -> PageAnswer {
        let room = try await directory.room(id: try request.id("roomId"))
        var page = try await builder.page(
            request, targets: [.room(room.id)], title: request.t("Room {name}", ["name": room.displayName]),
            subtitle: Self.detail(room, request.t),
            route: SiteRoutes.room.path(room.id), feed: APIRoutes.roomCalendar.path(room.id), subgroup: 0,
            showSubgroups: false, term: nil, card: nil, favorite: Favorite(kind: .room, id: String(room.id)))
        page.roomMapURL = room.point?.openStreetMapURL
        return .page(page)
    }

    /// The colours of lesson types, as classes (lesson types are editable, so this is made from
    /// the database rather than written in campus.css).
    @Sendable func lessonTypeStyles(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let types = try await directory.lessonTypes()
        var css = ".lt-none { --type-colour: #8a929c; }\n"
        for type in types {
            let colour =
                type.colour.range(of: #"^#[0-9a-fA-F]{6}$"#, options: .regularExpression) != nil
                ? type.colour : "#8a929c"
            css += ".\(SchedulePageBuilder.typeClass(type)) { --type-colour: \(colour); }\n"
        }
        return .revalidated(ByteBuffer(string: css), contentType: "text/css; charset=utf-8", for: request)
    }
}
