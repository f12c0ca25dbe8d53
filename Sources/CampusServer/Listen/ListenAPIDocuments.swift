import CampusAPI
import Foundation
import Listen
import SharedHelpers
import Storage

/// The listening API's documents (openapi.yaml's schemas) made from the catalogue and the
/// listener's things.
extension Components.Schemas.MediaKind {
    init(_ kind: MediaKind) { self = .init(rawValue: kind.rawValue) ?? .track }
}

extension Components.Schemas.ParentKind {
    init(_ kind: ParentKind) { self = .init(rawValue: kind.rawValue) ?? .album }
}

extension Components.Schemas.Images {
    /// An image of one size (an uploaded image, a station's) for every size.
    static func one(_ url: String) -> Self { .init(thumbnail: url, medium: url, large: url, original: url) }
}

extension Picture {
    /// What stands for an author, a genre or a playlist, in the four sizes.
    var images: Components.Schemas.Images {
        switch self {
        case .uploaded(let id): .one(APIRoutes.libraryImage.path(id))
        case .cover(let parentID, let updatedAt): CoverURL.images(parentID: parentID, version: updatedAt)
        }
    }
}

/// The address of a cover image; `v` changes when the cover does, so browsers may keep it.
enum CoverURL {
    static func path(parentID: Int64, size: ImageSize, version: Date) -> String {
        APIRoutes.cover.path(parentID, size.rawValue, query: [("v", String(version.epoch))])
    }

    static func images(parentID: Int64, version: Date) -> Components.Schemas.Images {
        func url(_ size: ImageSize) -> String { path(parentID: parentID, size: size, version: version) }
        return .init(thumbnail: url(.thumbnail), medium: url(.medium), large: url(.large), original: url(.original))
    }
}

extension SearchHit {
    var kindName: String {
        switch kind {
        case .author: "author"
        case .parent(let kind): kind.rawValue
        case .media(let kind): kind.rawValue
        case .station: "station"
        }
    }

    /// The hit as the player and marks name it (`album:3`, `track:7`; a station by its mount).
    var ref: String {
        switch kind {
        case .author: Reference.author(id).description
        case .parent(let kind): Reference.parent(kind, id).description
        case .media(let kind): "\(kind.rawValue):\(id)"
        case .station(let mount): "station:\(mount)"
        }
    }

    var api: Components.Schemas.SearchHit {
        let url: String
        switch kind {
        case .author: url = SiteRoutes.author.path(id)
        case .parent(let kind): url = SiteRoutes.parent(kind).path(id)
        case .media: url = SiteRoutes.media.path(id)
        case .station(let mount): url = SiteRoutes.station.path(mount)
        }
        return .init(
            id: id, kind: .init(rawValue: kindName) ?? .track, title: title, subtitle: subtitle, ref: ref, url: url)
    }
}

extension Parent {
    var api: Components.Schemas.ParentSummary {
        .init(
            id: id, kind: .init(kind), title: title, author: author.map { .init(id: $0.id, name: $0.name) },
            genre: genre.map { .init(id: $0.id, name: $0.name) }, year: year, itemCount: itemCount, duration: duration,
            images: hasCover ? CoverURL.images(parentID: id, version: updatedAt) : nil, ref: "\(kind.rawValue):\(id)",
            url: SiteRoutes.parent(kind).path(id))
    }
}

extension RatingSummary {
    var api: Components.Schemas.Rating { .init(average: average, count: count, mine: mine) }
}

extension CatalogueService.MediaView {
    var api: Components.Schemas.Media {
        let parentKind = item.kind.parent
        return .init(
            id: item.id, kind: .init(item.kind), title: item.title,
            parent: .init(id: item.parentID, kind: .init(parentKind), title: item.parentTitle),
            author: item.author.map { .init(id: $0.id, name: $0.name) },
            genre: item.genre.map { .init(id: $0.id, name: $0.name) }, disc: item.disc, number: item.number,
            duration: item.duration, explicit: item.isExplicit, description: item.description,
            publishedAt: item.publishedAt, contentType: item.contentType, size: item.size, bitrate: item.bitrate,
            images: item.hasCover ? CoverURL.images(parentID: item.parentID, version: item.updatedAt) : nil,
            streamUrl: streamURL, resumePosition: resumePosition, ref: "\(item.kind.rawValue):\(item.id)",
            url: SiteRoutes.parentItem(parentKind).path(item.parentID, item.id), liked: liked, hidden: hidden)
    }
}

extension CatalogueService.ParentView {
    var api: Components.Schemas.ParentDetail {
        .init(
            value1: parent.api,
            value2: .init(
                description: parent.description, feedUrl: parent.feedURL, rssUrl: rssPath, rating: rating.api,
                liked: liked, hidden: hidden, items: items.map(\.api)))
    }
}

extension PlayerService.PlayerView {
    var api: Components.Schemas.Player {
        .init(
            queue: state.queue.compactMap { entry in
                items[entry.mediaID].map { .init(media: $0.api, hidden: entry.isHidden) }
            },
            current: state.current, position: state.position, playing: state.isPlaying, shuffle: state.shuffle,
            _repeat: .init(rawValue: state.repeatMode.rawValue) ?? .disabled, contextId: state.contextID,
            version: version)
    }
}

extension PlaylistService.PlaylistView {
    var api: Components.Schemas.PlaylistDetail {
        .init(
            value1: .init(
                id: id, name: name, kind: .init(kind), itemCount: items.count, system: isSystem, _public: isPublic,
                mine: mine),
            value2: .init(items: items.map(\.api)))
    }
}

extension ListenSettings {
    var api: Components.Schemas.ListenSettings {
        .init(
            soundQuality: .init(rawValue: soundQuality.rawValue) ?? .original, endlessQueue: endlessQueue,
            skipExplicit: skipExplicit, radioRegion: radioRegion)
    }
}

extension Comment {
    func api(canDelete: Bool) -> Components.Schemas.Comment {
        .init(
            id: id, parentId: parentID, author: .init(id: authorID, name: authorName), body: body, createdAt: createdAt,
            canDelete: canDelete)
    }
}

extension FeedBlockConfiguration {
    var api: Components.Schemas.FeedBlockConfiguration {
        .init(
            _type: .init(rawValue: type.rawValue) ?? .list_square, title: title, highlight: highlight, source: source,
            limit: limit, link: link, description: description, imageId: imageID, titleLink: titleLink)
    }
}
