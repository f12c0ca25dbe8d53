import Foundation
import Logging
import SQLKit

/// A competition's results changed: which, and the version they are at now. With PostgreSQL
/// every write that raises a competition's `results_version` says so with a `NOTIFY` in its
/// transaction (delivered to every instance when it commits), so that live rankings elsewhere
/// follow within milliseconds rather than at their next poll (issue 38). SQLite has one
/// instance: its live rankings are told by the service that wrote, and poll for the command line.
public struct ResultsChange: Sendable, Equatable {
    public var competitionID: Int64
    public var version: Int64

    static let channel = "campus_results"

    /// Tells of the versions of these competitions, as they are in the transaction `db` is in.
    static func announce(competitionIDs: [Int64], in db: any SQLDatabase) async throws {
        guard db.dialect.name == "postgresql", !competitionIDs.isEmpty else { return }
        let list = competitionIDs.map(String.init).joined(separator: ",")
        try await db.raw(
            """
            SELECT pg_notify(\(bind: channel), string_agg(id || ':' || results_version, ','))
            FROM competitions WHERE id IN (\(unsafeRaw: list))
            """
        ).run()
    }

    /// The changes a payload (`id:version,…`) names.
    static func parse(_ payload: String) -> [ResultsChange] {
        payload.split(separator: ",").compactMap { part in
            let fields = part.split(separator: ":")
            guard fields.count == 2, let id = Int64(fields[0]), let version = Int64(fields[1]) else { return nil }
            return ResultsChange(competitionID: id, version: version)
        }
    }
}

extension Database {
    /// Hears the results changes every instance makes until the task is cancelled (PostgreSQL:
    /// `LISTEN` on a connection of its own, again a second after it is lost); with SQLite it
    /// returns at once. `following` is told each time it listens again: changes before may have
    /// been missed.
    public func followResultsChanges(
        following: @escaping @Sendable () -> Void, _ heard: @escaping @Sendable ([ResultsChange]) -> Void
    ) async {
        await followNotifications(ResultsChange.channel, following: following) { heard(ResultsChange.parse($0)) }
    }
}
