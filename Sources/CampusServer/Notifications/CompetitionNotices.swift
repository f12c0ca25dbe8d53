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

    /// What a result's change is measured against: the competition's entries and the best
    /// results of its series' runs, read in the change's transaction before it.
    struct Standing: Sendable {
        var entries: [Entry]
        var seriesBest: [ResultRecord]
    }

    func standing(of competition: Competition, in db: any SQLDatabase) async throws -> Standing {
        let store = CompeteStore(db)
        return Standing(
            entries: try await store.rankingEntries(competitionID: competition.id),
            seriesBest: try await store.bestResults(seriesID: competition.seriesID))
    }

    /// Tells a participant their result now; the others whose place it moved, their new place;
    /// and, when it beat the best result of the series' earlier runs, the competition's
    /// participants and the record's holders. A newer place or record replaces an unread older
    /// one.
    func resultChanged(
        _ competition: Competition, participant: Int64, result: Double?, version: Int64, before: Standing,
        in db: any SQLDatabase, now: Date
    ) async throws {
        let link = SiteRoutes.competition.path(competition.id)
        let after = try await CompeteStore(db).rankingEntries(competitionID: competition.id)
        let name = after.first { $0.participantID == participant }?.participantName ?? ""
        try await write(to: [participant], topic: .resultEntered, link: link, in: db, now: now) { t in
            let text = CompeteText(t: t)
            return (
                t("Your result in “{name}”", context: "notification", ["name": competition.name]),
                result.map { text.result($0, metric: competition.metric, unit: competition.unit) }
                    ?? t("Your result was cleared.", context: "notification"),
                "result:\(competition.id):\(participant):\(version)"
            )
        }
        if let result, !name.isEmpty {
            try await friendResult(
                competition, participant: participant, name: name, result: result, version: version, after, db, now)
        }
        let places = Self.places(before.entries, competition.ranksBy)
        let moved = Self.places(after, competition.ranksBy).filter { other, place in
            other != participant && places[other].map { $0 != place } ?? false
        }
        try await writer.write(
            to: moved.keys.sorted(), topic: .rankChanged, link: link, in: db, now: now,
            replacing: "rank:\(competition.id):"
        ) { t, userID in
            let text = CompeteText(t: t)
            let was = ["was": String(places[userID] ?? 0)]
            return (
                t(
                    "Your place in “{name}” is now {place}", context: "notification",
                    ["name": competition.name, "place": String(moved[userID] ?? 0)]),
                result.map {
                    t(
                        "It was {was}. {participant}: {result}.", context: "notification",
                        was.merging(
                            [
                                "participant": name,
                                "result": text.result($0, metric: competition.metric, unit: competition.unit),
                            ]
                        ) { a, _ in a })
                } ?? t("It was {was}.", context: "notification", was),
                "rank:\(competition.id):\(version)"
            )
        }
        guard let result, let record = Self.record(before: before, in: competition), !name.isEmpty,
            competition.ranksBy.isBetter(result, than: record.value)
        else { return }
        let told = Set(after.map(\.participantID)).union(record.holders.map(\.participantID))
        try await writer.write(
            to: told.sorted(), topic: .recordBroken, link: link, in: db, now: now,
            replacing: "record:\(competition.seriesID):"
        ) { t, _ in
            let text = CompeteText(t: t)
            return (
                t(
                    "A record in “{name}”: {result}", context: "notification",
                    ["name": competition.name, "result": text.result(result, metric: record.metric, unit: record.unit)]),
                t(
                    "The record is now {participant}'s; it was {record} ({holder}).", context: "notification",
                    [
                        "participant": name,
                        "record": text.result(record.value, metric: record.metric, unit: record.unit),
                        "holder": record.holders.map(\.participantName).joined(separator: ", "),
                    ]),
                "record:\(competition.seriesID):\(version)"
            )
        }
    }

    /// Tells the participant's followers their new result and place; a newer one replaces an
    /// unread older one of the same competition.
    private func friendResult(
        _ competition: Competition, participant: Int64, name: String, result: Double, version: Int64,
        _ after: [Entry], _ db: any SQLDatabase, _ now: Date
    ) async throws {
        let followers = try await FriendStore(db).followerIDs(of: participant)
        let place = Self.places(after, competition.ranksBy)[participant]
        try await writer.write(
            to: followers, topic: .friendResult, link: SiteRoutes.competition.path(competition.id), in: db, now: now,
            replacing: "friend:\(competition.id):\(participant):"
        ) { t, _ in
            let text = CompeteText(t: t)
            return (
                t(
                    "{participant}: {result} in “{name}”", context: "notification",
                    [
                        "participant": name, "name": competition.name,
                        "result": text.result(result, metric: competition.metric, unit: competition.unit),
                    ]),
                place.map {
                    t(
                        "Place {place} of {count}.", context: "notification",
                        ["place": String($0), "count": String(after.count)])
                } ?? "",
                "friend:\(competition.id):\(participant):\(version)"
            )
        }
    }

    /// Each ranked participant's place (equal results share one).
    static func places(_ entries: [Entry], _ metric: Metric) -> [Int64: Int] {
        var places: [Int64: Int] = [:]
        for ranked in Ranking.rank(entries, by: metric) {
            if let rank = ranked.rank { places[ranked.entry.participantID] = rank }
        }
        return places
    }

    /// The record a result must beat to be news: the best of the series' earlier runs and of this
    /// competition so far, in the competition's metric and unit; nil while no earlier run has a
    /// result (the first run's best is no broken record).
    static func record(before: Standing, in competition: Competition) -> Record? {
        let comparable = before.seriesBest.filter {
            $0.competitionID != competition.id && $0.metric == competition.metric && $0.unit == competition.unit
        }
        guard !comparable.isEmpty else { return nil }
        return Records.best(comparable + before.entries.compactMap { ResultRecord($0, in: competition) })
    }

    private func write(
        to userIDs: [Int64], topic: NotificationTopic, link: String, in db: any SQLDatabase, now: Date,
        _ words: (Translator) -> (title: String, body: String, cause: String)
    ) async throws {
        try await writer.write(to: userIDs, topic: topic, link: link, in: db, now: now, words)
    }

    private var writer: NoticeWriter { NoticeWriter(languages: languages, timeZone: timeZone) }
}
