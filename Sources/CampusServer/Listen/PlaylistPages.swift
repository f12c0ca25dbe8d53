import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// The listener's playlists: the ones Campus makes (recently played, …) and their own, which
/// they create, rename, fill, order and delete.
struct PlaylistPages: Sendable {
    let playlists: PlaylistService
    let shared: SharedPages

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.playlists, playlists)
        pages.form(SiteRoutes.playlists, PlaylistForm.self, create)
        pages.page(SiteRoutes.playlist, playlist)
        pages.form(SiteRoutes.playlist, PlaylistForm.self, change)
    }

    @Sendable func playlists(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let lists = try await playlists.playlists(for: account.user).map { listed in
            let count = listed.count
            if let playlist = listed.playlist {
                return PlaylistsPage.Item(
                    name: playlist.name, url: SiteRoutes.playlist.path(String(playlist.id)), count: count,
                    kind: ListenText.name(playlist.kind, request.t), ref: "playlist:\(playlist.id)", system: false)
            }
            let system = listed.system ?? .recentlyPlayed
            return PlaylistsPage.Item(
                name: ListenText.title(system, request.t), url: SiteRoutes.playlist.path(system.rawValue), count: count,
                kind: "",
                ref: system.rawValue, system: true)
        }
        return .page(
            PlaylistsPage(
                playlists: lists,
                mediaKinds: MediaKind.allCases.map { .init(value: $0.rawValue, name: ListenText.name($0, request.t)) }
            ))
    }

    struct PlaylistForm: PageForm {
        var _csrf: String?
        var name: String?
        var kind: String?
        var action: String?
        var item: Int64?
        var back: String?
    }

    @Sendable func create(_ request: PageRequest, _ account: Authenticated, _ form: PlaylistForm) async throws
        -> PageAnswer
    {
        guard let kind = form.kind.flatMap(MediaKind.init(rawValue:)) else {
            return .redirect(
                SiteRoutes.playlists.path, flash: request.t("Choose what the playlist holds."), kind: .error)
        }
        do {
            let created = try await playlists.createPlaylist(name: form.name, kind: kind, for: account.user)
            if let item = form.item {
                _ = try await playlists.updatePlaylist(created.id, name: nil, items: [item], for: account.user)
            }
            return .redirect(
                SiteRoutes.playlist.path(created.id),
                flash: request.t("Playlist “{name}” created.", ["name": created.name]))
        } catch let refusal as Refusal where [.invalid, .conflict].contains(refusal.reason) {
            return .redirect(SiteRoutes.playlists.path, flash: request.t.detail(refusal), kind: .error)
        }
    }

    /// A playlist: the owner's to change, a public one (by link) for anyone to read — a visitor
    /// without an account sees it as ``SharedPages`` shows shared links; any other playlist sends
    /// such a visitor to log in.
    @Sendable func playlist(_ request: PageRequest) async throws -> PageAnswer {
        let id = try request.parameter("id")
        let shared = shared
        guard let account = request.visitor.account else {
            let path = request.request.uri.path
            do {
                return shared.playlist(try await playlists.playlist(id, for: nil), path: path, request.t)
            } catch let refusal as Refusal where refusal.reason == .notFound {
                throw Redirect(to: SiteRoutes.login.path(query: [("next", path)]))
            }
        }
        let view = try await playlists.playlist(id, for: account.user)
        let query = request.text("q")
        var addable: [MediaRow] = []
        if !view.isSystem && view.mine {
            addable = try await playlists.addable(id, query: query, for: account.user).prefix(30).map {
                MediaRow($0, showParent: true)
            }
        }
        let count = view.items.count
        return .page(
            PlaylistPage(
                name: view.isSystem
                    ? SystemPlaylist(rawValue: view.id).map { ListenText.title($0, request.t) } ?? view.name
                    : view.name,
                kind: ListenText.name(view.kind, request.t), system: view.isSystem,
                playlistRef: view.isSystem ? view.id : "playlist:\(view.id)",
                playlistURL: SiteRoutes.playlist.path(view.id),
                mediaItems: view.items.enumerated().map { place, item in
                    var row = MediaRow(item, showParent: true)
                    row.first = place == 0
                    row.last = place == count - 1
                    return row
                },
                empty: view.items.isEmpty, q: query, addable: addable, noAddable: addable.isEmpty, mine: view.mine,
                isPublic: view.isPublic, share: view.isPublic ? shared.share(view, request.t) : nil))
    }

    /// Renames, deletes, makes public or private, or adds, removes and moves one item (`action`:
    /// rename, delete, public, private, add, remove, up, down).
    @Sendable func change(_ request: PageRequest, _ account: Authenticated, _ form: PlaylistForm) async throws
        -> PageAnswer
    {
        let id = try request.parameter("id")
        let here = SiteRoutes.playlist.path(id)
        let back = SignInPages.safeNext(form.back ?? here)
        do {
            switch form.action {
            case "delete":
                try await playlists.deletePlaylist(id, for: account.user)
                return .redirect(SiteRoutes.playlists.path, flash: request.t("The playlist is deleted."))
            case "rename":
                _ = try await playlists.updatePlaylist(id, name: form.name ?? "", items: nil, for: account.user)
                return .redirect(here, flash: request.t("Renamed."))
            case "public", "private":
                _ = try await playlists.updatePlaylist(
                    id, name: nil, items: nil, isPublic: form.action == "public", for: account.user)
                return .redirect(
                    here,
                    flash: form.action == "public"
                        ? request.t("Anyone with the link can now see this playlist.")
                        : request.t("Only you can see this playlist now."))
            case "add", "remove", "up", "down":
                guard let item = form.item else {
                    throw Refusal.invalid(FieldProblem(field: "item", detail: "Say which item."))
                }
                var items = try await playlists.playlist(id, for: account.user).items.map(\.item.id)
                let index = items.firstIndex(of: item)
                switch (form.action, index) {
                case ("add", nil): items.append(item)
                case ("add", _?): return .redirect(back, flash: request.t("It is in the playlist already."))
                case ("remove", let index?): items.remove(at: index)
                case ("up", let index?) where index > 0: items.swapAt(index, index - 1)
                case ("down", let index?) where index < items.count - 1: items.swapAt(index, index + 1)
                default: break
                }
                _ = try await playlists.updatePlaylist(id, name: nil, items: items, for: account.user)
                return .redirect(back, flash: form.action == "add" ? "Added to the playlist." : nil)
            default:
                throw Refusal.malformed("Unknown playlist action.")
            }
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return .redirect(back, flash: request.t.detail(refusal), kind: .error)
        }
    }
}

struct PlaylistsPage: PageModel {
    static let template = "listen-playlists"
    static let section: SiteSection? = .listen

    struct Item: Sendable {
        var name: String
        var url: String
        var count: Int
        var kind: String
        var ref: String
        var system: Bool
    }

    struct Kind: Sendable {
        var value: String
        var name: String
    }

    var playlists: [Item]
    var mediaKinds: [Kind]
}

struct PlaylistPage: PageModel {
    static let template = "listen-playlist"
    static let section: SiteSection? = .listen

    var name: String
    var kind: String
    var system: Bool
    var playlistRef: String
    var playlistURL: String
    var mediaItems: [MediaRow]
    var empty: Bool
    var q: String?
    var addable: [MediaRow]
    var noAddable: Bool
    /// The owner's; someone else's public playlist is read-only.
    var mine: Bool
    var isPublic: Bool
    /// Only a public playlist is shared (nil otherwise).
    var share: SharePreview?
}
