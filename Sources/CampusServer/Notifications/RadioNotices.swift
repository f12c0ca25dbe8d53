import Accounts
import Foundation
import Listen
import Localization
import SQLKit
import Storage

/// What the radio tells its listeners (issue 39): a station they like went on the air. Once per
/// station in two hours, so that a source that drops and comes back, or moves to another
/// instance, does not say it again.
struct RadioNotices: Sendable {
    let languages: Languages
    let timeZone: TimeZone

    /// How long after telling that a station went on the air it tells nobody again.
    static let quiet: TimeInterval = 2 * 60 * 60

    func wentOnAir(_ station: Station, in db: any SQLDatabase, now: Date) async throws {
        let store = RadioStore(db)
        guard try await store.claimOnAirNotice(stationID: station.id, now: now, quiet: Self.quiet) else { return }
        let likers = try await store.likers(stationID: station.id)
        try await NoticeWriter(languages: languages, timeZone: timeZone).write(
            to: likers, topic: .stationOnAir, link: SiteRoutes.station.path(station.mount), in: db, now: now
        ) { t in
            (
                t("“{name}” is on the air", context: "notification", ["name": station.name]),
                t("Listen live.", context: "notification"),
                "onair:\(station.id):\(now.milliseconds)"
            )
        }
    }
}
