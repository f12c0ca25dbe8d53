import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import HTTPInput
import InputRules
import Listen
import OpenAPIRuntime
import SharedHelpers
import Storage

/// The playlists API.
extension APIHandler {
    // MARK: Playlists

    func listPlaylists(_ input: Operations.listPlaylists.Input) async throws -> Operations.listPlaylists.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let lists = try await playlists.playlists(for: user, page: page).map { listed in
            let images = listed.picture?.images
            if let system = listed.system {
                return Components.Schemas.Playlist(
                    id: system.rawValue, name: system.title, kind: .track, itemCount: listed.count, system: true,
                    _public: false, mine: true, images: images)
            }
            let playlist = listed.playlist
            return Components.Schemas.Playlist(
                id: String(playlist?.id ?? 0), name: playlist?.name ?? "", kind: .init(playlist?.kind ?? .track),
                itemCount: listed.count, system: false, _public: playlist?.isPublic ?? false, mine: true,
                images: images)
        }
        let tag = try APIJSON.entityTag(lists)
        if APIJSON.clientHas(tag) { return .notModified(.init()) }
        return .ok(.init(headers: .init(ETag: tag), body: .json(lists)))
    }

    func createPlaylist(_ input: Operations.createPlaylist.Input) async throws -> Operations.createPlaylist.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the playlist as JSON.") }
        let kind = MediaKind(rawValue: body.kind.rawValue) ?? .track
        return .created(
            .init(body: .json(try await playlists.createPlaylist(name: body.name, kind: kind, for: user).api)))
    }

    func getPlaylist(_ input: Operations.getPlaylist.Input) async throws -> Operations.getPlaylist.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await playlists.playlist(input.path.playlistId, for: user).api)))
    }

    func updatePlaylist(_ input: Operations.updatePlaylist.Input) async throws -> Operations.updatePlaylist.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the changes as JSON.") }
        let view = try await playlists.updatePlaylist(
            input.path.playlistId, name: body.name, items: body.items, isPublic: body._public, for: user)
        return .ok(.init(body: .json(view.api)))
    }

    func deletePlaylist(_ input: Operations.deletePlaylist.Input) async throws -> Operations.deletePlaylist.Output {
        let user = try await requireUser().user
        try await playlists.deletePlaylist(input.path.playlistId, for: user)
        return .noContent(.init())
    }

    func listAddable(_ input: Operations.listAddable.Input) async throws -> Operations.listAddable.Output {
        let user = try await requireUser().user
        let items = try await playlists.addable(input.path.playlistId, query: input.query.q, for: user)
        return .ok(.init(body: .json(items.map(\.api))))
    }
}
