import CampusHTTP
import Foundation
import InputRules
import Listen
import Localization

/// Seed 001 §3.8, "every entity can be shared": what a shared link of a parent, an item, an
/// author or a public playlist shows. A signed-in listener gets the usual page, with a share
/// button; a visitor without an account (a friend who was sent the link, or the messenger that
/// fetches it for its preview) gets ``ListenPreviewPage``: the cover, the names and the list,
/// with the Open Graph and Twitter card tags, and a way to log in to listen. Streams stay for
/// accounts only; covers open by their signed link, as the RSS feeds' do.
struct SharedPages: Sendable {
    let catalogue: CatalogueService
    let configuration: ServerConfiguration
    var baseURL: String { configuration.resolvedBaseURL }

    // MARK: What a messenger shows

    func share(_ parent: Parent, item: MediaItem? = nil, _ t: Translator) -> SharePreview {
        let byline = [parent.author?.name, ListenText.badge(parent.kind, t)].compactMap(\.self)
            .joined(separator: " · ")
        if let item {
            return SharePreview(
                baseURL: baseURL, path: SiteRoutes.parentItem(parent.kind).path(parent.id, item.id),
                title: item.title, description: "\(parent.title) · \(byline)",
                type: item.kind == .track ? "music.song" : "website", imagePath: coverPath(parent),
                audioPath: APIRoutes.mediaStream.path(item.id), siteName: "Campus")
        }
        return SharePreview(
            baseURL: baseURL, path: SiteRoutes.parent(parent.kind).path(parent.id), title: parent.title,
            description: parent.description.isEmpty ? byline : parent.description,
            type: parent.kind == .album ? "music.album" : parent.kind == .audiobook ? "book" : "website",
            imagePath: coverPath(parent), siteName: "Campus")
    }

    func share(_ author: Author, parents: [Parent], _ t: Translator) -> SharePreview {
        SharePreview(
            baseURL: baseURL, path: SiteRoutes.author.path(author.id), title: author.name,
            description: parents.prefix(5).map(\.title).joined(separator: " · "), type: "profile",
            imagePath: parents.lazy.compactMap(coverPath).first, siteName: "Campus")
    }

    func share(_ playlist: PlaylistService.PlaylistView, _ t: Translator) -> SharePreview {
        SharePreview(
            baseURL: baseURL, path: SiteRoutes.playlist.path(playlist.id), title: playlist.name,
            description: t.plural("{count} item", "{count} items", playlist.items.count), type: "music.playlist",
            siteName: "Campus")
    }

    /// A large cover that opens without a login (signed as the RSS feeds sign theirs).
    private func coverPath(_ parent: Parent) -> String? {
        guard parent.hasCover else { return nil }
        return APIRoutes.cover.path(
            parent.id, ImageSize.large.rawValue,
            query: [("v", String(parent.updatedAt.epoch)), ("key", catalogue.links.key(for: "cover:\(parent.id)"))])
    }

    // MARK: Pages for a visitor without an account

    func parent(_ id: Int64, kind: ParentKind, selected: Int64?, path: String, _ t: Translator) async throws
        -> PageAnswer
    {
        let view = try await catalogue.parent(id, kind: kind, for: nil)
        let item = view.items.first { $0.item.id == selected }?.item
        if selected != nil, item == nil {
            throw Refusal.notFound("There is no such item in “{title}”.", ["title": view.parent.title])
        }
        let parent = view.parent
        let share = share(parent, item: item, t)
        return .page(
            ListenPreviewPage(
                title: parent.title, kind: ListenText.badge(parent.kind, t),
                byline: [parent.author?.name, parent.year.map(String.init)].compactMap(\.self).joined(separator: " · "),
                description: parent.description, image: coverPath(parent) ?? "", sharedItem: item?.title ?? "",
                rows: view.items.map { view in
                    .init(
                        name: view.item.title, detail: ListenText.duration(view.item.duration),
                        current: view.item.id == selected)
                },
                loginUrl: SiteRoutes.login.path(query: [("next", path)]), share: share))
    }

    func author(_ id: Int64, path: String, _ t: Translator) async throws -> PageAnswer {
        let view = try await catalogue.author(id, for: nil)
        let share = share(view.author, parents: view.parents, t)
        return .page(
            ListenPreviewPage(
                title: view.author.name, kind: t("author", context: "kind"), byline: "", description: "",
                image: view.parents.lazy.compactMap(coverPath).first ?? "", sharedItem: "",
                rows: view.parents.map { .init(name: $0.title, detail: ListenText.badge($0.kind, t), current: false) },
                loginUrl: SiteRoutes.login.path(query: [("next", path)]), share: share))
    }

    func playlist(_ view: PlaylistService.PlaylistView, path: String, _ t: Translator) -> PageAnswer {
        .page(
            ListenPreviewPage(
                title: view.name, kind: t("playlist", context: "kind"), byline: ListenText.name(view.kind, t),
                description: "", image: "", sharedItem: "",
                rows: view.items.map { view in
                    .init(
                        name: [view.item.author?.name, view.item.title].compactMap(\.self).joined(separator: " — "),
                        detail: ListenText.duration(view.item.duration), current: false)
                },
                loginUrl: SiteRoutes.login.path(query: [("next", path)]), share: share(view, t)))
    }
}

/// A shared link as a visitor without an account sees it.
struct ListenPreviewPage: PageModel {
    static let template = "listen-preview"
    static let section: SiteSection? = .listen

    struct Row: Sendable {
        var name: String
        var detail: String
        /// The item the link was shared for.
        var current: Bool
    }

    var title: String
    /// The badge: album, podcast, author, playlist …
    var kind: String
    var byline: String
    var description: String
    /// The cover's path, "" without one.
    var image: String
    /// The title of the item the link names, "" for a parent's own link.
    var sharedItem: String
    var rows: [Row]
    var loginUrl: String
    var share: SharePreview
    // Which of the texts there are (Mustache shows "" as it shows any text).
    var hasByline: Bool
    var hasDescription: Bool
    var hasImage: Bool
    var hasSharedItem: Bool

    init(
        title: String, kind: String, byline: String, description: String, image: String, sharedItem: String,
        rows: [Row], loginUrl: String, share: SharePreview
    ) {
        self.title = title
        self.kind = kind
        self.byline = byline
        self.description = description
        self.image = image
        self.sharedItem = sharedItem
        self.rows = rows
        self.loginUrl = loginUrl
        self.share = share
        hasByline = !byline.isEmpty
        hasDescription = !description.isEmpty
        hasImage = !image.isEmpty
        hasSharedItem = !sharedItem.isEmpty
    }
}
