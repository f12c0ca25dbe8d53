import Accounts
import CampusAPI
import Foundation
import Listen
import Storage

/// The home feed: typed blocks (seed 001's table 3) made from the catalogue and the listener's
/// listening, or the feed of one genre.
struct HomeFeed: Sendable {
    let services: Services

    struct Item: Sendable {
        var kind: String
        var id: String
        var title: String
        var subtitle: String?
        var duration: Double?
        var publishedAt: Date?
        var images: Components.Schemas.Images?
        var ref: String
        var url: String
    }

    struct Block: Sendable {
        var type: Components.Schemas.FeedBlock._typePayload
        var title: String
        var highlight: Bool
        var hasMore: Bool
        var moreURL: String?
        var items: [Item]
    }

    struct Feed: Sendable {
        var blocks: [Block]
        var updatedAt: Date

        var api: Components.Schemas.Feed {
            .init(
                blocks: blocks.map { block in
                    .init(
                        _type: block.type, title: block.title, highlight: block.highlight, hasMore: block.hasMore,
                        moreUrl: block.moreURL,
                        items: block.items.map {
                            .init(
                                kind: .init(rawValue: $0.kind) ?? .link, id: $0.id, title: $0.title,
                                subtitle: $0.subtitle, duration: $0.duration, publishedAt: $0.publishedAt,
                                images: $0.images, ref: $0.ref, url: $0.url)
                        })
                }, updatedAt: updatedAt)
        }
    }

    static let blockSize = 8

    func feed(for user: UserRecord, genre: Int64?) async throws -> Feed {
        try await services.database.read { db in
            let store = ListenStore(db)
            var blocks: [Block] = []
            func parentBlock(_ type: Components.Schemas.FeedBlock._typePayload, _ title: String, _ kind: ParentKind?)
                async throws
            {
                let parents =
                    genre == nil
                    ? try await store.newestParents(kind: kind, limit: Self.blockSize + 1)
                    : try await store.parents(kind: kind, genreID: genre, limit: Self.blockSize + 1)
                guard !parents.isEmpty else { return }
                blocks.append(
                    Block(
                        type: type, title: title, highlight: false, hasMore: parents.count > Self.blockSize,
                        moreURL: kind.map { "/listen\($0.path)" },
                        items: parents.prefix(Self.blockSize).map(Self.item)))
            }
            if genre == nil {
                let recent = try await store.media(
                    ids: try await store.systemPlaylist(.recentlyPlayed, userID: user.id, limit: Self.blockSize + 1))
                if !recent.isEmpty {
                    blocks.append(
                        Block(
                            type: .track, title: "Continue listening", highlight: true,
                            hasMore: recent.count > Self.blockSize, moreURL: "/listen/playlists/recently_played",
                            items: recent.prefix(Self.blockSize).map(Self.item)))
                }
                let recommended = try await store.media(
                    ids: try await store.systemPlaylist(.recommended, userID: user.id, limit: Self.blockSize + 1))
                if !recommended.isEmpty {
                    blocks.append(
                        Block(
                            type: .list_square, title: "Recommended for you", highlight: false,
                            hasMore: recommended.count > Self.blockSize, moreURL: "/listen/playlists/recommended",
                            items: recommended.prefix(Self.blockSize).map(Self.item)))
                }
            }
            try await parentBlock(.list_square, "New albums", .album)
            try await parentBlock(.list_rectangular, "Podcasts", .podcast)
            try await parentBlock(.grid_four_squares, "Audiobooks", .audiobook)
            try await parentBlock(.list_title_link, "Lectures and programmes", .programme)
            if genre == nil {
                let genres = try await store.genres()
                if !genres.isEmpty {
                    blocks.append(
                        Block(
                            type: .genres, title: "Genres", highlight: false, hasMore: false, moreURL: nil,
                            items: genres.map {
                                Item(
                                    kind: "genre", id: String($0.id), title: $0.name, ref: "genre:\($0.id)",
                                    url: "/listen/genres/\($0.id)")
                            }))
                }
                // The first album or podcast the listener has not rated invites a rating.
                for parent in try await store.newestParents(kind: nil, limit: 20) {
                    if try await store.rating(parentID: parent.id, userID: user.id).mine == nil {
                        blocks.append(
                            Block(
                                type: .rating, title: "Rate “\(parent.title)”", highlight: false, hasMore: false,
                                moreURL: nil, items: [Self.item(parent)]))
                        break
                    }
                }
            }
            let version = try await store.catalogueVersion()
            let listened = try await store.history(userID: user.id, limit: 1).first?.at.epoch ?? 0
            return Feed(blocks: blocks, updatedAt: Date(epoch: max(version.updated, listened)))
        }
    }

    static func item(_ parent: Parent) -> Item {
        Item(
            kind: parent.kind.rawValue, id: String(parent.id), title: parent.title, subtitle: parent.author?.name,
            duration: parent.duration, publishedAt: nil,
            images: parent.hasCover ? CoverURL.images(parentID: parent.id, version: parent.updatedAt) : nil,
            ref: "\(parent.kind.rawValue):\(parent.id)", url: "\(parent.kind.path)/\(parent.id)")
    }

    static func item(_ media: MediaItem) -> Item {
        Item(
            kind: media.kind.rawValue, id: String(media.id), title: media.title,
            subtitle: media.author?.name ?? media.parentTitle, duration: media.duration, publishedAt: media.publishedAt,
            images: media.hasCover ? CoverURL.images(parentID: media.parentID, version: media.updatedAt) : nil,
            ref: "\(media.kind.rawValue):\(media.id)", url: "\(media.kind.parent.path)/\(media.parentID)/\(media.id)")
    }
}
