import Accounts
import CampusAPI
import Foundation
import InputRules
import Listen
import SharedHelpers
import Storage

/// How each block of the home feed is filled from its configuration (seed 001's table 3 and
/// appendix Б): its items, each with the context playing it plays and its number where the
/// seed shows one, and the block's highlight, description, image and title link.
extension HomeFeed {
    /// One block, or nil when it would be empty.
    func build(
        _ configuration: FeedBlockConfiguration, user: Account, settings: ListenSettings, genre: Int64?,
        store: ListenStore, radio: RadioStore
    ) async throws -> Block? {
        guard let source = FeedBlockConfiguration.Source(configuration.source) else { return nil }
        let limit = configuration.limit
        let skipExplicit = settings.skipExplicit
        var block = Block(
            type: .init(rawValue: configuration.type.rawValue) ?? .list_square,
            configuredTitle: configuration.title, highlight: configuration.highlight,
            description: configuration.description,
            image: configuration.imageID.map { .one(APIRoutes.libraryImage.path($0)) }, hasMore: false,
            items: [])
        var more: String?
        switch source {
        case .newest(let kind):
            let parents =
                genre == nil
                ? try await store.newestParents(kind: kind, limit: limit + 1)
                : try await store.parents(kind: kind, genreID: genre, limit: limit + 1)
            block.items = parents.map(Self.item)
            more = SiteRoutes.browse(kind).path
        case .genre(let id):
            block.items = try await store.parents(kind: nil, genreID: id, limit: limit + 1).map(Self.item)
            more = SiteRoutes.genre.path(id)
        case .author(let id):
            block.items = try await store.parents(kind: nil, authorID: id, limit: limit + 1).map(Self.item)
            more = SiteRoutes.author.path(id)
        case .items(let id):
            guard let parent = try await store.parent(id: id) else { return nil }
            // A parent's own list: its items numbered, playing one plays the parent from it.
            var items = try await store.children(of: id, kind: parent.kind)
            if skipExplicit { items.removeAll(where: \.isExplicit) }
            block.items = items.enumerated().map { index, media in
                var item = Self.item(media)
                item.context = "\(parent.kind.rawValue):\(parent.id)"
                item.number = index + 1
                return item
            }
            more = SiteRoutes.parent(parent.kind).path(parent.id)
        case .system(let playlist):
            var items = try await store.media(
                ids: try await store.systemPlaylist(playlist, userID: user.id, limit: limit + 1))
            // A listener who skips explicit items does not meet them in the feed either.
            if skipExplicit { items.removeAll(where: \.isExplicit) }
            block.items = items.map {
                var item = Self.item($0)
                item.context = playlist.rawValue
                return item
            }
            more = SiteRoutes.playlist.path(playlist.rawValue)
        case .playlists:
            for playlist in SystemPlaylist.allCases {
                let first = try await store.media(
                    ids: try await store.systemPlaylist(playlist, userID: user.id, limit: 1)
                ).first
                guard let first else { continue }
                block.items.append(
                    Item(
                        kind: "playlist", id: playlist.rawValue, title: playlist.title,
                        images: first.hasCover
                            ? CoverURL.images(parentID: first.parentID, version: first.updatedAt) : nil,
                        ref: playlist.rawValue, url: SiteRoutes.playlist.path(playlist.rawValue),
                        description: playlist.summary))
            }
            more = SiteRoutes.playlists.path
        case .genres:
            let genres = try await store.genres()
            let pictures = try await store.pictures(genreIDs: genres.map(\.id))
            block.items = genres.map { genre in
                Item(
                    kind: "genre", id: String(genre.id), title: genre.name, images: pictures[genre.id]?.images,
                    ref: "genre:\(genre.id)", url: SiteRoutes.genre.path(genre.id))
            }
        case .unrated:
            // The newest album or podcast the listener has not rated invites a rating.
            for parent in try await store.newestParents(kind: nil, limit: 20)
            where try await store.rating(parentID: parent.id, userID: user.id).mine == nil {
                block.items = [Self.item(parent)]
                if configuration.title == "Rate it" { block.rated = parent.title }
                break
            }
        case .stations:
            // The listener's radio region's stations, or every station when it has none there.
            let all = try await radio.stations()
            let region = settings.radioRegion
            let local = all.filter { $0.region.caseInsensitiveCompare(region) == .orderedSame }
            let images = try await radio.imageVersions()
            block.items = (local.isEmpty ? all : local).map { station in
                let image = images[station.id].map { StationService.imageURL(mount: station.mount, version: $0) }
                return Item(
                    kind: "station", id: station.mount, title: station.name,
                    subtitle: station.genre.isEmpty ? nil : station.genre, images: image.map { .one($0) },
                    ref: "station:\(station.mount)", url: SiteRoutes.station.path(station.mount))
            }
            more = SiteRoutes.stations.path
        case .picks:
            // Nothing to pick in an empty library (one author answers; the genres only without one).
            if try await store.authorsByItems(limit: 1).isEmpty, try await store.genres().isEmpty { return nil }
            let link = SiteRoutes.listenPicks.path
            block.items = [Item(kind: "link", id: link, title: Self.pickTitle, ref: link, url: link)]
        case .link:
            // A link stored before the link rules were what they are now leads nowhere else.
            let link = configuration.link.flatMap { LinkRules.isLink($0) ? $0 : nil } ?? SiteRoutes.listen.path
            block.items = [Item(kind: "link", id: link, title: configuration.title, ref: link, url: link)]
        }
        guard !block.items.isEmpty else { return nil }
        block.hasMore = block.items.count > limit && more != nil
        block.moreURL = more
        block.items = Array(block.items.prefix(limit))
        // A background block without an image of its own shows its first item's cover.
        if block.image == nil, configuration.type == .background { block.image = block.items.first?.images }
        if configuration.type == .listTitleLink || configuration.titleLink != nil {
            (block.titleURL, block.titleImages) = try await titleLink(
                configuration.titleLink ?? source.text, more: more, store: store)
        }
        return block
    }

    /// Where a title leads (an author — with the author's image —, a genre, a parent or a page),
    /// from the block's title link or else its source.
    private func titleLink(_ link: String, more: String?, store: ListenStore) async throws -> (
        String?, Components.Schemas.Images?
    ) {
        if LinkRules.isSitePath(link) { return (link, nil) }
        if let source = FeedBlockConfiguration.Source(link), case .genre(let id) = source {
            return (SiteRoutes.genre.path(id), nil)
        }
        switch Reference(link) {
        case .author(let id):
            return (SiteRoutes.author.path(id), try await store.pictures(authorIDs: [id])[id]?.images)
        case .parent(let kind, let id): return (SiteRoutes.parent(kind).path(id), nil)
        default: return (more, nil)
        }
    }

    /// What the recommendations' banner says to press (pages: ``HomeFeed/defaultTitle(_:_:)``).
    static let pickTitle = "Pick genres and authors"

    static func item(_ parent: Parent) -> Item {
        Item(
            kind: parent.kind.rawValue, id: String(parent.id), title: parent.title, subtitle: parent.author?.name,
            duration: parent.duration, publishedAt: nil,
            images: parent.hasCover ? CoverURL.images(parentID: parent.id, version: parent.updatedAt) : nil,
            ref: "\(parent.kind.rawValue):\(parent.id)", url: SiteRoutes.parent(parent.kind).path(parent.id),
            description: parent.description.isEmpty ? nil : parent.description)
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
