import CampusHTTP
import Foundation
import Listen
import Localization

/// The station page's AutoDJ playlists (issue 42): admins add and remove them there.
extension RadioPages {
    @Sendable func addPlaylist(_ request: PageRequest, _ account: Authenticated, _ form: StationPlaylistForm)
        async throws -> PageAnswer
    {
        let station = try await stations.station(mount: try request.parameter("mount"))
        do {
            let (_, playlist) = try await stations.addPlaylist(mount: station.mount, form.draft(), by: account.user)
            await liveRadio.playlistsChanged(station)
            return .redirect(
                SiteRoutes.station.path(station.mount),
                flash: request.t("“{name}” is added.", ["name": playlist.name]))
        } catch {
            let errors = try Self.fieldErrors(error, request.t)
            var page = try await stationPage(station, request, account)
            page.autoDJ?.form = form
            page.autoDJ?.errors = errors
            page.autoDJ?.open = true
            if let panel = page.autoDJ {
                page.autoDJ?.kinds = Self.kinds(request.t, chosen: form.kind)
                page.autoDJ?.sources = panel.sources.map {
                    .init(value: $0.value, label: $0.label, selected: $0.value == form.source)
                }
                let checked = Set(form.days ?? [])
                page.autoDJ?.days = panel.days.map {
                    .init(value: $0.value, name: $0.name, checked: checked.contains($0.value))
                }
            }
            return .page(page, status: .unprocessableContent)
        }
    }

    @Sendable func removePlaylist(_ request: PageRequest, _ account: Authenticated, _ form: CSRFForm) async throws
        -> PageAnswer
    {
        let station = try await stations.deletePlaylist(
            mount: try request.parameter("mount"), id: try request.id(), by: account.user)
        await liveRadio.playlistsChanged(station)
        return .redirect(SiteRoutes.station.path(station.mount), flash: request.t("The playlist is removed."))
    }

    /// The admins' AutoDJ panel of a station's page.
    func autoDJPanel(_ station: Station, _ t: Translator) async throws -> StationAutoDJPanel {
        let (_, playlists) = try await stations.playlists(mount: station.mount, by: nil)
        let rows = playlists.map { playlist, tracks in
            StationAutoDJPanel.Row(
                name: playlist.name, rule: Self.ruleText(playlist.rule, t),
                tracks: t.plural("{count} track", "{count} tracks", tracks), enabled: playlist.enabled,
                deleteURL: SiteRoutes.deleteStationPlaylist.path(station.mount, playlist.id))
        }
        // Each source's kind is a message of its own with the title in it: a bare "Podcast" would
        // read like the genre of that name, which is data.
        var sources: [StationAutoDJPanel.Option] = []
        for kind in [ParentKind.album, .podcast, .programme] {
            for parent in try await catalogue.parents(kind: kind, limit: 300) {
                let label =
                    switch kind {
                    case .album: t("Album: {title}", ["title": parent.title])
                    case .podcast: t("Podcast: {title}", ["title": parent.title])
                    default: t("Radio programme: {title}", ["title": parent.title])
                    }
                sources.append(.init(value: "parent:\(parent.id)", label: label, selected: false))
            }
        }
        for genre in try await catalogue.genres() {
            sources.append(
                .init(value: "genre:\(genre.id)", label: t("Genre: {name}", ["name": genre.name]), selected: false))
        }
        return StationAutoDJPanel(
            rows: rows, empty: rows.isEmpty, addURL: SiteRoutes.stationPlaylists.path(station.mount),
            sources: sources, kinds: Self.kinds(t, chosen: nil),
            days: TimeBlock.days.map { .init(value: String($0), name: t.weekday($0, short: true), checked: $0 <= 5) },
            form: StationPlaylistForm())
    }

    static func kinds(_ t: Translator, chosen: String?) -> [StationAutoDJPanel.Option] {
        [
            ("rotation", t("In the rotation, by weight")), ("every", t("One track every few songs")),
            ("block", t("Instead of the rotation at set times")),
        ].map { .init(value: $0.0, label: $0.1, selected: $0.0 == (chosen ?? "rotation")) }
    }

    /// When a playlist plays, in words.
    static func ruleText(_ rule: RotationPlaylist.Rule, _ t: Translator) -> String {
        switch rule {
        case .rotation(let weight): t("Rotation, weight {weight}", ["weight": String(weight)])
        case .every(let songs): t.plural("Once every {count} song", "Once every {count} songs", songs)
        case .block(let block, let weight):
            t(
                "{days}, {from}–{to}, weight {weight}",
                [
                    "days": block.weekdays.sorted().map { t.weekday($0, short: true) }.joined(separator: " "),
                    "from": TimeBlock.clock(block.from), "to": TimeBlock.clock(block.to), "weight": String(weight),
                ])
        }
    }

    @Sendable func requestTrack(_ request: PageRequest, _ account: Authenticated, _ form: StationRequestForm)
        async throws -> PageAnswer
    {
        let station = try await stations.station(mount: try request.parameter("mount"))
        do {
            let position = try await stations.request(
                mount: station.mount, mediaID: form.media.flatMap { Int64($0) } ?? 0, by: account.user)
            return .redirect(
                SiteRoutes.station.path(station.mount),
                flash: request.t("Requested: it is number {position} in the queue.", ["position": String(position)]))
        } catch {
            guard let problem = Problem(describing: error), problem.status.code < 500 else { throw error }
            var page = try await stationPage(station, request, account)
            page.requests?.error = request.t.detail(problem)
            return .page(page, status: problem.status)
        }
    }

    /// The request form of a station's page; nil when the station takes no requests (it has no
    /// rotation or block playlist with a track).
    func requestsPanel(_ station: Station) async throws -> StationRequestsPanel? {
        let tracks = try await stations.requestList(mount: station.mount, search: nil)
        guard !tracks.isEmpty else { return nil }
        let waiting = try await stations.pendingRequests(mount: station.mount).map(\.title)
        return StationRequestsPanel(
            url: SiteRoutes.stationRequests.path(station.mount),
            tracks: tracks.map { .init(value: String($0.id), label: StationAutoDJ.title(of: $0), selected: false) },
            waiting: waiting, hasWaiting: !waiting.isEmpty)
    }
}
