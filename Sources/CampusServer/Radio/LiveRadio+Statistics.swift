import Accounts
import Foundation
import Listen
import Storage

/// Listener statistics (issue 42): each listener's session is kept when it ends and written with
/// the others of the last half second in one transaction (a thousand listeners leaving at once
/// are one write); the statistics are worked out from the sessions (``ListenerStatistics``).
/// Sessions still going when the process is killed are not written.
extension LiveRadio {
    /// A listener of `station` left after `seconds`: `listener` tells them apart from others (their
    /// account, else a hash of their address and player: nobody's address is kept).
    func listenerLeft(_ station: Station, listener: String, start: Date, seconds: TimeInterval) {
        let session = ListenerStatistics.Session(
            listener: listener, start: start, end: start.addingTimeInterval(seconds))
        endedSessions.withLockedValue { $0.append(.init(stationID: station.id, session: session)) }
    }

    /// The key that tells a listener apart: `user:ID` when signed in, else a hash of the address
    /// and the player.
    static func listenerKey(user: Account?, address: String, userAgent: String) -> String {
        if let user { return "user:\(user.id)" }
        return "anon:" + Token.hash(address + "|" + userAgent).prefix(32)
    }

    /// Writes the sessions that ended, each with the show that was on when it began.
    func writeSessions() async {
        let records = endedSessions.withLockedValue { sessions in
            defer { sessions = [] }
            return sessions
        }
        guard !records.isEmpty else { return }
        let calendar = autoDJ.calendar
        do {
            try await database.write { db in
                let store = RadioStore(db)
                var shows: [Int64: [RadioShow]] = [:]
                var written: [RadioStore.SessionRecord] = []
                for var record in records {
                    if shows[record.stationID] == nil {
                        shows[record.stationID] = try await store.shows(stationID: record.stationID)
                    }
                    record.session.showID =
                        shows[record.stationID]?.first { $0.isOn(record.session.start, calendar: calendar) }?.id
                    written.append(record)
                }
                try await store.recordSessions(written)
            }
        } catch {
            logger.warning(
                "cannot write listening sessions",
                metadata: ["sessions": "\(records.count)", "error": "\(ErrorLog.text(error))"])
        }
    }

    /// A station's statistics: now, each of the last `days` days, and each show.
    struct Statistics: Sendable {
        var current: Int
        var days: [(day: Date, figures: ListenerStatistics.Figures)]
        var total: ListenerStatistics.Figures
        var shows: [(show: RadioShow, figures: ListenerStatistics.Figures)]
    }

    func statistics(of station: Station, days: Int) async throws -> Statistics {
        let calendar = autoDJ.calendar
        let now = now()
        let start = calendar.date(byAdding: .day, value: -(days - 1), to: calendar.startOfDay(for: now)) ?? now
        let (sessions, shows) = try await database.read { db in
            let store = RadioStore(db)
            return (
                try await store.sessions(stationID: station.id, since: start),
                try await store.shows(stationID: station.id)
            )
        }
        let perShow = ListenerStatistics.shows(sessions)
        return Statistics(
            current: await status(of: station.mount).listeners,
            days: ListenerStatistics.days(sessions, days: days, until: now, calendar: calendar),
            total: ListenerStatistics.figures(sessions, from: start, to: now.addingTimeInterval(1)),
            shows: shows.map { ($0, perShow[$0.id] ?? .zero) })
    }
}
