import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Localization

/// The radio pages: the stations (those of the listener's radio region first, filtered by genre)
/// and a station's page with its live player and what it plays now; admins add, change and
/// remove stations there (a form with a mistake comes back with it said beside the field).
struct RadioPages: Sendable {
    let catalogue: CatalogueService
    let liveRadio: LiveRadio
    let player: PlayerService
    let radio: RadioHub
    let stations: StationService
    /// The institution's: the history's times and the playlists' time blocks.
    let timeZone: TimeZone
    /// Where sources reach the server (DJ credentials say it).
    let baseURL: String

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.stations, list)
        pages.signedInPage(SiteRoutes.station, page)
        pages.form(SiteRoutes.stations, StationForm.self, add)
        pages.form(SiteRoutes.station, StationForm.self, change)
        pages.form(SiteRoutes.deleteStation, CSRFForm.self, remove)
        pages.form(SiteRoutes.stationLike, StationLikeForm.self, like)
        pages.upload(
            SiteRoutes.stationImage, StationImageForm.self, bodyLimit: BodyLimits.stationImageForm, uploadImage)
        pages.form(SiteRoutes.deleteStationImage, CSRFForm.self, removeImage)
        pages.form(SiteRoutes.stationPlaylists, StationPlaylistForm.self, addPlaylist)
        pages.form(SiteRoutes.deleteStationPlaylist, CSRFForm.self, removePlaylist)
        pages.form(SiteRoutes.stationShows, StationShowForm.self, addShow)
        pages.form(SiteRoutes.deleteStationShow, CSRFForm.self, removeShow)
        pages.form(SiteRoutes.stationDJ, CSRFForm.self, djCredentials)
        pages.form(SiteRoutes.stationRequests, StationRequestForm.self, requestTrack)
    }

    // MARK: Admins manage stations

    @Sendable func add(_ request: PageRequest, _ account: Authenticated, _ form: StationForm) async throws
        -> PageAnswer
    {
        do {
            let station = try await stations.add(form.draft(password: form.sourcePassword ?? ""), by: account.user)
            return .redirect(
                SiteRoutes.station.path(station.mount), flash: request.t("“{name}” is added.", ["name": station.name]))
        } catch {
            let errors = try Self.fieldErrors(error, request.t)
            var page = try await stationsPage(request, account)
            page.newStation = form
            page.errors = errors
            return .page(page, status: .unprocessableContent)
        }
    }

    @Sendable func change(_ request: PageRequest, _ account: Authenticated, _ form: StationForm) async throws
        -> PageAnswer
    {
        let old = try await stations.station(mount: try request.parameter("mount"))
        let password = form.sourcePassword.flatMap { $0.isEmpty ? nil : $0 }
        do {
            let station = try await stations.update(mount: old.mount, form.draft(password: password), by: account.user)
            radio.changed(old.mount)
            return .redirect(
                SiteRoutes.station.path(station.mount), flash: request.t("“{name}” is saved.", ["name": station.name]))
        } catch {
            let errors = try Self.fieldErrors(error, request.t)
            var page = try await stationPage(old, request, account)
            page.form?.take(form)
            page.errors = errors
            page.editOpen = true
            return .page(page, status: .unprocessableContent)
        }
    }

    @Sendable func remove(_ request: PageRequest, _ account: Authenticated, _ form: CSRFForm) async throws
        -> PageAnswer
    {
        let mount = try request.parameter("mount")
        try await stations.remove(mount: mount, by: account.user)
        await liveRadio.stationRemoved(mount)
        return .redirect(SiteRoutes.stations.path, flash: request.t("The station is removed."))
    }

    @Sendable func like(_ request: PageRequest, _ account: Authenticated, _ form: StationLikeForm) async throws
        -> PageAnswer
    {
        let mount = try request.parameter("mount")
        let liked = form.like == "on"
        try await stations.like(mount: mount, liked, by: account.user)
        return .redirect(
            SiteRoutes.station.path(mount),
            flash: liked
                ? request.t("You like the station: you will be told when it goes on the air.")
                : request.t("You no longer like the station."))
    }

    @Sendable func uploadImage(_ request: PageRequest, _ account: Authenticated, _ form: StationImageForm)
        async throws -> PageAnswer
    {
        let station = try await stations.station(mount: try request.parameter("mount"))
        var failure: String
        if let data = form.image, !data.isEmpty {
            do {
                _ = try await stations.setImage(
                    mount: station.mount, contentType: "application/octet-stream", data: [UInt8](data),
                    by: account.user)
                radio.changed(station.mount)
                return .redirect(SiteRoutes.station.path(station.mount), flash: request.t("The image is saved."))
            } catch let invalid as ValidationFailure {
                failure = request.t.detail(invalid)
            } catch let refusal as Refusal where refusal.reason == .tooLarge {
                failure = request.t.detail(refusal)
            }
        } else {
            failure = request.t("Choose an image file first.")
        }
        var page = try await stationPage(station, request, account)
        page.imageError = failure
        return .page(page, status: .unprocessableContent)
    }

    @Sendable func removeImage(_ request: PageRequest, _ account: Authenticated, _ form: CSRFForm) async throws
        -> PageAnswer
    {
        let mount = try request.parameter("mount")
        try await stations.deleteImage(mount: mount, by: account.user)
        radio.changed(mount)
        return .redirect(SiteRoutes.station.path(mount), flash: request.t("The image is removed."))
    }

    /// The field errors of a 422 (what a form shows beside its fields); anything else goes on.
    static func fieldErrors(_ error: any Error, _ t: Translator) throws -> FieldErrors {
        guard let problem = Problem(describing: error),
            problem.status == .unprocessableContent
                || problem.status == .conflict
        else { throw error }
        if problem.errors.isEmpty { return FieldErrors("mount", t.detail(problem)) }
        return FieldErrors(ValidationFailure(problem.errors), t)
    }

    // MARK: Pages

    @Sendable func list(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        .page(try await stationsPage(request, account))
    }

    func stationsPage(_ request: PageRequest, _ account: Authenticated) async throws -> StationsPage {
        let t = request.t
        let all = try await stations.stations()
        let settings = try await player.settings(for: account.user)
        // The listener's radio region picks the stations shown first; `region=` (empty: all) overrides it.
        let asked = request.request.uri.queryParameters["region"] != nil
        let region = asked ? request.text("region", maxLength: Station.regionLength) ?? "" : settings.radioRegion
        let genre = request.text("genre", maxLength: Station.genreLength)
        let shown = all.filter { station in
            (region.isEmpty || station.region.caseInsensitiveCompare(region) == .orderedSame)
                && (genre.map { station.genre.caseInsensitiveCompare($0) == .orderedSame } ?? true)
        }
        let images = try await stations.imageURLs(of: shown)
        var rows: [StationsPage.Station] = []
        for station in shown { rows.append(await row(station, image: images[station.id], t)) }
        return StationsPage(
            stations: rows, empty: shown.isEmpty, region: region, hasRegion: !region.isEmpty,
            regions: Self.choices(all.map(\.region), chosen: region),
            genres: Self.choices(all.map(\.genre), chosen: genre ?? ""), genre: genre ?? "",
            isAdmin: account.user.role == .admin)
    }

    @Sendable func page(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let station = try await stations.station(mount: try request.parameter("mount"))
        return .page(try await stationPage(station, request, account))
    }

    func stationPage(_ station: Station, _ request: PageRequest, _ account: Authenticated) async throws -> StationPage {
        let isAdmin = account.user.role == .admin
        var form: StationPage.Form?
        if isAdmin {
            let programmes = try await catalogue.parents(kind: .programme, limit: 500)
            form = StationPage.Form(station, programmes: programmes)
        }
        let image = try await stations.imageURLs(of: [station])[station.id]
        let history = try await stations.history(mount: station.mount, limit: 10).map {
            StationPage.Play(
                at: DateTimeField.text($0.at, in: timeZone) ?? "", title: $0.title, live: $0.source == "live")
        }
        var page = StationPage(
            station: await row(station, image: image, request.t), description: station.description,
            liked: try await stations.liked(by: account.user).contains(station.id),
            likeURL: SiteRoutes.stationLike.path(station.mount), isAdmin: isAdmin, form: form,
            deleteURL: SiteRoutes.deleteStation.path(station.mount),
            imageURL: SiteRoutes.stationImage.path(station.mount),
            deleteImageURL: image == nil ? nil : SiteRoutes.deleteStationImage.path(station.mount),
            history: history, autoDJ: isAdmin ? try await autoDJPanel(station, request.t) : nil,
            shows: try await showsPanel(station, account.user, request.t),
            listeners: isAdmin ? try await listenersPanel(station, request.t) : nil,
            requests: try await requestsPanel(station))
        page.hasHistory = !history.isEmpty
        return page
    }

    /// The distinct values of a filter, the chosen one marked.
    static func choices(_ values: [String], chosen: String) -> [StationsPage.Choice] {
        Set(values.filter { !$0.isEmpty }).sorted().map {
            .init(value: $0, selected: $0.caseInsensitiveCompare(chosen) == .orderedSame)
        }
    }

    /// A station as the pages show it, with its broadcast (on whichever instance holds it).
    func row(_ station: Station, image: String?, _ t: Translator) async -> StationsPage.Station {
        let status = await liveRadio.status(of: station.mount)
        var row = StationsPage.Station.playable(
            name: station.name, mount: station.mount,
            detail: [station.genre, station.region].filter { !$0.isEmpty }.joined(separator: " · "), image: image)
        row.onAir = status.onAir
        row.state = Self.state(status, t)
        row.nowPlaying = status.title
        row.listeners = status.onAir ? t.plural("{count} listener", "{count} listeners", status.listeners) : ""
        return row
    }

    /// On the air (live, or its fallback while the source is gone), or off.
    static func state(_ status: LiveRadio.Status, _ t: Translator) -> String {
        guard status.onAir else { return t("Off the air") }
        return status.live ? t("On the air") : t("On the air: the programme plays while the source is away")
    }
}
