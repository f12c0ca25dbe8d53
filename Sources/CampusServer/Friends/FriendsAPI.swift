import CampusAPI
import Foundation
import Storage

/// `/api/v1/me/friends`, `/api/v1/me/following/{userId}` and `/api/v1/me/followers/{userId}`:
/// the signed-in user's follows (``FriendService``).
extension APIHandler {
    var friends: FriendService { services.friends }

    func listFriends(_ input: Operations.listFriends.Input) async throws -> Operations.listFriends.Output {
        let lists = try await friends.lists(of: try await requireUser().user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        following: lists.following.map(\.api), followers: lists.followers.map(\.api),
                        requests: lists.requests.map(\.api), asked: lists.asked.map(\.api)))))
    }

    func followUser(_ input: Operations.followUser.Input) async throws -> Operations.followUser.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await friends.follow(input.path.userId, by: user).api)))
    }

    func unfollowUser(_ input: Operations.unfollowUser.Input) async throws -> Operations.unfollowUser.Output {
        try await friends.unfollow(input.path.userId, by: try await requireUser().user)
        return .noContent(.init())
    }

    func acceptFollower(_ input: Operations.acceptFollower.Input) async throws -> Operations.acceptFollower.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await friends.accept(input.path.userId, by: user).api)))
    }

    func removeFollower(_ input: Operations.removeFollower.Input) async throws -> Operations.removeFollower.Output {
        try await friends.removeFollower(input.path.userId, by: try await requireUser().user)
        return .noContent(.init())
    }
}

extension FriendLink {
    var api: Components.Schemas.Friend {
        .init(id: userID, name: name, requestedAt: requestedAt, acceptedAt: acceptedAt)
    }
}
