import Accounts
import Foundation
import Localization
import SQLKit
import SharedHelpers

/// What friends are told (issue 41), written in the transaction of the change that causes it:
/// that somebody asks to follow them, that their request was accepted, and a followed friend's
/// new result. Each in the reader's language, by their settings.
struct FriendNotices: Sendable {
    let languages: Languages
    let timeZone: TimeZone

    /// Tells the account that the user asks to follow them: once a day at most, however often
    /// the request is taken back and sent again.
    func asked(by user: Account, to userID: Int64, in db: any SQLDatabase, now: Date) async throws {
        try await writer.write(
            to: [userID], topic: .friends, link: SiteRoutes.friends.path, in: db, now: now
        ) { t in
            (
                t("{name} asks to follow you", context: "notification", ["name": user.fullName]),
                t("Followers see your results in their friends' rankings.", context: "notification"),
                "follow:\(user.id):\(userID):\(now.epoch / 86_400)"
            )
        }
    }

    /// Tells the follower that the user accepted their request (once a day at most).
    func accepted(by user: Account, follower: Int64, in db: any SQLDatabase, now: Date) async throws {
        try await writer.write(
            to: [follower], topic: .friends, link: SiteRoutes.person.path(user.id), in: db, now: now
        ) { t in
            (
                t("{name} accepted your request", context: "notification", ["name": user.fullName]),
                t("You follow {name} now.", context: "notification", ["name": user.fullName]),
                "accepted:\(follower):\(user.id):\(now.epoch / 86_400)"
            )
        }
    }

    private var writer: NoticeWriter { NoticeWriter(languages: languages, timeZone: timeZone) }
}
