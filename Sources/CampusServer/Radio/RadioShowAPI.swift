import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import Listen
import OpenAPIRuntime
import Timetable

/// The API of stations' show schedules and DJs (`/api/v1/stations/{mount}/shows`,
/// `…/shows.ics`, `…/dj-credentials`): the schedule is public; admins make the shows; hosts get
/// their own source credentials.
extension APIHandler {
    func listStationShows(_ input: Operations.listStationShows.Input) async throws -> Operations.listStationShows.Output
    {
        let (_, shows) = try await stations.shows(mount: input.path.mount)
        return .ok(.init(body: .json(.init(items: shows.map(api)))))
    }

    func createStationShow(_ input: Operations.createStationShow.Input) async throws
        -> Operations.createStationShow.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the show as JSON.") }
        let (station, show) = try await stations.addShow(mount: input.path.mount, try Self.draft(body), by: user)
        return .created(.init(body: .json(try await api(show, of: station))))
    }

    func updateStationShow(_ input: Operations.updateStationShow.Input) async throws
        -> Operations.updateStationShow.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the show as JSON.") }
        let (station, show) = try await stations.updateShow(
            mount: input.path.mount, id: input.path.showId, try Self.draft(body), by: user)
        return .ok(.init(body: .json(try await api(show, of: station))))
    }

    func deleteStationShow(_ input: Operations.deleteStationShow.Input) async throws
        -> Operations.deleteStationShow.Output
    {
        try await stations.deleteShow(mount: input.path.mount, id: input.path.showId, by: try await requireUser().user)
        return .noContent(.init())
    }

    func getStationShowsCalendar(_ input: Operations.getStationShowsCalendar.Input) async throws
        -> Operations.getStationShowsCalendar.Output
    {
        let (station, shows) = try await stations.shows(mount: input.path.mount)
        let now = services.now()
        let calendar = stations.calendar
        let occasions = shows.compactMap { scheduled -> ICalendar.Occasion? in
            let show = scheduled.show
            guard let start = show.firstStart(onOrAfter: now, calendar: calendar) else { return nil }
            var weekdays: [Int] = []
            if case .weekly(let block) = show.when { weekdays = block.weekdays.sorted() }
            let hosts = scheduled.hosts.map(\.name).joined(separator: ", ")
            return ICalendar.Occasion(
                uid: "show-\(show.id)", summary: show.title,
                description: [hosts, show.description].filter { !$0.isEmpty }.joined(separator: "\n"), start: start,
                minutes: show.minutes, weekdays: weekdays)
        }
        let feed = ICalendar(
            name: station.name, timeZone: services.configuration.timeZone, calendar: .bsuir,
            host: URL(string: services.configuration.resolvedBaseURL)?.host ?? "campus", stamp: now)
        return .ok(.init(body: .text_calendar(HTTPBody(feed.render(occasions: occasions)))))
    }

    func createDJCredentials(_ input: Operations.createDJCredentials.Input) async throws
        -> Operations.createDJCredentials.Output
    {
        let user = try await requireUser().user
        let (name, password) = try await stations.djCredentials(mount: input.path.mount, for: user)
        return .created(
            .init(
                body: .json(
                    .init(
                        user: name, password: password,
                        streamUrl: services.configuration.resolvedBaseURL + RadioRoutes.prefix + input.path.mount))))
    }

    private func api(_ show: RadioShow, of station: Station) async throws -> Components.Schemas.RadioShow {
        let (_, shows) = try await stations.shows(mount: station.mount)
        return api(shows.first { $0.show.id == show.id } ?? .init(show: show, hosts: []))
    }

    private func api(_ scheduled: StationService.ScheduledShow) -> Components.Schemas.RadioShow {
        let show = scheduled.show
        var result = Components.Schemas.RadioShow(
            id: show.id, title: show.title, description: show.description,
            hosts: scheduled.hosts.map { .init(id: $0.id, name: $0.name) }, weekdays: [],
            programmeId: show.programmeID, onAir: show.isOn(services.now(), calendar: stations.calendar))
        switch show.when {
        case .weekly(let block):
            result.weekdays = block.weekdays.sorted()
            result.from = TimeBlock.clock(block.from)
            result.to = TimeBlock.clock(block.to)
        case .once(let start, let end):
            result.startsAt = start
            result.endsAt = end
        }
        return result
    }

    static func draft(_ body: Components.Schemas.RadioShowDraft) throws -> StationService.ShowDraft {
        let when: RadioShow.When
        if body.startsAt != nil || body.endsAt != nil {
            guard let start = body.startsAt, let end = body.endsAt else {
                throw Refusal.invalid(FieldProblem(field: "endsAt", detail: "A one-off show has startsAt and endsAt."))
            }
            when = .once(start: start, end: end)
        } else {
            when = .weekly(
                TimeBlock(
                    weekdays: Set(body.weekdays ?? []), from: try minutes(body.from, field: "from"),
                    to: try minutes(body.to, field: "to")))
        }
        return StationService.ShowDraft(
            title: body.title, description: body.description ?? "", hostIDs: body.hosts, when: when,
            programmeID: body.programmeId)
    }
}

/// A station's listener statistics (`/api/v1/stations/{mount}/statistics`, admins).
extension APIHandler {
    func getStationStatistics(_ input: Operations.getStationStatistics.Input) async throws
        -> Operations.getStationStatistics.Output
    {
        let user = try await requireUser().user
        if user.role != .admin { throw Problem.forbidden("A station's statistics are for admins.") }
        let station = try await stations.station(mount: input.path.mount)
        let days = min(max(input.query.days ?? 14, 1), 90)
        let statistics = try await services.liveRadio.statistics(of: station, days: days)
        func api(_ figures: ListenerStatistics.Figures) -> Components.Schemas.ListenerFigures {
            .init(
                uniqueListeners: figures.uniqueListeners, peakListeners: figures.peakListeners,
                sessions: figures.sessions, hours: figures.hours)
        }
        let zone = services.configuration.timeZone
        return .ok(
            .init(
                body: .json(
                    .init(
                        current: statistics.current, total: api(statistics.total),
                        days: statistics.days.map {
                            .init(date: LocalDate($0.day, in: zone).description, figures: api($0.figures))
                        },
                        shows: statistics.shows.map {
                            .init(showId: $0.show.id, title: $0.show.title, figures: api($0.figures))
                        }))))
    }
}
