import Accounts
import Compete
import Foundation
import Localization
import SQLKit
import Storage

/// What a competition tells its participants (issue 39), written in the transaction of the change
/// that causes it: that it was deactivated or activated again, and that a participant's result was
/// entered, corrected or cleared. Each in the reader's language, by their settings.
struct CompetitionNotices: Sendable {
    let languages: Languages
    let timeZone: TimeZone

    /// Tells every participant that the competition was deactivated or activated.
    func activeChanged(_ competition: Competition, active: Bool, in db: any SQLDatabase, now: Date) async throws {
        let participants = try await CompeteStore(db).rankingEntries(competitionID: competition.id).map(\.participantID)
        let link = SiteRoutes.competition.path(competition.id)
        try await write(to: participants, topic: .competitionStatus, link: link, in: db, now: now) { t in
            (
                active
                    ? t("“{name}” is active again", context: "notification", ["name": competition.name])
                    : t("“{name}” was deactivated", context: "notification", ["name": competition.name]),
                active
                    ? t("Results can be entered again.", context: "notification")
                    : t("Its results cannot change until its organizer activates it again.", context: "notification"),
                "competition:\(competition.id):\(active ? "on" : "off"):\(now.milliseconds)"
            )
        }
    }

    /// Tells a participant their result now.
    func resultChanged(
        _ competition: Competition, participant: Int64, result: Double?, version: Int64, in db: any SQLDatabase,
        now: Date
    ) async throws {
        let link = SiteRoutes.competition.path(competition.id)
        try await write(to: [participant], topic: .resultEntered, link: link, in: db, now: now) { t in
            let text = CompeteText(t: t)
            return (
                t("Your result in “{name}”", context: "notification", ["name": competition.name]),
                result.map { text.result($0, metric: competition.metric, unit: competition.unit) }
                    ?? t("Your result was cleared.", context: "notification"),
                "result:\(competition.id):\(participant):\(version)"
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
