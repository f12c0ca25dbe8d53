import Foundation
import SQLKit
import SharedHelpers

/// The instances that say they are running (`instances`), for the admin overview.
extension JobStore {
    /// One server instance: its name (host, process, a random part), when it started, when it
    /// last said it was there.
    public struct Instance: Sendable, Equatable {
        public var name: String
        public var startedAt: Date
        public var seenAt: Date
    }

    /// The instance is there at `now`; instances not seen since `forgetBefore` are forgotten.
    public func seen(_ name: String, startedAt: Date, at now: Date, forgetBefore: Date) async throws {
        try await db.insert(into: "instances").columns("name", "started_at", "seen_at")
            .values(SQLBind(name), SQLBind(startedAt.milliseconds), SQLBind(now.milliseconds))
            .onConflict(with: ["name"]) { $0.set("seen_at", to: now.milliseconds) }.run()
        try await db.delete(from: "instances").where("seen_at", .lessThan, forgetBefore.milliseconds).run()
    }

    /// The instances seen since `since`, longest running first.
    public func instances(seenSince since: Date) async throws -> [Instance] {
        try await db.select().columns("name", "started_at", "seen_at").from("instances")
            .where("seen_at", .greaterThanOrEqual, since.milliseconds).orderBy("started_at").orderBy("name").all().map {
                Instance(
                    name: try $0.decode(column: "name", as: String.self),
                    startedAt: Date(milliseconds: try $0.decode(column: "started_at", as: Int64.self)),
                    seenAt: Date(milliseconds: try $0.decode(column: "seen_at", as: Int64.self)))
            }
    }

    /// The runs of every job since `since` that did not end well (failed, cancelled, lost their
    /// lease), by job name.
    public func failedRuns(since: Date) async throws -> [String: Int] {
        let rows = try await db.raw(
            """
            SELECT name, COUNT(*) AS n FROM job_runs
            WHERE started_at >= \(bind: since.milliseconds) AND outcome IS NOT NULL AND outcome <> 'ok'
            GROUP BY name
            """
        ).all()
        var counts: [String: Int] = [:]
        for row in rows {
            counts[try row.decode(column: "name", as: String.self)] = try row.decode(column: "n", as: Int.self)
        }
        return counts
    }
}
