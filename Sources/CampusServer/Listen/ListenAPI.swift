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

extension APIHandler {
    var listen: ListenService { services.listen }

    // MARK: Catalogue

    func searchCatalogue(_ input: Operations.searchCatalogue.Input) async throws
        -> Operations.searchCatalogue.Output
    {
        let user = try await requireUser().user
        let limit = input.query.limit ?? 30
        guard (1...100).contains(limit) else {
            throw Problem.invalid(FieldProblem(field: "limit", detail: "limit is a number from 1 to 100."))
        }
        let hits = try await listen.search(input.query.q, limit: limit, for: user)
        return .ok(.init(body: .json(.init(items: hits.map(\.api)))))
    }

    func listGenres(_ input: Operations.listGenres.Input) async throws -> Operations.listGenres.Output {
        _ = try await requireUser()
        let genres = try await listen.genres()
        let pictures = try await listen.pictures(genreIDs: genres.map(\.id))
        return .ok(
            .init(
                body: .json(
                    genres.map { genre in
                        .init(
                            id: genre.id, name: genre.name,
                            images: pictures[genre.id]?.images)
                    })))
    }

    func listParents(_ input: Operations.listParents.Input) async throws -> Operations.listParents.Output {
        _ = try await requireUser()
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let kind = ParentKind(rawValue: input.path.parentKind.rawValue) ?? .album
        let parents = try await listen.parents(
            kind: kind, genre: input.query.genre, limit: page.limit, offset: page.offset)
        return .ok(.init(body: .json(parents.map(\.api))))
    }

    private func parentDetail(_ id: Int64, _ kind: ParentKind) async throws -> Components.Schemas.ParentDetail {
        let user = try await requireUser().user
        return try await listen.parent(id, kind: kind, for: user).api
    }

    func getAlbum(_ input: Operations.getAlbum.Input) async throws -> Operations.getAlbum.Output {
        .ok(.init(body: .json(try await parentDetail(input.path.parentId, .album))))
    }

    func getPodcast(_ input: Operations.getPodcast.Input) async throws -> Operations.getPodcast.Output {
        .ok(.init(body: .json(try await parentDetail(input.path.parentId, .podcast))))
    }

    func getAudiobook(_ input: Operations.getAudiobook.Input) async throws -> Operations.getAudiobook.Output {
        .ok(.init(body: .json(try await parentDetail(input.path.parentId, .audiobook))))
    }

    func getProgramme(_ input: Operations.getProgramme.Input) async throws -> Operations.getProgramme.Output {
        .ok(.init(body: .json(try await parentDetail(input.path.parentId, .programme))))
    }

