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
    let database: Database

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
        /// A parent's or a playlist's description (`list_rectangular` shows it).
        var description: String? = nil
        /// What playing the item plays from the item on (its album, the playlist it is in).
        var context: String? = nil
        /// Its number in the list the block shows (a track in its album).
        var number: Int? = nil
    }

    struct Block: Sendable {
        var type: Components.Schemas.FeedBlock._typePayload
        /// The title the block's configuration gives it.
        var configuredTitle: String
        /// The album or podcast the default rating block invites to rate.
        var rated: String?
        /// The title as the API gives it, in English (pages: ``HomeFeed/title(of:_:)``).
        var title: String { rated.map { "Rate “\($0)”" } ?? configuredTitle }
        var highlight: String?
        var description: String?
        /// A background, or an ad's banner.
        var image: Components.Schemas.Images?
        /// Where the title leads, and the author's image beside it.
        var titleURL: String?
        var titleImages: Components.Schemas.Images?
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
                        _type: block.type, title: block.title, highlight: block.highlight,
                        description: block.description, image: block.image, titleUrl: block.titleURL,
                        titleImages: block.titleImages, hasMore: block.hasMore, moreUrl: block.moreURL,
                        items: block.items.map {
                            .init(
                                kind: .init(rawValue: $0.kind) ?? .link, id: $0.id, title: $0.title,
                                subtitle: $0.subtitle, duration: $0.duration, publishedAt: $0.publishedAt,
                                images: $0.images, ref: $0.ref, url: $0.url, description: $0.description,
                                context: $0.context, number: $0.number)
                        })
                }, updatedAt: updatedAt)
        }
    }

    /// The feed when no admin configured one: what the listener played and may like, the
    /// banner to the picks screen, then the newest of each kind, the genres, and an invitation
    /// to rate.
    static let defaultBlocks: [FeedBlockConfiguration] = [
        .init(type: .track, title: "Continue listening", source: "recently_played"),
        .init(type: .listSquare, title: "Recommended for you", highlight: "For you", source: "recommended"),
        .init(
            type: .banner, title: "Tell us what you like", source: "picks",
            description: "Pick genres and authors: your recommendations start from them."),
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

    /// The title (or highlight, or description) of a default block in the reader's language, or
    /// nil for words of an admin's.
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
        case "For you": t("For you")
        case "Tell us what you like": t("Tell us what you like")
        case pickTitle: t("Pick genres and authors")
        case "Pick genres and authors: your recommendations start from them.":
            t("Pick genres and authors: your recommendations start from them.")
        default: nil
        }
    }

    /// A genre's feed: the newest of each kind in the genre.
    static let genreBlocks: [FeedBlockConfiguration] = defaultBlocks.filter {
        FeedBlockConfiguration.Source($0.source).map { if case .newest = $0 { true } else { false } } ?? false
    }

    /// The feed's blocks for the listener (the API dates them with the ``Version`` it read first).
    func blocks(for user: Account, genre: Int64?) async throws -> [Block] {
        try await database.read { db in
            let store = ListenStore(db)
            let configured = try await store.feedBlocks()
            let configurations =
                genre != nil ? Self.genreBlocks : (configured.isEmpty ? Self.defaultBlocks : configured)
            let settings = try await store.settings(userID: user.id)
            var blocks: [Block] = []
            for configuration in configurations {
                if let block = try await build(
                    configuration, user: user, settings: settings, genre: genre, store: store, radio: RadioStore(db))
                {
                    blocks.append(block)
                }
            }
            return blocks
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

    func version(for user: Account, genre: Int64?) async throws -> Version {
        try await database.read { db in try await Self.version(for: user, genre: genre, db: db) }
    }

    static func version(for user: Account, genre: Int64?, db: any SQLDatabase) async throws -> Version {
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
}
