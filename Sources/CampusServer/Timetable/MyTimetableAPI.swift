import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import NIOCore
import OpenAPIRuntime
import Storage
import Timetable

/// The API of what is personal in a user's timetable (`/api/v1/me/schedule`, favorites, the
/// calendar feed).
extension APIHandler {
    var myTimetable: MyTimetableService { services.myTimetable }

    func getMySchedule(_ input: Operations.getMySchedule.Input) async throws -> Operations.getMySchedule.Output {
        let user = try await requireUser().user
        let (targets, filter) = try await myTimetable.targets(of: user)
        return .ok(
            .init(body: .json(try await schedule(targets, from: input.query.from, to: input.query.to, filter: filter))))
    }

    /// The teachers of my schedule, with what they teach me.
    func listMyTeachers(_ input: Operations.listMyTeachers.Input) async throws -> Operations.listMyTeachers.Output {
        let user = try await requireUser().user
        let teachers = try await myTimetable.teachers(of: user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        total: teachers.count,
                        items: teachers.map { item in
                            .init(
                                teacher: item.teacher.api,
                                subjects: item.subjects.map {
                                    .init(subject: $0.name, subjectFullName: $0.fullName, types: $0.typeIDs)
                                })
                        }))))
    }

    // MARK: Display settings

    func getTimetableSettings(_ input: Operations.getTimetableSettings.Input) async throws
        -> Operations.getTimetableSettings.Output
    {
        let user = try await requireUser().user
        let settings = try await myTimetable.displaySettings(of: user)
        return .ok(.init(body: .json(.init(fullSubjectNames: settings.fullSubjectNames))))
    }

    func saveTimetableSettings(_ input: Operations.saveTimetableSettings.Input) async throws
        -> Operations.saveTimetableSettings.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the settings as JSON.") }
        let saved = try await myTimetable.saveDisplaySettings(
            DisplaySettings(fullSubjectNames: body.fullSubjectNames), for: user)
        return .ok(.init(body: .json(.init(fullSubjectNames: saved.fullSubjectNames))))
    }

    // MARK: Favorites

    func listFavorites(_ input: Operations.listFavorites.Input) async throws -> Operations.listFavorites.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(.init(items: try await myTimetable.favorites(of: user).map(\.api)))))
    }

    func addFavorite(_ input: Operations.addFavorite.Input) async throws -> Operations.addFavorite.Output {
        let user = try await requireUser().user
        let favorite = Favorite(input.path)
        return .ok(.init(body: .json(try await myTimetable.addFavorite(favorite, for: user).api)))
    }

    func removeFavorite(_ input: Operations.removeFavorite.Input) async throws -> Operations.removeFavorite.Output {
        let user = try await requireUser().user
        try await myTimetable.removeFavorite(Favorite(kind: .init(input.path.kind), id: input.path.id), for: user)
        return .noContent(.init())
    }

    // MARK: The calendar feed

    func getMyCalendar(_ input: Operations.getMyCalendar.Input) async throws -> Operations.getMyCalendar.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(api(try await myTimetable.calendarFeed(of: user)))))
    }

    func setMyCalendar(_ input: Operations.setMyCalendar.Input) async throws -> Operations.setMyCalendar.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the change as JSON.") }
        let feed = try await myTimetable.changeCalendarFeed(
            of: user, reminderMinutes: .some(body.reminderMinutes), newAddress: body.newAddress ?? false)
        return .ok(.init(body: .json(api(feed))))
    }

    func getPersonalCalendar(_ input: Operations.getPersonalCalendar.Input) async throws
        -> Operations.getPersonalCalendar.Output
    {
        let source = try await myTimetable.feedSource(token: input.path.token)
        let t = services.languages.choose(choice: source.user.language, acceptLanguage: nil)
        let host = URL(string: services.configuration.resolvedBaseURL)?.host ?? "campus"
        // A saved schedule's feed is its lessons; the user's own feed adds their tasks' deadlines.
        let deadlines = source.name == nil ? try await myTimetable.deadlines(of: source.user) : []
        let text = try await timetable.iCalendar(
            of: source.targets, name: source.name ?? t("My timetable"), host: host, filter: source.filter,
            reminderMinutes: source.reminderMinutes, deadlines: deadlines, words: .init(t))
        let tag = ContentTag.of(ByteBuffer(string: text))
        if RequestScope.current?.ifNoneMatch != nil, APIJSON.clientHas(tag) { return .notModified(.init()) }
        return .ok(.init(headers: .init(ETag: tag), body: .text_calendar(HTTPBody(text))))
    }

    private func api(_ feed: PersonalStore.CalendarFeed) -> Components.Schemas.PersonalCalendar {
        .init(
            url: services.configuration.resolvedBaseURL + APIRoutes.personalCalendar.path(feed.token),
            reminderMinutes: feed.reminderMinutes)
    }
}

extension Favorite {
    init(_ path: Operations.addFavorite.Input.Path) {
        self.init(kind: .init(path.kind), id: path.id)
    }
}

extension Favorite.Kind {
    init(_ kind: Components.Schemas.FavoriteKind) {
        switch kind {
        case .group: self = .group
        case .teacher: self = .teacher
        case .room: self = .room
        case .department: self = .department
        }
    }

    var api: Components.Schemas.FavoriteKind {
        switch self {
        case .group: .group
        case .teacher: .teacher
        case .room: .room
        case .department: .department
        }
    }
}

extension MyTimetableService.FavoriteView {
    var api: Components.Schemas.Favorite { .init(kind: favorite.kind.api, id: favorite.id, name: name) }
}
