import Foundation
import Listen
import Storage

/// Podcasts (read-only: admins add them in Campus; episodes stream by id) and the campus radio
/// stations as internet radio.
struct SubsonicPodcasts: Sendable {
    let catalogue: CatalogueService
    let configuration: ServerConfiguration
    let stations: StationService

    /// The most podcasts and episodes listed at once.
    static let largest = 500

    var handlers: KeyValuePairs<String, SubsonicRoutes.Handler> {
        [
            "getPodcasts": { call in try await podcasts(call) },
            "getNewestPodcasts": { call in try await newest(call) },
            "getInternetRadioStations": { _ in try await stations() },
        ]
    }

    static func episode(_ view: CatalogueService.MediaView) -> SubsonicNode {
        var node = SubsonicEntry.song(view)
        node.set("streamId", SubsonicID.song(view.item.id).description)
        node.set("channelId", SubsonicID.album(view.item.parentID).description)
        node.set("description", view.item.description)
        node.set("status", "completed")
        node.set("publishDate", view.item.publishedAt)
        return node
    }

    func podcasts(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let withEpisodes = call.bool("includeEpisodes") ?? true
        var parents: [Parent]
        if call.value("id") != nil {
            guard case .album(let id) = try call.id() else {
                throw SubsonicError(.notFound, "There is no such podcast.")
            }
            parents = [try await catalogue.parent(id, kind: .podcast, for: user).parent]
        } else {
            parents = try await catalogue.parents(kind: .podcast, limit: Self.largest)
        }
        var channels: [SubsonicNode] = []
        for parent in parents {
            var node = SubsonicNode()
            node.set("id", SubsonicID.album(parent.id).description)
            node.set("url", parent.feedURL ?? "")
            node.set("title", parent.title)
            node.set("description", parent.description)
            if parent.hasCover { node.set("coverArt", SubsonicID.album(parent.id).description) }
            node.set("status", "completed")
            if withEpisodes {
                let view = try await catalogue.parent(parent.id, kind: .podcast, for: user)
                node.add("episode", list: view.items.filter { !$0.hidden }.map(Self.episode))
            }
            channels.append(node)
        }
        var node = SubsonicNode()
        node.add("channel", list: channels)
        return .answer("podcasts", node)
    }

    func newest(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let count = try call.int("count", default: 20, in: 1...Self.largest)
        // One query of the newest episodes, not every podcast's list.
        let episodes = try await catalogue.newest(.podcastEpisode, limit: count, for: user)
        var node = SubsonicNode()
        node.add("episode", list: episodes.map(Self.episode))
        return .answer("newestPodcasts", node)
    }

    func stations() async throws -> SubsonicReply {
        let base = configuration.resolvedBaseURL
        var node = SubsonicNode()
        node.add(
            "internetRadioStation",
            list: try await stations.stations().map { station in
                var entry = SubsonicNode()
                entry.set("id", String(station.id))
                entry.set("name", station.name)
                entry.set("streamUrl", base + RadioRoutes.prefix + station.mount)
                entry.set("homePageUrl", base + SiteRoutes.station.path(station.mount))
                return entry
            })
        return .answer("internetRadioStations", node)
    }
}
