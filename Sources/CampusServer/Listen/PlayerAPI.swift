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

/// The player API: the server-side player, history and listening settings.
extension APIHandler {
    // MARK: Player

    func getPlayer(_ input: Operations.getPlayer.Input) async throws -> Operations.getPlayer.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await player.player(for: user).api)))
    }

    func playerAction(_ input: Operations.playerAction.Input) async throws -> Operations.playerAction.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the action as JSON.") }
        let payload = body.payload
        var request = PlayerService.PlayerRequest(
            action: body.action.rawValue, ids: payload?.ids, contextID: payload?.contextId,
            position: payload?.position, places: payload?.places, from: payload?.from, to: payload?.to,
            place: payload?.place)
        // Seed 001's own names (its Listing 9) beside Campus's, with the same meaning.
        if let seedContext = payload?.context_id {
            if let context = request.contextID, context != seedContext {
                throw Problem.invalid(
                    FieldProblem(
                        field: "payload.context_id",
                        detail: "contextId and context_id name two different contexts; send one of them."))
            }
            request.contextID = seedContext
            request.contextField = "payload.context_id"
        }
        request.shuffle = payload?.shuffle.map { $0.rawValue.hasPrefix("enable") }
        request.repeatMode = payload?.repeat_type.flatMap { RepeatMode(rawValue: $0.rawValue) }
        return .ok(.init(body: .json(try await player.act(request, for: user).api)))
    }

    func getHistory(_ input: Operations.getHistory.Input) async throws -> Operations.getHistory.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        // The page of the two histories merged: each one's newest up to the page's end (each keeps
        // at most ListenerLimits.history entries).
        let reach = min(page.offset + page.limit, ListenerLimits.history)
        let entries = try await player.history(for: user, limit: reach)
        let played: [Components.Schemas.HistoryEntry] = entries.map { view, event, at in
            .init(
                kind: .media, media: view.api, outcome: .init(rawValue: event.outcome.rawValue) ?? .ended,
                position: event.position, at: at)
        }
        let listened: [Components.Schemas.HistoryEntry] = try await services.stations.history(
            of: user, limit: reach
        ).map { event, mount in
            .init(
                kind: .radio, station: .init(name: event.stationName, mount: mount), seconds: event.seconds,
                at: event.startedAt)
        }
        // Newest first; a station's event is where its listening began.
        let merged = (played + listened).enumerated().sorted {
            $0.element.at != $1.element.at ? $0.element.at > $1.element.at : $0.offset < $1.offset
        }
        return .ok(.init(body: .json(merged.dropFirst(page.offset).prefix(page.limit).map(\.element))))
    }

    func getListenSettings(_ input: Operations.getListenSettings.Input) async throws
        -> Operations.getListenSettings.Output
    {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await player.settings(for: user).api)))
    }

    func saveListenSettings(_ input: Operations.saveListenSettings.Input) async throws
        -> Operations.saveListenSettings.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the settings as JSON.") }
        let settings = ListenSettings(
            soundQuality: ListenSettings.SoundQuality(rawValue: body.soundQuality.rawValue) ?? .original,
            endlessQueue: body.endlessQueue, skipExplicit: body.skipExplicit, radioRegion: body.radioRegion)
        return .ok(.init(body: .json(try await player.saveSettings(settings, for: user).api)))
    }
}
