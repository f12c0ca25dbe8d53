import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// Listening in the browser: the home feed, browsing, search and detail pages with deep links
/// (`/albums/{id}`, `/albums/{id}/{item}`, …). Playback is the player in the layout (campus.js),
/// which keeps playing while the listener moves between pages. Playlists, the library, marks and
/// comments, and settings have pages of their own (``PlaylistPages``, ``LibraryPages``,
/// ``ReactionPages``, ``ListenSettingsPages``).
struct ListenPages: Sendable {
    let catalogue: CatalogueService
    let feed: FeedService
    let homeFeed: HomeFeed
    let shared: SharedPages

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.listen) { request, account in
            .page(ListenHomePage(genre: nil, blocks: try await feed(for: account.user, genre: nil, request.t)))
        }
        pages.signedInPage(SiteRoutes.genre) { request, account in
            let genre = try await catalogue.genre(try request.id())
            return .page(
                ListenHomePage(genre: genre.name, blocks: try await feed(for: account.user, genre: genre.id, request.t))
            )
        }
        pages.signedInPage(SiteRoutes.listenSearch) { request, account in
            try await search(request.text("q"), for: account.user, request.t)
        }
        pages.signedInPage(SiteRoutes.liked) { _, account in
            let items = try await catalogue.likes(for: account.user)
            let listening = try await feed.listening(for: account.user).map(ParentTile.init)
            return .page(
                ListenLikedPage(
                    mediaItems: items.map { MediaRow($0, showParent: true) }, empty: items.isEmpty,
                    listening: listening, hasListening: !listening.isEmpty))
        }
        for kind in ParentKind.allCases {
            pages.signedInPage(SiteRoutes.browse(kind)) { request, _ in
                let parents = try await catalogue.parents(kind: kind, limit: 500)
                return .page(
                    ListenBrowsePage(
                        title: ListenText.title(kind, request.t), parents: parents.map(ParentTile.init),
                        empty: parents.isEmpty))
            }
            // Shared links (SharedPages): anyone may open them; a visitor without an account sees
            // a preview.
            pages.page(SiteRoutes.parent(kind)) { request in
                try await parent(request.id(), kind: kind, selected: nil, request)
            }
            pages.page(SiteRoutes.parentItem(kind)) { request in
                try await parent(request.id(), kind: kind, selected: request.id("item"), request)
            }
        }
        pages.page(SiteRoutes.author, author)
        pages.signedInPage(SiteRoutes.media) { request, account in
            .redirect(try await catalogue.media(request.id(), for: account.user).api.url)
        }
    }

    private func feed(for user: Account, genre: Int64?, _ t: Translator) async throws -> [ListenHomePage.Block] {
        try await homeFeed.blocks(for: user, genre: genre).map { block in
            let title = HomeFeed.title(of: block, t)
            let image = block.type == .background ? block.image?.large : block.image?.original
            let imageLink = [.ad, .banner].contains(block.type) ? block.items.first?.url : nil
            return .init(
                type: block.type.rawValue, title: title, hasTitle: !title.isEmpty,
                highlight: block.highlight.map { HomeFeed.defaultTitle($0, t) ?? $0 } ?? "",
                hasHighlight: block.highlight != nil,
                blockDescription: block.description.map { HomeFeed.defaultTitle($0, t) ?? $0 } ?? "",
                hasDescription: block.description != nil, blockImage: image ?? "", hasImage: image != nil,
                imageLink: imageLink ?? "", hasImageLink: imageLink != nil,
                imageAlt: title.isEmpty ? t("Advertisement", context: "feed block type") : title,
                titleUrl: block.titleURL ?? "", hasTitleLink: block.titleURL != nil,
                titleImage: block.titleImages?.thumbnail ?? "", hasTitleImage: block.titleImages != nil,
                hasMore: block.hasMore, moreUrl: block.moreURL ?? "",
                items: block.items.map { item in
                    let station =
                        item.kind == "station"
                        ? StationsPage.Station.playable(
                            name: item.title, mount: item.id, detail: item.subtitle ?? "", image: item.images?.medium)
                        : nil
                    let system = item.kind == "playlist" ? SystemPlaylist(rawValue: item.id) : nil
                    let summary = system.map { ListenText.summary($0, t) } ?? item.description
                    return .init(
                        title: system.map { ListenText.title($0, t) } ?? HomeFeed.defaultTitle(item.title, t)
                            ?? item.title,
                        url: item.url, ref: item.ref, subtitle: item.subtitle ?? "",
                        playable: !["genre", "link", "station"].contains(item.kind),
                        cover: item.images?.medium ?? "", hasCover: item.images != nil,
                        duration: item.duration.map(ListenText.duration), summary: summary ?? "",
                        hasSummary: summary != nil, context: item.context ?? "", hasContext: item.context != nil,
                        number: item.number ?? 0, hasNumber: item.number != nil, station: station)
                })
        }
    }

    private func search(_ query: String?, for user: Account, _ t: Translator) async throws -> PageAnswer {
        var hits: [ListenSearchPage.Hit] = []
        if let query {
            hits = try await catalogue.search(query, limit: 100, for: user).map { hit in
                let api = hit.api
                var station: StationsPage.Station?
                if case .station(let mount) = hit.kind {
                    station = .playable(name: hit.title, mount: mount, detail: hit.subtitle ?? "", image: nil)
                }
                return .init(
                    title: api.title, subtitle: api.subtitle ?? "", url: api.url, ref: api.ref,
                    kind: Self.badge(hit.kind, t), station: station)
            }
        }
        return .page(ListenSearchPage(q: query ?? "", hits: hits, empty: query != nil && hits.isEmpty))
    }

    /// A search hit's kind, as its badge says it.
    static func badge(_ kind: SearchHit.Kind, _ t: Translator) -> String {
        switch kind {
        case .author: t("author", context: "kind")
        case .parent(let parent): ListenText.badge(parent, t)
        case .media(let media): ListenText.badge(media, t)
        case .station: t("radio station", context: "kind")
        }
    }

    private func parent(_ id: Int64, kind: ParentKind, selected: Int64?, _ request: PageRequest) async throws
        -> PageAnswer
    {
        let t = request.t
        let shared = shared
        guard let user = request.visitor.user else {
            return try await shared.parent(id, kind: kind, selected: selected, path: request.request.uri.path, t)
        }
        let view = try await catalogue.parent(id, kind: kind, for: user)
        if let selected, !view.items.contains(where: { $0.item.id == selected }) {
            throw Refusal.notFound("There is no such item in “{title}”.", ["title": view.parent.title])
        }
        let parent = view.parent
        let tile = ParentTile(parent)
        let chosen = view.items.first { $0.item.id == selected }
        return .page(
            ListenParentPage(
                id: id, title: parent.title, kind: ListenText.badge(parent.kind, t), ref: tile.ref,
                items: parent.itemCount,
                duration: tile.duration, author: tile.author, authorUrl: tile.authorUrl,
                description: parent.description.isEmpty ? nil : parent.description, year: parent.year.map(String.init),
                genre: parent.genre?.name, genreUrl: parent.genre.map { SiteRoutes.genre.path($0.id) },
                large: parent.hasCover ? CoverURL.path(parentID: id, size: .large, version: parent.updatedAt) : nil,
                liked: view.liked, hidden: view.hidden,
                mediaItems: view.items.map { item in
                    var row = MediaRow(item, showParent: false)
                    row.selected = item.item.id == selected
                    return row
                },
                noItems: view.items.isEmpty,
                rating: .init(
                    average: view.rating.average.map { String(format: "%.1f", $0) } ?? "", count: view.rating.count,
                    none: view.rating.count == 0,
                    stars: RatingSummary.stars.map {
                        .init(value: $0, mine: $0 == view.rating.mine, lit: $0 <= (view.rating.mine ?? 0))
                    }),
                ratingURL: SiteRoutes.rating.path(id),
                selectedRef: chosen?.api.ref ?? "",
                selected: chosen.map { .init($0, context: tile.ref) },
                rssUrl: view.rssPath, share: shared.share(parent, item: chosen?.item, t),
                reportUrl: ReportPages.url(target: tile.ref, back: SiteRoutes.parent(kind).path(id)),
                comments: try await catalogue.comments(on: id, for: user).map { comment, canDelete in
                    .init(
                        id: comment.id, author: comment.authorName, body: comment.body,
                        date: ListenText.day(comment.createdAt), canDelete: canDelete,
                        deleteURL: SiteRoutes.deleteComment.path(comment.id))
                }))
    }

    @Sendable func author(_ request: PageRequest) async throws -> PageAnswer {
        let shared = shared
        guard let user = request.visitor.user else {
            return try await shared.author(try request.id(), path: request.request.uri.path, request.t)
        }
        let view = try await catalogue.author(try request.id(), for: user)
        return .page(
            ListenAuthorPage(
                name: view.author.name, title: view.author.name, ref: "author:\(view.author.id)", liked: view.liked,
                hidden: view.hidden, parents: view.parents.map(ParentTile.init),
                mediaItems: view.items.map { MediaRow($0, showParent: true) },
                share: shared.share(view.author, parents: view.parents, request.t)))
    }
}
