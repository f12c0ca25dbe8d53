import CampusAPI
import CampusHTTP
import Foundation
import HTTPInput
import Listen
import OpenAPIRuntime

/// The home feed, its blocks and their images, and what the listener picked for their
/// recommendations and is listening to.
extension APIHandler {
    func getFeed(_ input: Operations.getFeed.Input) async throws -> Operations.getFeed.Output {
        let user = try await requireUser().user
        let home = HomeFeed(database: services.database)
        // The version first: a client that has this feed, and a HEAD, read nothing more.
        let version = try await home.version(for: user, genre: input.query.genre)
        let scope = RequestScope.current
        if scope?.ifNoneMatch != nil {
            if APIJSON.clientHas(version.tag) { return .notModified(.init()) }
        } else if let since = scope?.ifModifiedSince.flatMap(HTTPDate.date), version.updatedAt.epoch <= since.epoch {
            return .notModified(.init())
        }
        let headers = Operations.getFeed.Output.Ok.Headers(
            ETag: version.tag, Last_hyphen_Modified: HTTPDate.text(version.updatedAt))
        if scope?.method == .head {
            // HEAD answers the headers only (Hummingbird drops the body): the blocks are not made.
            return .ok(.init(headers: headers, body: .json(.init(blocks: [], updatedAt: version.updatedAt))))
        }
        let blocks = try await home.blocks(for: user, genre: input.query.genre)
        return .ok(
            .init(headers: headers, body: .json(HomeFeed.Feed(blocks: blocks, updatedAt: version.updatedAt).api)))
    }

    // MARK: Feed blocks

    func getFeedBlocks(_ input: Operations.getFeedBlocks.Input) async throws -> Operations.getFeedBlocks.Output {
        _ = try await requireAdmin()
        let (configured, blocks) = try await feed.feedBlocks()
        return .ok(.init(body: .json(.init(configured: configured, blocks: blocks.map(\.api)))))
    }

    func saveFeedBlocks(_ input: Operations.saveFeedBlocks.Input) async throws -> Operations.saveFeedBlocks.Output {
        let user = try await requireAdmin().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the blocks as JSON.") }
        let blocks = body.blocks.map { block in
            FeedBlockConfiguration(
                type: FeedBlockConfiguration.BlockType(rawValue: block._type.rawValue) ?? .listSquare,
                title: block.title, highlight: block.highlight, source: block.source, limit: block.limit ?? 8,
                link: block.link, description: block.description, imageID: block.imageId,
                titleLink: block.titleLink)
        }
        let (configured, saved) = try await feed.saveFeedBlocks(blocks, by: user)
        return .ok(.init(body: .json(.init(configured: configured, blocks: saved.map(\.api)))))
    }

    func uploadLibraryImage(_ input: Operations.uploadLibraryImage.Input) async throws
        -> Operations.uploadLibraryImage.Output
    {
        let user = try await requireUser().user
        let (contentType, body): (String, HTTPBody) =
            switch input.body {
            case .png(let body): ("image/png", body)
            case .jpeg(let body): ("image/jpeg", body)
            case .image_webp(let body): ("image/webp", body)
            }
        if user.role != .admin { throw Problem.forbidden("Only admins manage the media library.") }
        let data = try await [UInt8](collecting: body, upTo: BodyLimits.libraryImage)
        let id = try await library.addLibraryImage(contentType: contentType, data: data, by: user)
        return .created(.init(body: .json(.init(id: id, url: APIRoutes.libraryImage.path(id)))))
    }

    func getLibraryImage(_ input: Operations.getLibraryImage.Input) async throws -> Operations.getLibraryImage.Output {
        let image = try await library.libraryImage(input.path.imageId)
        // An image is never changed (a new one is uploaded instead): it may be kept for long.
        let headers = Operations.getLibraryImage.Output.Ok.Headers(Cache_hyphen_Control: "public, max-age=31536000")
        return .ok(.init(headers: headers, body: .image(image.data, contentType: image.contentType)))
    }

    func setAuthorPicture(_ input: Operations.setAuthorPicture.Input) async throws
        -> Operations.setAuthorPicture.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the picture as JSON.") }
        try await library.setPicture(of: .author(input.path.authorId), imageID: body.imageId, by: user)
        return .noContent(.init())
    }

    func setGenrePicture(_ input: Operations.setGenrePicture.Input) async throws -> Operations.setGenrePicture.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the picture as JSON.") }
        try await library.setPicture(of: .genre(input.path.genreId), imageID: body.imageId, by: user)
        return .noContent(.init())
    }

    // MARK: Picks and listening

    func getPicks(_ input: Operations.getPicks.Input) async throws -> Operations.getPicks.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await feed.picks(for: user).api)))
    }

    func savePicks(_ input: Operations.savePicks.Input) async throws -> Operations.savePicks.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the picks as JSON.") }
        return .ok(
            .init(body: .json(try await feed.savePicks(genres: body.genres, authors: body.authors, for: user).api)))
    }

    func listListening(_ input: Operations.listListening.Input) async throws -> Operations.listListening.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await feed.listening(for: user).map(\.api))))
    }
}

extension FeedService.Picks {
    var api: Components.Schemas.Picks {
        func pick(_ pick: FeedService.Pick) -> Components.Schemas.Pick {
            .init(
                id: pick.id, name: pick.name, picked: pick.picked,
                images: pick.picture?.images)
        }
        return .init(genres: genres.map(pick), authors: authors.map(pick))
    }
}
