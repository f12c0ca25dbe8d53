import Foundation
import Listen
import SQLKit
import SharedHelpers

/// Stations' listening sessions, for their statistics (issue 42).
extension RadioStore {
    /// A session as written: its station, who, when, and the show on when it began.
    public struct SessionRecord: Sendable {
        public var stationID: Int64
        public var session: ListenerStatistics.Session

        public init(stationID: Int64, session: ListenerStatistics.Session) {
            self.stationID = stationID
            self.session = session
        }
    }

    /// Writes ended sessions (many at once: one statement per 200).
    public func recordSessions(_ records: [SessionRecord]) async throws {
        for chunk in records.chunked(200) {
            var insert = db.insert(into: "radio_listener_sessions")
                .columns("station_id", "show_id", "listener", "started_at", "ended_at")
            for record in chunk {
                insert = insert.values(
                    SQLBind(record.stationID), SQLBind(record.session.showID), SQLBind(record.session.listener),
                    SQLBind(record.session.start.epoch), SQLBind(record.session.end.epoch))
            }
            try await insert.run()
        }
    }

    /// The station's sessions that were on at some time from `since` on.
    public func sessions(stationID: Int64, since: Date) async throws -> [ListenerStatistics.Session] {
        try await db.select().columns("listener", "started_at", "ended_at", "show_id").from("radio_listener_sessions")
            .where("station_id", .equal, stationID).where("ended_at", .greaterThanOrEqual, since.epoch)
            .orderBy("started_at").all()
            .map { row in
                ListenerStatistics.Session(
                    listener: try row.decode(column: "listener", as: String.self),
                    start: Date(epoch: try row.decode(column: "started_at", as: Int64.self)),
                    end: Date(epoch: try row.decode(column: "ended_at", as: Int64.self)),
                    showID: try row.decode(column: "show_id", as: Int64?.self))
            }
    }
}
