import Accounts
import Foundation
import Listen
import Storage

/// Browsing: music folders, artists (by index), albums, songs, genres, and what Campus knows
/// about an artist or album.
struct SubsonicBrowsing: Sendable {
    let catalogue: CatalogueService
    let configuration: ServerConfiguration
    let links: LinkSigner

    var handlers: KeyValuePairs<String, SubsonicRoutes.Handler> {
        [
            "getIndexes": { call in try await indexes(call, id3: false) },
            "getArtists": { call in try await indexes(call, id3: true) },
            "getArtist": { call in try await artist(call) },
            "getMusicDirectory": { call in try await directory(call) },
            "getAlbum": { call in try await album(call) },
            "getSong": { call in try await song(call) },
            "getGenres": { _ in try await genres() },
            "getArtistInfo": { call in try await artistInfo(call, name: "artistInfo") },
            "getArtistInfo2": { call in try await artistInfo(call, name: "artistInfo2") },
            "getAlbumInfo": { call in try await albumInfo(call) },
            "getAlbumInfo2": { call in try await albumInfo(call) },
        ]
    }

    /// getIndexes and getArtists: every artist with albums in the folders asked for, by letter.
    func indexes(_ call: SubsonicCall, id3: Bool) async throws -> SubsonicReply {
        let user = try call.user
        let kinds = try SubsonicFolder.kinds(call)
        var node = SubsonicNode()
        node.set("ignoredArticles", "")
        if !id3 {
            let version = try await catalogue.catalogueVersion()
            let modified = version.updated * 1000
            node.set("lastModified", modified)
            if let since = try call.int("ifModifiedSince"), since >= modified {
                return .answer("indexes", node)
            }
        }
        let authors = try await catalogue.authors(kinds: kinds, for: user)
        let starred = try await catalogue.likeDates(authors.map { .author($0.author.id) }, for: user)
        node.add("index", list: SubsonicEntry.index(authors, starred: starred))
        return .answer(id3 ? "artists" : "indexes", node)
    }

    private func authorID(_ call: SubsonicCall) throws -> Int64 {
        guard case .artist(let id) = try call.id() else { throw SubsonicError(.notFound, "There is no such artist.") }
        return id
    }

    private func parentID(_ call: SubsonicCall) throws -> Int64 {
        switch try call.id() {
        case .album(let id): return id
        default: throw SubsonicError(.notFound, "There is no such album.")
        }
    }

    /// The parents of an author that players browse (podcasts have their own methods), not hidden.
    private func albums(of view: CatalogueService.AuthorView, for user: Account) async throws -> [Parent] {
        let browsed = Set(SubsonicFolder.allCases.map(\.kind))
        let parents = view.parents.filter { browsed.contains($0.kind) }
        return try await catalogue.unhidden(parents, for: user)
    }

    func artist(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let view = try await catalogue.author(try authorID(call), for: user)
        let parents = try await albums(of: view, for: user)
        let starred = try await catalogue.likeDates(
            [.author(view.author.id)] + parents.map { .parent($0.kind, $0.id) }, for: user)
        var node = SubsonicEntry.artist(
            view.author, albumCount: parents.count, starred: starred[.author(view.author.id)])
        node.add("album", list: parents.map { SubsonicEntry.album($0, starred: starred[.parent($0.kind, $0.id)]) })
        return .answer("artist", node)
    }

    func directory(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        switch try call.id() {
        case .artist(let id):
            let view = try await catalogue.author(id, for: user)
            let parents = try await albums(of: view, for: user)
            let starred = try await catalogue.likeDates(parents.map { .parent($0.kind, $0.id) }, for: user)
            var node = SubsonicNode()
            node.set("id", SubsonicID.artist(id).description)
            node.set("name", view.author.name)
            node.add(
                "child", list: parents.map { SubsonicEntry.directory($0, starred: starred[.parent($0.kind, $0.id)]) })
            return .answer("directory", node)
        case .album(let id):
            let view = try await catalogue.parent(id, kind: nil, for: user)
            let items = view.items.filter { !$0.hidden }
            let starred = try await catalogue.likeDates(items.map { .media($0.item.id) }, for: user)
            var node = SubsonicNode()
            node.set("id", SubsonicID.album(id).description)
            node.set("parent", view.parent.author.map { SubsonicID.artist($0.id).description })
            node.set("name", view.parent.title)
            node.add("child", list: items.map { SubsonicEntry.song($0, starred: starred[.media($0.item.id)]) })
            return .answer("directory", node)
        default:
            throw SubsonicError(.notFound, "There is no such directory.")
        }
    }

    func album(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let view = try await catalogue.parent(try parentID(call), kind: nil, for: user)
        let items = view.items.filter { !$0.hidden }
        let reference = Reference.parent(view.parent.kind, view.parent.id)
        let starred = try await catalogue.likeDates([reference] + items.map { .media($0.item.id) }, for: user)
        var node = SubsonicEntry.album(view.parent, starred: starred[reference], rating: view.rating.mine)
        node.add("song", list: items.map { SubsonicEntry.song($0, starred: starred[.media($0.item.id)]) })
        return .answer("album", node)
    }

    func song(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        guard case .song(let id) = try call.id() else { throw SubsonicError(.notFound, "There is no such song.") }
        let view = try await catalogue.media(id, for: user)
        let starred = try await catalogue.likeDates([.media(id)], for: user)
        return .answer("song", SubsonicEntry.song(view, starred: starred[.media(id)]))
    }

    func genres() async throws -> SubsonicReply {
        var node = SubsonicNode()
        node.add(
            "genre",
            list: try await catalogue.genreCounts().map { genre, items, parents in
                var entry = SubsonicNode()
                entry.set("songCount", items)
                entry.set("albumCount", parents)
                entry.text = genre.name
                return entry
            })
        return .answer("genres", node)
    }

    /// Campus keeps no biographies or similar artists: the answer is empty, as Subsonic allows.
    func artistInfo(_ call: SubsonicCall, name: String) async throws -> SubsonicReply {
        let user = try call.user
        _ = try await catalogue.author(try authorID(call), for: user)
        return .answer(name, SubsonicNode())
    }

    /// An album's description and cover images (addresses that open without signing in).
    func albumInfo(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let view = try await catalogue.parent(try parentID(call), kind: nil, for: user)
        var node = SubsonicNode()
        if !view.parent.description.isEmpty { node.set("notes", view.parent.description) }
        if view.parent.hasCover {
            let base = configuration.resolvedBaseURL
            let key = links.key(for: "cover:\(view.parent.id)")
            func url(_ size: ImageSize) -> String {
                base + APIRoutes.cover.path(view.parent.id, size.rawValue, query: [("key", key)])
            }
            node.set("smallImageUrl", url(.thumbnail))
            node.set("mediumImageUrl", url(.medium))
            node.set("largeImageUrl", url(.large))
        }
        return .answer("albumInfo", node)
    }
}
