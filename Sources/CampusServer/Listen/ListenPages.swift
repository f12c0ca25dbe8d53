import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import Listen
import MultipartKit
import NIOCore
import SharedHelpers
import Storage

/// Listening in the browser: the home feed, browsing, search, detail pages with deep links
/// (`/albums/{id}`, `/albums/{id}/{trackId}`, …), playlists, likes and settings. Playback is the
/// player in the layout (campus.js), which keeps playing while the listener moves between pages.
/// Every change is a form post checked by ``ListenService``, as the API is.
struct ListenPages: Sendable {
    let pages: WebPages
    var services: Services { pages.services }
    var listen: ListenService { services.listen }

    func register(on routes: PageRoutes) {
        routes.get("/listen", home)
        routes.get("/listen/search", search)
        routes.get("/listen/genres/:id", genre)
        routes.get("/listen/liked", liked)
        routes.get("/listen/settings", settingsPage)
        routes.post("/listen/settings", saveSettings)
        routes.get("/listen/playlists", playlists)
        routes.post("/listen/playlists", createPlaylist)
        routes.get("/listen/playlists/:id", playlist)
        routes.post("/listen/playlists/:id", changePlaylist)
        routes.post("/listen/marks", mark)
        routes.post("/listen/ratings/:id", rate)
        for kind in ParentKind.allCases {
            routes.get("/listen\(kind.path)") { request, _ in try await browse(request, kind) }
            routes.get("\(kind.path)/:id") { request, context in try await parent(request, context, kind) }
            routes.get("\(kind.path)/:id/:item") { request, context in try await parent(request, context, kind) }
        }
        routes.get("/authors/:id", author)
        routes.get("/listen/library", libraryPage)
        routes.post("/listen/library/scan", scan)
        routes.post("/listen/library/podcast", addPodcast)
        routes.post("/listen/library/upload", bodyLimit: ListenService.uploadLimit + (64 << 10), upload)
        routes.post("/listen/library/feed", changeFeed)
        routes.post("/listen/comments", addComment)
        routes.post("/listen/comments/:id/delete", deleteComment)
        routes.get("/media/:id") { request, context in
            let (visitor, account) = try await pages.signedIn(request)
            let view = try await listen.media(try Self.id(context, "id"), for: account.user)
            return pages.redirect(to: view.api.url, for: visitor)
        }
    }

    // MARK: Values

    static func id(_ context: CampusRequestContext, _ name: String) throws -> Int64 {
        guard let id = context.parameters.get(name, as: Int64.self), id > 0 else {
            throw Problem.notFound("There is no such page.")
        }
        return id
    }

