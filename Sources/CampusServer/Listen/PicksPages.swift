import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// The picks screen (seed 001's recommendation system, appendix Б.6): the listener checks the
/// genres and authors they like; the recommended playlist and the endless queue start from them.
/// The feed's banner block leads here.
struct PicksPages: Sendable {
    let feed: FeedService

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.listenPicks) { _, account in
            .page(ListenPicksPage(try await feed.picks(for: account.user)))
        }
        pages.form(SiteRoutes.listenPicks, PicksForm.self, save)
    }

    struct PicksForm: PageForm {
        var _csrf: String?
        var genres: [String]?
        var authors: [String]?
    }

    @Sendable func save(_ request: PageRequest, _ account: Authenticated, _ form: PicksForm) async throws
        -> PageAnswer
    {
        do {
            _ = try await feed.savePicks(
                genres: (form.genres ?? []).compactMap { Int64($0) },
                authors: (form.authors ?? []).compactMap { Int64($0) },
                for: account.user)
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return .redirect(SiteRoutes.listenPicks.path, flash: request.t.detail(refusal), kind: .error)
        }
        return .redirect(
            SiteRoutes.playlist.path(SystemPlaylist.recommended.rawValue),
            flash: request.t("Your picks are saved: here is what they recommend."))
    }
}

struct ListenPicksPage: PageModel {
    static let template = "listen-picks"
    static let section: SiteSection? = .listen

    struct Choice: Sendable {
        var id: Int64
        var name: String
        var picked: Bool
        var image: String?
    }

    var genres: [Choice]
    var authors: [Choice]
    var recommendedUrl = SiteRoutes.playlist.path(SystemPlaylist.recommended.rawValue)
    var empty: Bool

    init(_ picks: FeedService.Picks) {
        func choice(_ pick: FeedService.Pick) -> Choice {
            .init(
                id: pick.id, name: pick.name, picked: pick.picked,
                image: pick.picture?.images.thumbnail)
        }
        genres = picks.genres.map(choice)
        authors = picks.authors.map(choice)
        empty = genres.isEmpty && authors.isEmpty
    }
}