    func getAuthor(_ input: Operations.getAuthor.Input) async throws -> Operations.getAuthor.Output {
        let user = try await requireUser().user
        let view = try await listen.author(input.path.authorId, for: user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        id: view.author.id, name: view.author.name, liked: view.liked, hidden: view.hidden,
                        images: view.picture?.images,
                        parents: view.parents.map(\.api), items: view.items.map(\.api)))))
    }

    func getMedia(_ input: Operations.getMedia.Input) async throws -> Operations.getMedia.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await listen.media(input.path.mediaId, for: user).api)))
    }

    /// Answered by ``MediaStreamFastPath`` before it gets here.
    /// The file's bytes, their content type and validators are more than the typed answer can
    /// say: the operation's fast operation (``MediaStreamFastPath``) answers it, here too.
    func streamMedia(_ input: Operations.streamMedia.Input) async throws -> Operations.streamMedia.Output {
        try await FastPaths.answer()
        _ = try await requireUser()
        throw Problem.notFound(
            "There is no media item {id} with a file to stream.", ["id": String(input.path.mediaId)])
    }

    func getCover(_ input: Operations.getCover.Input) async throws -> Operations.getCover.Output {
        if !services.links.isValid(input.query.key, for: "cover:\(input.path.parentId)") {
            _ = try await requireUser()
        }
        let size = ImageSize(rawValue: input.path.size.rawValue) ?? .original
        let path = try await listen.coverPath(input.path.parentId, size: size)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return .ok(.init(body: .jpeg(HTTPBody(data))))
    }

    func getPodcastFeed(_ input: Operations.getPodcastFeed.Input) async throws -> Operations.getPodcastFeed.Output {
        .ok(.init(body: .application_rss_plus_xml(HTTPBody(try await rss(input.path.parentId, key: input.query.key)))))
    }

    func getProgrammeFeed(_ input: Operations.getProgrammeFeed.Input) async throws
        -> Operations.getProgrammeFeed.Output
    {
        .ok(.init(body: .application_rss_plus_xml(HTTPBody(try await rss(input.path.parentId, key: input.query.key)))))
    }

    /// A feed for a valid key; anything else is 404, saying nothing about what exists.
    private func rss(_ id: Int64, key: String) async throws -> Data {
        guard services.links.isValid(key, for: "rss:\(id)"), let feed = try await Podcasts.feed(id, services: services)
        else { throw Problem.notFound("There is no feed.") }
        return feed
    }

    func importPodcast(_ input: Operations.importPodcast.Input) async throws -> Operations.importPodcast.Output {
        let admin = try await requireAdmin()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the feed's URL as JSON.") }
        let summary = try await listen.importPodcast(body.url)
        let t = services.languages.choose(
            choice: admin.user.language, acceptLanguage: RequestScope.current?.acceptLanguage)
        return .ok(
            .init(
                body: .json(
                    .init(
                        podcastId: summary.podcastID, title: summary.title, added: summary.added,
                        updated: summary.updated, skipped: summary.skipped.map { t($0) }))))
    }

    func uploadMedia(_ input: Operations.uploadMedia.Input) async throws -> Operations.uploadMedia.Output {
        let user = try await requireAdmin().user
        guard case .binary(let body) = input.body else { throw Problem.unsupportedMediaType("Send the file's bytes.") }
        let view = try await listen.upload(body, name: input.query.name, folder: input.query.folder, for: user)
        return .created(.init(body: .json(view.api)))
    }

    // MARK: Player

    func getPlayer(_ input: Operations.getPlayer.Input) async throws -> Operations.getPlayer.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await listen.player(for: user).api)))
    }

    func playerAction(_ input: Operations.playerAction.Input) async throws -> Operations.playerAction.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the action as JSON.") }
        let payload = body.payload
        var request = ListenService.PlayerRequest(
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
        return .ok(.init(body: .json(try await listen.act(request, for: user).api)))
    }

    func getHistory(_ input: Operations.getHistory.Input) async throws -> Operations.getHistory.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        // The page of the two histories merged: each one's newest up to the page's end (each keeps
        // at most ListenerLimits.history entries).
        let reach = min(page.offset + page.limit, ListenerLimits.history)
        let entries = try await listen.history(for: user, limit: reach)
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

    // MARK: Marks, ratings

    func setMark(_ input: Operations.setMark.Input) async throws -> Operations.setMark.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the mark as JSON.") }
        let target = try ListenService.reference(input.path.target, field: "target")
        try await listen.mark(target, body.mark == .like ? .like : .hide, for: user)
        return .noContent(.init())
    }

    func clearMark(_ input: Operations.clearMark.Input) async throws -> Operations.clearMark.Output {
        let user = try await requireUser().user
        let target = try ListenService.reference(input.path.target, field: "target")
        try await listen.mark(target, nil, for: user)
        return .noContent(.init())
    }

    func listLikes(_ input: Operations.listLikes.Input) async throws -> Operations.listLikes.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let likes = try await listen.likes(for: user, limit: page.limit, offset: page.offset).map(\.api)
        let tag = try APIJSON.entityTag(likes)
        if APIJSON.clientHas(tag) { return .notModified(.init()) }
        return .ok(.init(headers: .init(ETag: tag), body: .json(likes)))
    }

    func rateParent(_ input: Operations.rateParent.Input) async throws -> Operations.rateParent.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the rating as JSON.") }
        let rating = try await listen.rate(input.path.parentId, stars: body.stars, for: user)
        return .ok(.init(body: .json(rating.api)))
    }

    // MARK: Comments

    func listComments(_ input: Operations.listComments.Input) async throws -> Operations.listComments.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let comments = try await listen.comments(
            on: input.query.parentId, for: user, limit: page.limit, offset: page.offset)
        return .ok(.init(body: .json(comments.map { $0.0.api(canDelete: $0.canDelete) })))
    }

    func addComment(_ input: Operations.addComment.Input) async throws -> Operations.addComment.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the comment as JSON.") }
        let comment = try await listen.comment(on: body.parentId, body.body, by: user)
        return .created(.init(body: .json(comment.api(canDelete: true))))
    }

    func deleteComment(_ input: Operations.deleteComment.Input) async throws -> Operations.deleteComment.Output {
        let user = try await requireUser().user
        _ = try await listen.deleteComment(input.path.commentId, by: user)
        return .noContent(.init())
    }

    // MARK: Playlists

    func listPlaylists(_ input: Operations.listPlaylists.Input) async throws -> Operations.listPlaylists.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let lists = try await listen.playlists(for: user, page: page).map { listed in
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
        return .created(.init(body: .json(try await listen.createPlaylist(name: body.name, kind: kind, for: user).api)))
    }

    func getPlaylist(_ input: Operations.getPlaylist.Input) async throws -> Operations.getPlaylist.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await listen.playlist(input.path.playlistId, for: user).api)))
    }

    func updatePlaylist(_ input: Operations.updatePlaylist.Input) async throws -> Operations.updatePlaylist.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the changes as JSON.") }
        let view = try await listen.updatePlaylist(
            input.path.playlistId, name: body.name, items: body.items, isPublic: body._public, for: user)
        return .ok(.init(body: .json(view.api)))
    }

    func deletePlaylist(_ input: Operations.deletePlaylist.Input) async throws -> Operations.deletePlaylist.Output {
        let user = try await requireUser().user
        try await listen.deletePlaylist(input.path.playlistId, for: user)
        return .noContent(.init())
    }

    func listAddable(_ input: Operations.listAddable.Input) async throws -> Operations.listAddable.Output {
        let user = try await requireUser().user
        let items = try await listen.addable(input.path.playlistId, query: input.query.q, for: user)
        return .ok(.init(body: .json(items.map(\.api))))
    }

    // MARK: Settings, feed, library

    func getListenSettings(_ input: Operations.getListenSettings.Input) async throws
        -> Operations.getListenSettings.Output
    {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await listen.settings(for: user).api)))
    }

    func saveListenSettings(_ input: Operations.saveListenSettings.Input) async throws
        -> Operations.saveListenSettings.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the settings as JSON.") }
        let settings = ListenSettings(
            soundQuality: ListenSettings.SoundQuality(rawValue: body.soundQuality.rawValue) ?? .original,
            endlessQueue: body.endlessQueue, skipExplicit: body.skipExplicit, radioRegion: body.radioRegion)
        return .ok(.init(body: .json(try await listen.saveSettings(settings, for: user).api)))
    }

    func scanLibrary(_ input: Operations.scanLibrary.Input) async throws -> Operations.scanLibrary.Output {
        let admin = try await requireAdmin()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the folder as JSON.") }
        let summary = try await listen.scan(body.folder)
        let t = services.languages.choose(
            choice: admin.user.language, acceptLanguage: RequestScope.current?.acceptLanguage)
        return .ok(
            .init(
                body: .json(
                    .init(
                        added: summary.added, updated: summary.updated, unchanged: summary.unchanged,
                        removed: summary.removed, failed: summary.failed.map { $0.said { t($0) } }))))
    }
}
