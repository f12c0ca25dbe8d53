import Accounts
import Foundation
import InputRules
import Listen
import Localization
import Timetable

/// The station page's show schedule (issue 42): admins add and remove shows there; hosts get
/// their DJ credentials.
extension RadioPages {
    @Sendable func addShow(_ request: PageRequest, _ account: Authenticated, _ form: StationShowForm) async throws
        -> PageAnswer
    {
        let station = try await stations.station(mount: try request.parameter("mount"))
        do {
            let draft = try await showDraft(form)
            let (_, show) = try await stations.addShow(mount: station.mount, draft, by: account.user)
            return .redirect(
                SiteRoutes.station.path(station.mount), flash: request.t("“{name}” is added.", ["name": show.title]))
        } catch {
            var page = try await stationPage(station, request, account)
            page.shows.errors = try Self.fieldErrors(error, request.t)
            page.shows.form = form
            page.shows.open = true
            let checked = Set(form.days ?? [])
            page.shows.days = page.shows.days.map {
                .init(value: $0.value, name: $0.name, checked: checked.contains($0.value))
            }
            return .page(page, status: .unprocessableContent)
        }
    }

    @Sendable func removeShow(_ request: PageRequest, _ account: Authenticated, _ form: CSRFForm) async throws
        -> PageAnswer
    {
        let mount = try request.parameter("mount")
        try await stations.deleteShow(mount: mount, id: try request.id(), by: account.user)
        return .redirect(SiteRoutes.station.path(mount), flash: request.t("The show is removed."))
    }

    /// New DJ credentials, shown once on the page.
    @Sendable func djCredentials(_ request: PageRequest, _ account: Authenticated, _ form: CSRFForm) async throws
        -> PageAnswer
    {
        let station = try await stations.station(mount: try request.parameter("mount"))
        let (user, password) = try await stations.djCredentials(mount: station.mount, for: account.user)
        var page = try await stationPage(station, request, account)
        page.shows.credentials = .init(
            user: user, password: password, server: baseURL + RadioRoutes.prefix + station.mount)
        return .page(page)
    }

    /// The form as a show: the hosts found by their addresses (422 naming `hosts` for one that is
    /// no account), weekly on the days or once on the date.
    func showDraft(_ form: StationShowForm) async throws -> StationService.ShowDraft {
        let hosts = try await stations.accountIDs(emails: form.hostAddresses)
        let from = TimeBlock.minutes(clock: form.from ?? "")
        let to = TimeBlock.minutes(clock: form.to ?? "")
        guard let from, let to else {
            throw Refusal.invalid(
                FieldProblem(field: "to", detail: "A show needs the times it starts and ends, as HH:MM."))
        }
        var when = RadioShow.When.weekly(
            TimeBlock(weekdays: Set((form.days ?? []).compactMap { Int($0) }), from: from, to: to))
        if let text = form.date, !text.isEmpty {
            guard let day = LocalDate(iso: text) else {
                throw Refusal.invalid(FieldProblem(field: "date", detail: "A date is written as YYYY-MM-DD."))
            }
            let start = LocalDateTime(date: day, minutes: from).moment(in: timeZone)
            let end = LocalDateTime(date: to > from ? day : day.adding(days: 1), minutes: to).moment(in: timeZone)
            when = .once(start: start, end: end)
        }
        return StationService.ShowDraft(
            title: form.title ?? "", hostIDs: hosts, when: when, programmeID: form.programme.flatMap { Int64($0) })
    }

    /// The show schedule of a station's page, for `user`.
    func showsPanel(_ station: Station, _ user: Account, _ t: Translator) async throws -> StationShowsPanel {
        let (_, shows) = try await stations.shows(mount: station.mount)
        let now = stations.now()
        let calendar = stations.calendar
        let isAdmin = user.role == .admin
        let rows = shows.map { scheduled in
            StationShowsPanel.Row(
                title: scheduled.show.title, when: whenText(scheduled.show.when, t),
                hosts: scheduled.hosts.map(\.name).joined(separator: ", "),
                onAir: scheduled.show.isOn(now, calendar: calendar),
                deleteURL: SiteRoutes.deleteStationShow.path(station.mount, scheduled.show.id))
        }
        var programmes: [StationAutoDJPanel.Option] = []
        if isAdmin {
            programmes = try await catalogue.parents(kind: .programme, limit: 500).map {
                .init(value: String($0.id), label: $0.title, selected: false)
            }
        }
        return StationShowsPanel(
            rows: rows, empty: rows.isEmpty, calendarURL: APIRoutes.stationShowsCalendar.path(station.mount),
            isHost: isAdmin || shows.contains { $0.show.hostIDs.contains(user.id) },
            djURL: SiteRoutes.stationDJ.path(station.mount), isAdmin: isAdmin,
            addURL: SiteRoutes.stationShows.path(station.mount),
            days: TimeBlock.days.map { .init(value: String($0), name: t.weekday($0, short: true), checked: false) },
            programmes: programmes, form: StationShowForm())
    }

    /// When a show is on, in words: its days and times, or its date and times.
    func whenText(_ when: RadioShow.When, _ t: Translator) -> String {
        switch when {
        case .weekly(let block):
            return block.weekdays.sorted().map { t.weekday($0, short: true) }.joined(separator: " ") + ", "
                + TimeBlock.clock(block.from) + "–" + TimeBlock.clock(block.to)
        case .once(let start, let end):
            return (DateTimeField.text(start, in: timeZone) ?? "") + "–"
                + TimeBlock.clock(LocalDateTime(end, in: timeZone).minutes)
        }
    }

    /// The admins' listener statistics of a station's page: the last two weeks.
    func listenersPanel(_ station: Station, _ t: Translator) async throws -> StationListenersPanel {
        let statistics = try await liveRadio.statistics(of: station, days: 14)
        func row(_ name: String, _ figures: ListenerStatistics.Figures) -> StationListenersPanel.Row {
            .init(
                name: name, unique: figures.uniqueListeners, peak: figures.peakListeners,
                hours: String(format: "%.1f", figures.hours))
        }
        let days = statistics.days.reversed().map { entry in
            let date = LocalDate(entry.day, in: timeZone)
            return row(t.date(year: date.year, month: date.month, day: date.day, withYear: false), entry.figures)
        }
        let shows = statistics.shows.map { row($0.show.title, $0.figures) }
        return StationListenersPanel(
            current: t.plural("{count} listener", "{count} listeners", statistics.current),
            chart: ListenerChart(t: t, timeZone: timeZone).svg(statistics.days), days: days, shows: shows,
            hasShows: !shows.isEmpty, total: row(t("Two weeks"), statistics.total))
    }
}
