import Accounts
import CampusHTTP
import Foundation
import Localization
import Storage

/// Friends in the browser: the friends page (requests, whom I follow, my followers) and a
/// participant's page (their results, following them), reached from every ranking. Every action
/// is a form post checked by ``FriendService``, as the API is.
struct FriendPages: Sendable {
    let friends: FriendService
    let compete: CompeteService
    let configuration: ServerConfiguration

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.friends, list)
        pages.signedInPage(SiteRoutes.person, person)
        action(SiteRoutes.followPerson, on: pages, back: { SiteRoutes.person.path($0) }) { id, user, t in
            let link = try await friends.follow(id, by: user)
            return link.acceptedAt == nil
                ? t("You asked to follow {name}. You follow them once they accept.", ["name": link.name])
                : t("You follow {name}.", ["name": link.name])
        }
        action(SiteRoutes.unfollowPerson, on: pages, back: { SiteRoutes.person.path($0) }) { id, user, t in
            try await friends.unfollow(id, by: user)
            return t("You no longer follow them.")
        }
        action(SiteRoutes.acceptFollower, on: pages, back: { _ in SiteRoutes.friends.path }) { id, user, t in
            let link = try await friends.accept(id, by: user)
            return t("{name} follows you now.", ["name": link.name])
        }
        action(SiteRoutes.removeFollower, on: pages, back: { _ in SiteRoutes.friends.path }) { id, user, t in
            try await friends.removeFollower(id, by: user)
            return t("They no longer follow you.")
        }
    }

    /// A form post on the follow with the account of the path, then `back` with the message it
    /// returns; a refusal (a limit, following oneself) comes back as a message too.
    private func action(
        _ route: Route<Int64>, on pages: PageRouter, back: @escaping @Sendable (Int64) -> String,
        _ body: @escaping @Sendable (Int64, Account, Translator) async throws -> String
    ) {
        pages.form(route, CSRFForm.self) { request, account, _ in
            let id = try request.id("userId")
            do {
                return .redirect(back(id), flash: try await body(id, account.user, request.t))
            } catch {
                guard let problem = Problem(describing: error), problem.status == .conflict else { throw error }
                return .redirect(back(id), flash: request.t.detail(problem), kind: .error)
            }
        }
    }

    @Sendable func list(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let lists = try await friends.lists(of: account.user)
        let zone = configuration.timeZone
        func rows(_ links: [FriendLink], accept: Bool = false, remove: Route<Int64>) -> [FriendRow] {
            links.map { link in
                FriendRow(
                    name: link.name, url: SiteRoutes.person.path(link.userID),
                    since: DateTimeField.text(link.acceptedAt ?? link.requestedAt, in: zone) ?? "",
                    acceptURL: accept ? SiteRoutes.acceptFollower.path(link.userID) : nil,
                    removeURL: remove.path(link.userID))
            }
        }
        return .page(
            FriendsPage(
                requests: rows(lists.requests, accept: true, remove: SiteRoutes.removeFollower),
                following: rows(lists.following, remove: SiteRoutes.unfollowPerson),
                followers: rows(lists.followers, remove: SiteRoutes.removeFollower),
                asked: rows(lists.asked, remove: SiteRoutes.unfollowPerson),
                noFollowing: lists.following.isEmpty && lists.asked.isEmpty, noFollowers: lists.followers.isEmpty,
                hasRequests: !lists.requests.isEmpty, hasAsked: !lists.asked.isEmpty))
    }

    @Sendable func person(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let id = try request.id("userId")
        let (name, mine, theirs) = try await friends.between(account.user, and: id)
        let text = CompeteText(t: request.t)
        let results = try await compete.results(of: id).map { item in
            let competition = item.row.competition
            return PersonPage.ResultRow(
                name: competition.name, url: SiteRoutes.competition.path(competition.id),
                result: item.row.myEntry?.result.map {
                    text.result($0, metric: competition.metric, unit: competition.unit)
                }, rank: item.rank, active: competition.isActive)
        }
        return .page(
            PersonPage(
                name: name, isMe: id == account.user.id, following: mine?.acceptedAt != nil,
                asked: mine != nil && mine?.acceptedAt == nil, followsMe: theirs?.acceptedAt != nil,
                asksMe: theirs != nil && theirs?.acceptedAt == nil, followURL: SiteRoutes.followPerson.path(id),
                unfollowURL: SiteRoutes.unfollowPerson.path(id), acceptURL: SiteRoutes.acceptFollower.path(id),
                removeURL: SiteRoutes.removeFollower.path(id), results: results, noResults: results.isEmpty))
    }
}
