/// A person on the friends page, with the forms that act on the follow.
struct FriendRow: Sendable {
    var name: String
    var url: String
    /// When the follow was asked for or accepted, for reading.
    var since: String
    /// A form post that accepts the request (requests only).
    var acceptURL: String?
    /// A form post that ends the follow or the request.
    var removeURL: String
}

/// Whom the user follows, who follows them, and the requests both ways.
struct FriendsPage: PageModel {
    static let template = "compete-friends"
    static let section: SiteSection? = .compete

    var requests: [FriendRow]
    var following: [FriendRow]
    var followers: [FriendRow]
    var asked: [FriendRow]
    var noFollowing: Bool
    var noFollowers: Bool
    var hasRequests: Bool
    var hasAsked: Bool
}

/// Another participant: their results, and following them.
struct PersonPage: PageModel {
    static let template = "compete-person"
    static let section: SiteSection? = .compete

    /// One of their competitions.
    struct ResultRow: Sendable {
        var name: String
        var url: String
        var result: String?
        var rank: Int?
        var active: Bool
    }

    var name: String
    /// The viewer themselves: no following.
    var isMe: Bool
    var following: Bool
    var asked: Bool
    /// They follow the viewer, or asked to.
    var followsMe: Bool
    var asksMe: Bool
    var followURL: String
    var unfollowURL: String
    var acceptURL: String
    var removeURL: String
    var results: [ResultRow]
    var noResults: Bool
}
