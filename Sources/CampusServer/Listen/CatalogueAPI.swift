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

/// The listening API: what each handler reaches, and the catalogue (search, genres, albums,
/// podcasts, audiobooks, programmes, authors, items, covers, feeds, marks, ratings, comments).
extension APIHandler {
    var catalogue: CatalogueService { services.catalogue }
    var library: LibraryService { services.library }
    var player: PlayerService { services.player }
    var playlists: PlaylistService { services.playlists }
    var feed: FeedService { services.feed }
    var reports: ReportService { services.reports }

    // MARK: Catalogue

    func searchCatalogue(_ input: Operations.searchCatalogue.Input) async throws
        -> Operations.searchCatalogue.Output
    {
        let user = try await requireUser().user
        let limit = input.query.limit ?? 30
        guard (1...100).contains(limit) else {
            throw Problem.invalid(FieldProblem(field: "limit", detail: "limit is a number from 1 to 100."))
        }
        let hits = try await catalogue.search(input.query.q, limit: limit, for: user)
        return .ok(.init(body: .json(.init(items: hits.map(\.api)))))
    }

    func listGenres(_ input: Operations.listGenres.Input) async throws -> Operations.listGenres.Output {
        _ = try await requireUser()
        let genres = try await catalogue.genres()
        let pictures = try await catalogue.pictures(genreIDs: genres.map(\.id))
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
        let parents = try await catalogue.parents(
            kind: kind, genre: input.query.genre, limit: page.limit, offset: page.offset)
        return .ok(.init(body: .json(parents.map(\.api))))
    }

    private func parentDetail(_ id: Int64, _ kind: ParentKind) async throws -> Components.Schemas.ParentDetail {
        let user = try await requireUser().user
        return try await catalogue.parent(id, kind: kind, for: user).api
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
        let view = try await catalogue.author(input.path.authorId, for: user)
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
        return .ok(.init(body: .json(try await catalogue.media(input.path.mediaId, for: user).api)))
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
        let path = try await library.coverPath(input.path.parentId, size: size)
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

    // MARK: Marks, ratings

    func setMark(_ input: Operations.setMark.Input) async throws -> Operations.setMark.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the mark as JSON.") }
        let target = try CatalogueService.reference(input.path.target, field: "target")
        try await catalogue.mark(target, body.mark == .like ? .like : .hide, for: user)
        return .noContent(.init())
    }

    func clearMark(_ input: Operations.clearMark.Input) async throws -> Operations.clearMark.Output {
        let user = try await requireUser().user
        let target = try CatalogueService.reference(input.path.target, field: "target")
        try await catalogue.mark(target, nil, for: user)
        return .noContent(.init())
    }

    func listLikes(_ input: Operations.listLikes.Input) async throws -> Operations.listLikes.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let likes = try await catalogue.likes(for: user, limit: page.limit, offset: page.offset).map(\.api)
        let tag = try APIJSON.entityTag(likes)
        if APIJSON.clientHas(tag) { return .notModified(.init()) }
        return .ok(.init(headers: .init(ETag: tag), body: .json(likes)))
    }

    func rateParent(_ input: Operations.rateParent.Input) async throws -> Operations.rateParent.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the rating as JSON.") }
        let rating = try await catalogue.rate(input.path.parentId, stars: body.stars, for: user)
        return .ok(.init(body: .json(rating.api)))
    }

    // MARK: Comments

    func listComments(_ input: Operations.listComments.Input) async throws -> Operations.listComments.Output {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let comments = try await catalogue.comments(
            on: input.query.parentId, for: user, limit: page.limit, offset: page.offset)
        return .ok(.init(body: .json(comments.map { $0.0.api(canDelete: $0.canDelete) })))
    }

    func addComment(_ input: Operations.addComment.Input) async throws -> Operations.addComment.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the comment as JSON.") }
        let comment = try await catalogue.comment(on: body.parentId, body.body, by: user)
        return .created(.init(body: .json(comment.api(canDelete: true))))
    }

    func deleteComment(_ input: Operations.deleteComment.Input) async throws -> Operations.deleteComment.Output {
        let user = try await requireUser().user
        _ = try await catalogue.deleteComment(input.path.commentId, by: user)
        return .noContent(.init())
    }

}
