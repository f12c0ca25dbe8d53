import Accounts
import Foundation
import Localization
import SQLKit
import Storage

/// What listening tells its listeners (issue 39): a liked podcast's new episodes, written in the
/// transaction that adds them.
struct ListenNotices: Sendable {
    let languages: Languages
    let timeZone: TimeZone
    let now: @Sendable () -> Date

    func newEpisodes(podcastID: Int64, podcast: String, episodes: [(id: Int64, title: String)], in db: any SQLDatabase)
        async throws
    {
        guard let first = episodes.first else { return }
        let likers = try await NotificationStore(db).likers(of: "podcast:\(podcastID)")
        try await write(
            to: likers, topic: .newEpisode, link: SiteRoutes.parent(.podcast).path(podcastID), in: db, now: now()
        ) { t in
            (
                t(
                    "New in “{podcast}”: {episode}", context: "notification",
                    ["podcast": podcast, "episode": first.title]),
                episodes.count > 1
                    ? t.plural("and {count} more episode", "and {count} more episodes", episodes.count - 1)
                    : "",
                "episodes:\(podcastID):\(first.id)"
            )
        }
    }

    private func write(
        to userIDs: [Int64], topic: NotificationTopic, link: String, in db: any SQLDatabase, now: Date,
        _ words: (Translator) -> (title: String, body: String, cause: String)
    ) async throws {
        try await NoticeWriter(languages: languages, timeZone: timeZone).write(
            to: userIDs, topic: topic, link: link, in: db, now: now, words)
    }
}

/// Writes one message to each of several users, in each one's language and by their settings.
struct NoticeWriter: Sendable {
    let languages: Languages
    let timeZone: TimeZone

    func write(
        to userIDs: [Int64], topic: NotificationTopic, link: String, in db: any SQLDatabase, now: Date,
        _ words: (Translator) -> (title: String, body: String, cause: String)
    ) async throws {
        try await write(to: userIDs, topic: topic, link: link, in: db, now: now) { t, _ in words(t) }
    }

    /// The same, with words made for each user (`replacing`: see `NewNotification.replaces`).
    func write(
        to userIDs: [Int64], topic: NotificationTopic, link: String, in db: any SQLDatabase, now: Date,
        replacing: String? = nil, _ words: (Translator, Int64) -> (title: String, body: String, cause: String)
    ) async throws {
        guard !userIDs.isEmpty else { return }
        let store = NotificationStore(db)
        let readers = try await store.readers(userIDs)
        let choices = try await store.choices(of: userIDs)
        let preferences = try await store.preferences(of: userIDs)
        for userID in userIDs {
            guard let reader = readers[userID] else { continue }
            let choice = choices[userID]?[topic] ?? topic.defaultChoice
            guard choice.any else { continue }
            let t = languages.translator(reader.language) ?? languages.choose(choice: nil, acceptLanguage: nil)
            let (title, body, cause) = words(t, userID)
            let timing = NotificationTiming(preferences: preferences[userID] ?? .init(), institution: timeZone)
            _ = try await store.write(
                NewNotification(
                    userID: userID, topic: topic, cause: cause, title: title, body: body, link: link, choice: choice,
                    dueAt: timing.release(now), digestAt: timing.digest(now), replaces: replacing),
                now: now)
        }
    }
}
