import Accounts
import CampusAPI
import Crypto
import Foundation
import Listen
import Localization
import SQLKit
import SharedHelpers
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
        /// The title the block's configuration gives it.
        var configuredTitle: String
        /// The album or podcast the default rating block invites to rate.
        var rated: String?
        /// The title as the API gives it, in English (pages: ``HomeFeed/title(of:_:)``).
        var title: String { rated.map { "Rate “\($0)”" } ?? configuredTitle }
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

    /// The feed when no admin configured one: what the listener played and may like, then the
    /// newest of each kind, the genres, and an invitation to rate.
    static let defaultBlocks: [FeedBlockConfiguration] = [
        .init(type: .track, title: "Continue listening", highlight: true, source: "recently_played"),
        .init(type: .listSquare, title: "Recommended for you", source: "recommended"),
        .init(type: .stations, title: "Radio", source: "stations"),
        .init(type: .listSquare, title: "New albums", source: "newest:album"),
        .init(type: .listRectangular, title: "Podcasts", source: "newest:podcast"),
        .init(type: .gridFourSquares, title: "Audiobooks", source: "newest:audiobook"),
        .init(type: .listTitleLink, title: "Lectures and programmes", source: "newest:programme"),
        .init(type: .genres, title: "Genres", source: "genres", limit: 50),
        .init(type: .rating, title: "Rate it", source: "unrated", limit: 1),
    ]

    /// A block's title on a page: the default blocks' titles are Campus's words, in the reader's
    /// language; an admin's own titles are shown as written.
    static func title(of block: Block, _ t: Translator) -> String {
        if let rated = block.rated { return t("Rate “{title}”", ["title": rated]) }
        return defaultTitle(block.configuredTitle, t) ?? block.title
    }

    /// The title of a default block in the reader's language, or nil for a title of an admin's.
    static func defaultTitle(_ title: String, _ t: Translator) -> String? {
        switch title {
        case "Continue listening": t("Continue listening")
        case "Recommended for you": t("Recommended for you")
        case "New albums": t("New albums")
        case "Podcasts": t("Podcasts")
        case "Audiobooks": t("Audiobooks")
        case "Lectures and programmes": t("Lectures and programmes")
        case "Genres": t("Genres")
        case "Rate it": t("Rate it")
        case "Radio": t("Radio")
        default: nil
        }
    }

    /// A genre's feed: the newest of each kind in the genre.
    static let genreBlocks: [FeedBlockConfiguration] = defaultBlocks.filter {
        FeedBlockConfiguration.Source($0.source).map { if case .newest = $0 { true } else { false } } ?? false
    }

    func feed(for user: UserRecord, genre: Int64?) async throws -> Feed {
        try await services.database.read { db in
            let store = ListenStore(db)
            let configured = try await store.feedBlocks()
            let configurations =
                genre != nil ? Self.genreBlocks : (configured.isEmpty ? Self.defaultBlocks : configured)
            var blocks: [Block] = []
            for configuration in configurations {
                if let block = try await build(
                    configuration, user: user, genre: genre, store: store, radio: RadioStore(db))
                {
                    blocks.append(block)
                }
            }
            return Feed(blocks: blocks, updatedAt: try await Self.version(for: user, genre: genre, db: db).updatedAt)
        }
    }

    /// What the feed's answer depends on, cheap to read: an entity tag that changes when the
    /// feed would (the catalogue, the blocks' configuration, the stations, and the listener's
    /// marks, ratings, settings and listening) and the last time any of it changed. A `HEAD`,
    /// and a `GET` that the client already has, read only this.
    struct Version: Sendable, Equatable {
        var tag: String
        var updatedAt: Date
    }

    func version(for user: UserRecord, genre: Int64?) async throws -> Version {
        try await services.database.read { db in try await Self.version(for: user, genre: genre, db: db) }
    }

    static func version(for user: UserRecord, genre: Int64?, db: any SQLDatabase) async throws -> Version {
        let store = ListenStore(db)
        let catalogue = try await store.catalogueVersion()
        let configuredAt = try await store.feedChanged()
        let stationsAt = try await RadioStore(db).lastChange()
        let listener = try await store.listenerVersion(userID: user.id)
        let parts =
            [catalogue.updated, Int64(catalogue.count), configuredAt, stationsAt, user.id, genre ?? 0] + listener
        let digest = SHA256.hash(data: Data(parts.map(String.init).joined(separator: ",").utf8))
        // Of the listener's numbers, the times count (marks, ratings, settings, listening), not the counts.
        let times =
            [catalogue.updated, configuredAt, stationsAt]
            + stride(from: 0, to: listener.count, by: 2).map {
                listener[$0]
            }
        return Version(
            tag: "\"f" + digest.prefix(12).hexadecimal + "\"", updatedAt: Date(epoch: times.max() ?? 0))
    }

    /// One block, or nil when it would be empty.
    private func build(
        _ configuration: FeedBlockConfiguration, user: UserRecord, genre: Int64?, store: ListenStore,
        radio: RadioStore
    ) async throws -> Block? {
        guard let source = FeedBlockConfiguration.Source(configuration.source) else { return nil }
        let limit = configuration.limit
        func block(_ items: [Item], more: String?) -> Block? {
            guard !items.isEmpty else { return nil }
            return Block(
                type: .init(rawValue: configuration.type.rawValue) ?? .list_square,
                configuredTitle: configuration.title, highlight: configuration.highlight,
                hasMore: items.count > limit && more != nil, moreURL: more,
                items: Array(items.prefix(limit)))
        }
        switch source {
        case .newest(let kind):
            let parents =
                genre == nil
                ? try await store.newestParents(kind: kind, limit: limit + 1)
                : try await store.parents(kind: kind, genreID: genre, limit: limit + 1)
            return block(parents.map(Self.item), more: SiteRoutes.browse(kind).path)
        case .genre(let id):
            let parents = try await store.parents(kind: nil, genreID: id, limit: limit + 1)
            return block(parents.map(Self.item), more: SiteRoutes.genre.path(id))
        case .system(let playlist):
            var items = try await store.media(
                ids: try await store.systemPlaylist(playlist, userID: user.id, limit: limit + 1))
            // A listener who skips explicit items does not meet them in the feed either.
            if try await store.settings(userID: user.id).skipExplicit { items.removeAll(where: \.isExplicit) }
            return block(items.map(Self.item), more: SiteRoutes.playlist.path(playlist.rawValue))
        case .genres:
            let genres = try await store.genres()
            return block(
                genres.map {
                    Item(
                        kind: "genre", id: String($0.id), title: $0.name, ref: "genre:\($0.id)",
                        url: SiteRoutes.genre.path($0.id))
                }, more: nil)
        case .unrated:
            // The newest album or podcast the listener has not rated invites a rating.
            for parent in try await store.newestParents(kind: nil, limit: 20)
            where try await store.rating(parentID: parent.id, userID: user.id).mine == nil {
                var rated = block([Self.item(parent)], more: nil)
                if configuration.title == "Rate it" { rated?.rated = parent.title }
                return rated
            }
            return nil
        case .stations:
            // The listener's radio region's stations, or every station when it has none there.
            let all = try await radio.stations()
            let region = try await store.settings(userID: user.id).radioRegion
            let local = all.filter { $0.region.caseInsensitiveCompare(region) == .orderedSame }
            let images = try await radio.imageVersions()
            return block(
                (local.isEmpty ? all : local).map { station in
                    let image = images[station.id].map { StationService.imageURL(mount: station.mount, version: $0) }
                    return Item(
                        kind: "station", id: station.mount, title: station.name,
                        subtitle: station.genre.isEmpty ? nil : station.genre,
                        images: image.map { .init(thumbnail: $0, medium: $0, large: $0, original: $0) },
                        ref: "station:\(station.mount)", url: SiteRoutes.station.path(station.mount))
                }, more: SiteRoutes.stations.path)
        case .link:
            let link = configuration.link ?? SiteRoutes.listen.path
            return block(
                [Item(kind: "link", id: link, title: configuration.title, ref: link, url: link)], more: nil)
        }
    }

    static func item(_ parent: Parent) -> Item {
        Item(
            kind: parent.kind.rawValue, id: String(parent.id), title: parent.title, subtitle: parent.author?.name,
            duration: parent.duration, publishedAt: nil,
            images: parent.hasCover ? CoverURL.images(parentID: parent.id, version: parent.updatedAt) : nil,
            ref: "\(parent.kind.rawValue):\(parent.id)", url: SiteRoutes.parent(parent.kind).path(parent.id))
    }

    static func item(_ media: MediaItem) -> Item {
        Item(
            kind: media.kind.rawValue, id: String(media.id), title: media.title,
            subtitle: media.author?.name ?? media.parentTitle, duration: media.duration, publishedAt: media.publishedAt,
            images: media.hasCover ? CoverURL.images(parentID: media.parentID, version: media.updatedAt) : nil,
            ref: "\(media.kind.rawValue):\(media.id)",
            url: SiteRoutes.parentItem(media.kind.parent).path(media.parentID, media.id))
    }
}
