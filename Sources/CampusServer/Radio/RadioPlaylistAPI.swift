import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import Listen
import Storage

/// The API of stations' AutoDJ playlists and history (`/api/v1/stations/{mount}/playlists`,
/// `…/history`): admins manage the playlists; the history is public, as the stream is.
extension APIHandler {
    func listStationPlaylists(_ input: Operations.listStationPlaylists.Input) async throws
        -> Operations.listStationPlaylists.Output
    {
        let user = try await requireUser().user
        let (_, found) = try await stations.playlists(mount: input.path.mount, by: user)
        return .ok(.init(body: .json(.init(items: found.map { Self.api($0.0, tracks: $0.tracks) }))))
    }

    func createStationPlaylist(_ input: Operations.createStationPlaylist.Input) async throws
        -> Operations.createStationPlaylist.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the playlist as JSON.") }
        let (station, playlist) = try await stations.addPlaylist(
            mount: input.path.mount, try Self.draft(body), by: user)
        await services.liveRadio.playlistsChanged(station)
        return .created(.init(body: .json(try await api(playlist))))
    }

    func updateStationPlaylist(_ input: Operations.updateStationPlaylist.Input) async throws
        -> Operations.updateStationPlaylist.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the playlist as JSON.") }
        let (station, playlist) = try await stations.updatePlaylist(
            mount: input.path.mount, id: input.path.playlistId, try Self.draft(body), by: user)
        await services.liveRadio.playlistsChanged(station)
        return .ok(.init(body: .json(try await api(playlist))))
    }

    func deleteStationPlaylist(_ input: Operations.deleteStationPlaylist.Input) async throws
        -> Operations.deleteStationPlaylist.Output
    {
        let user = try await requireUser().user
        let station = try await stations.deletePlaylist(mount: input.path.mount, id: input.path.playlistId, by: user)
        await services.liveRadio.playlistsChanged(station)
        return .noContent(.init())
    }

    func listStationHistory(_ input: Operations.listStationHistory.Input) async throws
        -> Operations.listStationHistory.Output
    {
        let plays = try await stations.history(
            mount: input.path.mount, limit: min(max(input.query.limit ?? 50, 1), 200))
        let items = plays.map { play in
            Components.Schemas.RadioPlay(
                title: play.title, source: .init(rawValue: play.source) ?? .autodj, mediaId: play.mediaID,
                playlistId: play.playlistID, at: play.at)
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    /// The playlist as the API shows it, with the tracks it holds now.
    private func api(_ playlist: RotationPlaylist) async throws -> Components.Schemas.RadioPlaylist {
        let tracks = try await services.database.read { db in
            try await RadioStore(db).playableMedia(playlist.sources).count
        }
        return Self.api(playlist, tracks: tracks)
    }

    static func api(_ playlist: RotationPlaylist, tracks: Int) -> Components.Schemas.RadioPlaylist {
        var block = TimeBlock(weekdays: [], from: 0, to: 0)
        var everySongs = 0
        switch playlist.rule {
        case .rotation: break
        case .every(let songs): everySongs = songs
        case .block(let running, _): block = running
        }
        return .init(
            id: playlist.id, name: playlist.name, kind: .init(rawValue: playlist.rule.kind) ?? .rotation,
            weight: playlist.rule.weight, everySongs: everySongs, weekdays: block.weekdays.sorted(),
            from: TimeBlock.clock(block.from), to: TimeBlock.clock(block.to), enabled: playlist.enabled,
            sources: playlist.sources.map { .init(kind: .init(rawValue: $0.kind) ?? .media, id: $0.id) },
            tracks: tracks)
    }

    /// HH:MM as minutes after midnight (the schema's pattern holds; 422 naming the field else).
    static func minutes(_ clock: String?, field: String) throws -> Int {
        guard let minutes = TimeBlock.minutes(clock: clock ?? "") else {
            throw Refusal.invalid(
                FieldProblem(field: field, detail: "A time block needs {field} as HH:MM.", ["field": field]))
        }
        return minutes
    }

    static func draft(_ body: Components.Schemas.RadioPlaylistDraft) throws -> StationService.PlaylistDraft {
        let rule: RotationPlaylist.Rule
        switch body.kind {
        case .rotation: rule = .rotation(weight: body.weight ?? 5)
        case .every: rule = .every(songs: body.everySongs ?? 4)
        case .block:
            let block = TimeBlock(
                weekdays: Set(body.weekdays ?? Array(TimeBlock.days)), from: try minutes(body.from, field: "from"),
                to: try minutes(body.to, field: "to"))
            rule = .block(block, weight: body.weight ?? 5)
        }
        let sources = body.sources.compactMap { RotationPlaylist.Source(kind: $0.kind.rawValue, id: $0.id) }
        return StationService.PlaylistDraft(
            name: body.name, rule: rule, sources: sources, enabled: body.enabled ?? true)
    }
}

/// Listeners' requests (`/api/v1/stations/{mount}/requestable`, `…/requests`).
extension APIHandler {
    func listStationRequestable(_ input: Operations.listStationRequestable.Input) async throws
        -> Operations.listStationRequestable.Output
    {
        let items = try await stations.requestList(mount: input.path.mount, search: input.query.q)
        return .ok(
            .init(body: .json(.init(items: items.map { .init(mediaId: $0.id, title: StationAutoDJ.title(of: $0)) }))))
    }

    func listStationRequests(_ input: Operations.listStationRequests.Input) async throws
        -> Operations.listStationRequests.Output
    {
        let pending = try await stations.pendingRequests(mount: input.path.mount)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: pending.map {
                            .init(mediaId: $0.request.mediaID, title: $0.title, requestedAt: $0.request.requestedAt)
                        }))))
    }

    func requestStationTrack(_ input: Operations.requestStationTrack.Input) async throws
        -> Operations.requestStationTrack.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the request as JSON.") }
        let position = try await stations.request(mount: input.path.mount, mediaID: body.mediaId, by: user)
        return .created(.init(body: .json(.init(position: position))))
    }
}