    /// 3:07, or 1:02:03 for an hour or more.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let secondsText = rest < 10 ? "0\(rest)" : "\(rest)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(secondsText)" }
        return "\(minutes):\(secondsText)"
    }

    static func mediaValues(_ view: ListenService.MediaView, place: Int? = nil) -> [String: Any] {
        let api = view.api
        var values: [String: Any] = [
            "id": view.item.id, "title": view.item.title, "ref": api.ref,
            "parentRef": "\(view.item.kind.parent.rawValue):\(view.item.parentID)",
            "parentTitle": view.item.parentTitle, "parentUrl": "\(view.item.kind.parent.path)/\(view.item.parentID)",
            "duration": duration(view.item.duration), "url": api.url, "liked": view.liked, "hidden": view.hidden,
            "explicit": view.item.isExplicit, "number": view.item.number > 0 ? String(view.item.number) : "",
            "spoken": view.item.kind.isSpoken, "streamUrl": view.streamURL,
        ]
        if let author = view.item.author {
            values["author"] = author.name
            values["authorUrl"] = "/authors/\(author.id)"
        }
        if let thumbnail = api.images?.thumbnail { values["thumbnail"] = thumbnail }
        if let position = view.resumePosition { values["resume"] = duration(position) }
        if let published = view.item.publishedAt {
            values["published"] = published.formatted(.iso8601.year().month().day())
        }
        if let place { values["place"] = place }
        return values
    }

    static func parentValues(_ parent: Parent) -> [String: Any] {
        let api = parent.api
        var values: [String: Any] = [
            "id": parent.id, "title": parent.title, "kind": parent.kind.rawValue, "ref": api.ref, "url": api.url,
            "items": parent.itemCount, "duration": duration(parent.duration),
        ]
        if let author = parent.author {
            values["author"] = author.name
            values["authorUrl"] = "/authors/\(author.id)"
        }
        if let images = api.images {
            values["medium"] = images.medium
            values["thumbnail"] = images.thumbnail
        }
        return values
    }

    static func kindTitle(_ kind: ParentKind) -> String {
        switch kind {
        case .album: "Albums"
        case .podcast: "Podcasts"
        case .audiobook: "Audiobooks"
        case .programme: "Lectures and programmes"
        }
    }

    static func kindName(_ kind: MediaKind) -> String {
        switch kind {
        case .track: "Tracks"
        case .podcastEpisode: "Podcast episodes"
        case .audiobookChapter: "Audiobook chapters"
        case .programmeEpisode: "Programme episodes"
        }
    }

    private func render(
        _ template: String, _ values: [String: Any], _ visitor: WebPages.Visitor, path: String
    ) async throws -> Response {
        var values = values
        values["back"] = path
        values["kinds"] = ParentKind.allCases.map { ["title": Self.kindTitle($0), "url": "/listen\($0.path)"] }
        return try await pages.render(template, values, for: visitor, section: "listen")
    }

    // MARK: Pages

    @Sendable func home(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let feed = try await HomeFeed(services: services).feed(for: account.user, genre: nil)
        return try await render("listen", ["blocks": feedValues(feed)], visitor, path: request.uri.path)
    }

    @Sendable func genre(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let id = try Self.id(context, "id")
        let genres = try await services.database.read { db in try await ListenStore(db).genres() }
        guard let genre = genres.first(where: { $0.id == id }) else {
            throw Problem.notFound("There is no such genre.")
        }
        let feed = try await HomeFeed(services: services).feed(for: account.user, genre: id)
        return try await render(
            "listen", ["blocks": feedValues(feed), "genre": genre.name], visitor, path: request.uri.path)
    }

    private func feedValues(_ feed: HomeFeed.Feed) -> [[String: Any]] {
        feed.blocks.map { block in
            [
                "type": block.type.rawValue, "title": block.title, "highlight": block.highlight,
                "hasMore": block.hasMore, "moreUrl": block.moreURL ?? "",
                "items": block.items.map { item -> [String: Any] in
                    var values: [String: Any] = [
                        "title": item.title, "url": item.url, "ref": item.ref, "subtitle": item.subtitle ?? "",
                        "playable": item.kind != "genre" && item.kind != "link",
                    ]
                    if let images = item.images { values["image"] = images.medium }
                    if let duration = item.duration { values["duration"] = Self.duration(duration) }
                    return values
                },
            ]
        }
    }

    @Sendable func search(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, _) = try await pages.signedIn(request)
        let query = TimetablePages.parameter(request, "q")
        var hits: [[String: Any]] = []
        if let query {
            hits = try await listen.search(query, limit: 100).map { hit in
                let api = hit.api
                return [
                    "title": api.title, "subtitle": api.subtitle ?? "", "url": api.url, "ref": api.ref,
                    "kind": api.kind.rawValue.replacingOccurrences(of: "_", with: " "),
                ]
            }
        }
        return try await render(
            "listen-search",
            ["q": query ?? "", "hits": hits, "searched": query != nil, "empty": query != nil && hits.isEmpty],
            visitor, path: request.uri.path)
    }

    func browse(_ request: Request, _ kind: ParentKind) async throws -> Response {
        let (visitor, _) = try await pages.signedIn(request)
        let parents = try await services.database.read { db in
            try await ListenStore(db).parents(kind: kind, limit: 500)
        }
        return try await render(
            "listen-browse",
            ["title": Self.kindTitle(kind), "parents": parents.map(Self.parentValues), "empty": parents.isEmpty],
            visitor, path: request.uri.path)
    }

    func parent(_ request: Request, _ context: CampusRequestContext, _ kind: ParentKind) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let id = try Self.id(context, "id")
        let selected = context.parameters.get("item", as: Int64.self)
        let view = try await listen.parent(id, kind: kind, for: account.user)
        if let selected, !view.items.contains(where: { $0.item.id == selected }) {
            throw Problem.notFound("There is no such item in “\(view.parent.title)”.")
        }
        var values = Self.parentValues(view.parent)
        values["description"] = view.parent.description
        values["year"] = view.parent.year.map(String.init) ?? ""
        values["genre"] = view.parent.genre?.name ?? ""
        values["genreUrl"] = view.parent.genre.map { "/listen/genres/\($0.id)" } ?? ""
        values["large"] =
            view.parent.hasCover ? CoverURL.images(parentID: id, version: view.parent.updatedAt).large : ""
        values["liked"] = view.liked
        values["hidden"] = view.hidden
        values["mediaItems"] = view.items.map { item -> [String: Any] in
            var values = Self.mediaValues(item)
            values["selected"] = item.item.id == selected
            return values
        }
        values["noItems"] = view.items.isEmpty
        values["rating"] =
            [
                "average": view.rating.average.map { String(format: "%.1f", $0) } ?? "",
                "count": view.rating.count, "none": view.rating.count == 0,
                "stars": RatingSummary.stars.map { ["value": $0, "mine": $0 == view.rating.mine] },
            ] as [String: Any]
        values["selectedRef"] = view.items.first { $0.item.id == selected }?.api.ref ?? ""
        values["rssUrl"] = view.rssPath ?? ""
        values["comments"] = try await listen.comments(on: id, for: account.user).map { comment, canDelete in
            [
                "id": comment.id, "author": comment.authorName, "body": comment.body, "canDelete": canDelete,
                "date": comment.createdAt.formatted(.iso8601.year().month().day()),
            ] as [String: Any]
        }
        return try await render("listen-parent", values, visitor, path: request.uri.path)
    }

    @Sendable func author(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let view = try await listen.author(try Self.id(context, "id"), for: account.user)
        return try await render(
            "listen-author",
            [
                "id": view.author.id, "name": view.author.name, "title": view.author.name,
                "ref": "author:\(view.author.id)",
                "liked": view.liked, "hidden": view.hidden, "parents": view.parents.map(Self.parentValues),
                "mediaItems": view.items.map { Self.mediaValues($0) },
            ], visitor, path: request.uri.path)
    }

    @Sendable func liked(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let items = try await listen.likes(for: account.user)
        return try await render(
            "listen-liked", ["mediaItems": items.map { Self.mediaValues($0) }, "empty": items.isEmpty], visitor,
            path: request.uri.path)
    }

    // MARK: Playlists

    @Sendable func playlists(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let lists = try await listen.playlists(for: account.user).map { playlist, system, count -> [String: Any] in
            if let playlist {
                return [
                    "name": playlist.name, "url": "/listen/playlists/\(playlist.id)", "count": count,
                    "kind": Self.kindName(playlist.kind), "ref": "playlist:\(playlist.id)",
                ]
            }
            let system = system ?? .recentlyPlayed
            return [
                "name": system.title, "url": "/listen/playlists/\(system.rawValue)", "count": count, "system": true,
                "ref": system.rawValue,
            ]
        }
        return try await render(
            "listen-playlists",
            [
                "playlists": lists,
                "mediaKinds": MediaKind.allCases.map { ["value": $0.rawValue, "name": Self.kindName($0)] },
            ], visitor, path: request.uri.path)
    }

    struct PlaylistForm: Decodable {
        var _csrf: String?
        var name: String?
        var kind: String?
        var action: String?
        var item: Int64?
        var back: String?
    }

    @Sendable func createPlaylist(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(PlaylistForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        guard let kind = form.kind.flatMap(MediaKind.init(rawValue:)) else {
            return pages.redirect(
                to: "/listen/playlists", flash: "Choose what the playlist holds.", kind: "error", for: visitor)
        }
        do {
            let created = try await listen.createPlaylist(name: form.name, kind: kind, for: account.user)
            if let item = form.item {
                _ = try await listen.updatePlaylist(created.id, name: nil, items: [item], for: account.user)
            }
            return pages.redirect(
                to: "/listen/playlists/\(created.id)", flash: "Playlist “\(created.name)” created.", for: visitor)
        } catch let problem as Problem where problem.status == .unprocessableContent {
            return pages.redirect(to: "/listen/playlists", flash: problem.detail, kind: "error", for: visitor)
        }
    }

    @Sendable func playlist(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let id = context.parameters.get("id") ?? ""
        let view = try await listen.playlist(id, for: account.user)
        let query = TimetablePages.parameter(request, "q")
        var addable: [[String: Any]] = []
        if !view.isSystem {
            addable = try await listen.addable(id, query: query, for: account.user).prefix(30).map {
                Self.mediaValues($0)
            }
        }
        let count = view.items.count
        return try await render(
            "listen-playlist",
            [
                "playlistId": view.id, "name": view.name, "system": view.isSystem, "kind": Self.kindName(view.kind),
                "playlistRef": view.isSystem ? view.id : "playlist:\(view.id)",
                "mediaItems": view.items.enumerated().map { place, item in
                    var values = Self.mediaValues(item, place: place)
                    values["first"] = place == 0
                    values["last"] = place == count - 1
                    return values
                },
                "empty": view.items.isEmpty, "addable": addable, "q": query ?? "",
                "noAddable": addable.isEmpty,
            ], visitor, path: request.uri.path)
    }

    /// Renames, deletes, or adds, removes and moves one item (`action`: rename, delete, add,
    /// remove, up, down).
    @Sendable func changePlaylist(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(PlaylistForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let id = context.parameters.get("id") ?? ""
        let here = "/listen/playlists/\(id)"
        let back = WebPages.safeNext(form.back ?? here)
        do {
            switch form.action {
            case "delete":
                try await listen.deletePlaylist(id, for: account.user)
                return pages.redirect(to: "/listen/playlists", flash: "The playlist is deleted.", for: visitor)
            case "rename":
                _ = try await listen.updatePlaylist(id, name: form.name ?? "", items: nil, for: account.user)
                return pages.redirect(to: here, flash: "Renamed.", for: visitor)
            case "add", "remove", "up", "down":
                guard let item = form.item else { throw Problem.badRequest("Say which item.") }
                var items = try await listen.playlist(id, for: account.user).items.map(\.item.id)
                let index = items.firstIndex(of: item)
                switch (form.action, index) {
                case ("add", nil): items.append(item)
                case ("add", _?): return pages.redirect(to: back, flash: "It is in the playlist already.", for: visitor)
                case ("remove", let index?): items.remove(at: index)
                case ("up", let index?) where index > 0: items.swapAt(index, index - 1)
                case ("down", let index?) where index < items.count - 1: items.swapAt(index, index + 1)
                default: break
                }
                _ = try await listen.updatePlaylist(id, name: nil, items: items, for: account.user)
                return pages.redirect(
                    to: back, flash: form.action == "add" ? "Added to the playlist." : nil, for: visitor)
            default:
                throw Problem.badRequest("Unknown playlist action.")
            }
        } catch let problem as Problem where problem.status == .unprocessableContent {
            return pages.redirect(to: back, flash: problem.detail, kind: "error", for: visitor)
        }
    }

    // MARK: The library (admins)

    private func admin(_ request: Request) async throws -> (WebPages.Visitor, Authenticated) {
        let (visitor, account) = try await pages.signedIn(request)
        guard account.user.role == .admin else { throw Problem.forbidden("Only admins manage the media library.") }
        return (visitor, account)
    }

    @Sendable func libraryPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, _) = try await admin(request)
        let count = try await services.database.read { db in try await ListenStore(db).mediaCount() }
        let (configured, blocks) = try await listen.feedBlocks()
        return try await render(
            "listen-library",
            [
                "count": count, "configured": configured,
                "blocks": blocks.enumerated().map { index, block in
                    [
                        "index": index, "type": block.type.rawValue, "title": block.title, "source": block.source,
                        "limit": block.limit, "highlight": block.highlight, "link": block.link ?? "",
                        "first": index == 0, "last": index == blocks.count - 1,
                    ] as [String: Any]
                },
                "types": FeedBlockConfiguration.BlockType.allCases.map(\.rawValue),
            ], visitor, path: request.uri.path)
    }

    struct LibraryForm: Decodable {
        var _csrf: String?
        var folder: String?
        var url: String?
    }

    @Sendable func scan(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, _) = try await admin(request)
        let form = try await pages.form(LibraryForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        do {
            let summary = try await listen.scan(String((form.folder ?? "").prefix(1000)))
            return pages.redirect(to: "/listen/library", flash: "Scanned: \(summary.description).", for: visitor)
        } catch let problem as Problem where problem.status == .unprocessableContent {
            return pages.redirect(to: "/listen/library", flash: problem.detail, kind: "error", for: visitor)
        }
    }

    @Sendable func addPodcast(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, _) = try await admin(request)
        let form = try await pages.form(LibraryForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let url = (form.url ?? "").trimmingCharacters(in: .whitespaces)
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.count <= 2000 else {
            return pages.redirect(
                to: "/listen/library", flash: "Give the feed's http(s) address.", kind: "error", for: visitor)
        }
        do {
            let summary = try await listen.importPodcast(url)
            return pages.redirect(
                to: "/podcasts/\(summary.podcastID)",
                flash: "Imported “\(summary.title)”: \(summary.added) new episodes, \(summary.updated) updated.",
                for: visitor)
        } catch let problem as Problem where problem.status == .unprocessableContent {
            return pages.redirect(to: "/listen/library", flash: problem.detail, kind: "error", for: visitor)
        }
    }

    struct UploadForm: Decodable {
        var _csrf: String?
        var folder: String?
        var file: UploadedFile?
    }

    /// A file field of a multipart form, with its part's headers (for the file name).
    struct UploadedFile: Decodable, MultipartPartConvertible {
        var part: MultipartPart
        var multipart: MultipartPart? { part }
        init?(multipart: MultipartPart) { part = multipart }
        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Not a file."))
        }
    }

    @Sendable func upload(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await admin(request)
        guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType]) else {
            throw Problem.unsupportedMediaType("Upload the file with a multipart/form-data form.")
        }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let form: UploadForm
        do {
            form = try MultipartForm.decode(UploadForm.self, from: buffer, boundary: boundary)
        } catch {
            throw Problem.badRequest(error.detail)
        }
        try pages.checkCSRF(form._csrf, visitor: visitor)
        guard let part = form.file?.part, part.body.readableBytes > 0,
            let name = MultipartForm.fileName(contentDisposition: part.headers.first(name: "Content-Disposition"))
        else {
            return pages.redirect(
                to: "/listen/library", flash: "Choose an audio file first.", kind: "error", for: visitor)
        }
        do {
            let bytes = [UInt8](buffer: part.body)
            let view = try await listen.upload(
                [bytes[...]].async, name: name, folder: form.folder.flatMap { $0.isEmpty ? nil : $0 }, for: account.user
            )
            return pages.redirect(to: view.api.url, flash: "“\(view.item.title)” is in the library.", for: visitor)
        } catch let problem as Problem where problem.status == .unprocessableContent {
            return pages.redirect(to: "/listen/library", flash: problem.detail, kind: "error", for: visitor)
        }
    }

    struct FeedForm: Decodable {
        var _csrf: String?
        var action: String
        var index: Int?
        var type: String?
        var title: String?
        var source: String?
        var limit: Int?
        var highlight: String?
        var link: String?
    }

    /// Adds, removes or moves one block of the home feed, or returns to the default feed.
    @Sendable func changeFeed(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await admin(request)
        let form = try await pages.form(FeedForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        var blocks = try await listen.feedBlocks().blocks
        let index = form.index ?? -1
        switch form.action {
        case "reset": blocks = []
        case "add":
            blocks.append(
                FeedBlockConfiguration(
                    type: form.type.flatMap(FeedBlockConfiguration.BlockType.init(rawValue:)) ?? .listSquare,
                    title: form.title ?? "", highlight: form.highlight != nil, source: form.source ?? "",
                    limit: form.limit ?? 8, link: form.link.flatMap { $0.isEmpty ? nil : $0 }))
        case "remove" where blocks.indices.contains(index): blocks.remove(at: index)
        case "up" where index > 0 && blocks.indices.contains(index): blocks.swapAt(index, index - 1)
        case "down" where blocks.indices.contains(index + 1) && index >= 0: blocks.swapAt(index, index + 1)
        default: throw Problem.badRequest("Unknown feed action.")
        }
        do {
            _ = try await listen.saveFeedBlocks(blocks, by: account.user)
        } catch let problem as Problem where problem.status == .unprocessableContent {
            return pages.redirect(to: "/listen/library", flash: problem.detail, kind: "error", for: visitor)
        }
        return pages.redirect(to: "/listen/library", flash: "The home feed is changed.", for: visitor)
    }

    struct CommentForm: Decodable {
        var _csrf: String?
        var parentId: Int64?
        var body: String?
        var back: String?
    }

    @Sendable func addComment(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(CommentForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let back = WebPages.safeNext(form.back)
        do {
            _ = try await listen.comment(on: form.parentId ?? 0, form.body ?? "", by: account.user)
        } catch let problem as Problem where problem.status == .unprocessableContent {
            return pages.redirect(to: back, flash: problem.detail, kind: "error", for: visitor)
        }
        return pages.redirect(to: back, flash: "Your comment is posted.", for: visitor)
    }

    @Sendable func deleteComment(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(CommentForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        _ = try await listen.deleteComment(try Self.id(context, "id"), by: account.user)
        return pages.redirect(to: WebPages.safeNext(form.back), flash: "The comment is deleted.", for: visitor)
    }

    // MARK: Marks, ratings, settings

    struct MarkForm: Decodable {
        var _csrf: String?
        var target: String
        var mark: String?
        var back: String?
    }

    @Sendable func mark(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(MarkForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let target = try ListenService.reference(form.target, field: "target")
        let mark = form.mark.flatMap(ListenStore.Mark.init(rawValue:))
        try await listen.mark(target, mark, for: account.user)
        let message =
            switch mark {
            case .like: "Liked."
            case .hide: "Hidden: the player skips it."
            case nil: "Done."
            }
        return pages.redirect(to: WebPages.safeNext(form.back), flash: message, for: visitor)
    }

    struct RatingForm: Decodable {
        var _csrf: String?
        var stars: Int
        var back: String?
    }

    @Sendable func rate(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(RatingForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        _ = try await listen.rate(try Self.id(context, "id"), stars: form.stars, for: account.user)
        return pages.redirect(to: WebPages.safeNext(form.back), flash: "Thanks for rating.", for: visitor)
    }

    @Sendable func settingsPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let settings = try await listen.settings(for: account.user)
        let qualities: [(ListenSettings.SoundQuality, String)] = [
            (.original, "Original files"), (.high, "High (MP3 192 kbit/s)"), (.normal, "Normal (MP3 128 kbit/s)"),
            (.low, "Low, saves data (MP3 64 kbit/s)"),
        ]
        return try await render(
            "listen-settings",
            [
                "qualities": qualities.map {
                    ["value": $0.0.rawValue, "name": $0.1, "selected": $0.0 == settings.soundQuality]
                },
                "endlessQueue": settings.endlessQueue, "skipExplicit": settings.skipExplicit,
                "radioRegion": settings.radioRegion,
            ], visitor, path: request.uri.path)
    }

    struct SettingsForm: Decodable {
        var _csrf: String?
        var soundQuality: String?
        var endlessQueue: String?
        var skipExplicit: String?
        var radioRegion: String?
    }

    @Sendable func saveSettings(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(SettingsForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let settings = ListenSettings(
            soundQuality: form.soundQuality.flatMap(ListenSettings.SoundQuality.init(rawValue:)) ?? .original,
            endlessQueue: form.endlessQueue != nil, skipExplicit: form.skipExplicit != nil,
            radioRegion: form.radioRegion ?? "")
        do {
            _ = try await listen.saveSettings(settings, for: account.user)
        } catch let problem as Problem where problem.status == .unprocessableContent {
            return pages.redirect(to: "/listen/settings", flash: problem.detail, kind: "error", for: visitor)
        }
        return pages.redirect(to: "/listen/settings", flash: "Settings saved.", for: visitor)
    }
}
