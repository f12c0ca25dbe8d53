import Foundation
import SQLKit
import SharedHelpers

/// The leases of jobs that run on one instance at a time (issue 38), and what each run did.
/// A lease is a row per job: its holder, until when, and the last run's times. Taking it is one
/// conditional upsert, so two instances asking at once cannot both get it (PostgreSQL locks the
/// row the upsert meets; SQLite's write transactions take turns). Times are milliseconds since
/// 1970 on the instances' clocks, which NTP keeps within far less than a lease.
/// Runs on the `SQLDatabase` it is given, so callers choose the transaction.
public struct JobStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    /// A job's lease as the database has it.
    public struct Lease: Sendable, Equatable {
        public var name: String
        public var holder: String
        public var expiresAt: Date
        public var lastStartedAt: Date?
        public var lastFinishedAt: Date?
        /// `ok`, or why the last run failed.
        public var lastOutcome: String?
    }

    /// One run of a job.
    public struct Run: Sendable, Equatable {
        public var name: String
        public var instance: String
        public var startedAt: Date
        public var finishedAt: Date?
        public var outcome: String?
    }

    /// Takes the job's lease for `holder` until `until`, or renews it when `holder` has it; nil
    /// when another holder's lease has not expired at `now`.
    public func take(_ name: String, holder: String, now: Date, until: Date) async throws -> Lease? {
        try await db.raw(
            """
            INSERT INTO job_leases (name, holder, expires_at) VALUES (\(bind: name), \(bind: holder), \(bind: until.milliseconds))
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
            WHERE job_leases.holder = excluded.holder OR job_leases.expires_at < \(bind: now.milliseconds)
            """
        ).run()
        guard let lease = try await lease(name), lease.holder == holder else { return nil }
        return lease
    }

    /// Gives the lease up (the holder stops): another instance may take it at once.
    public func release(_ name: String, holder: String) async throws {
        try await db.update("job_leases").set("expires_at", to: 0).where("name", .equal, name)
            .where("holder", .equal, holder).run()
    }

    public func lease(_ name: String) async throws -> Lease? {
        try await db.select().columns(Self.leaseColumns).from("job_leases").where("name", .equal, name).first()
            .map(Self.lease)
    }

    /// Every job's lease, by name.
    public func leases() async throws -> [Lease] {
        try await db.select().columns(Self.leaseColumns).from("job_leases").orderBy("name").all().map(Self.lease)
    }

    /// A run begins.
    public func started(_ name: String, instance: String, at: Date) async throws {
        try await db.update("job_leases").set("last_started_at", to: at.milliseconds).where("name", .equal, name).run()
        try await db.insert(into: "job_runs").columns("name", "instance", "started_at")
            .values(SQLBind(name), SQLBind(instance), SQLBind(at.milliseconds)).run()
    }

    /// The run that began at `startedAt` ended with `outcome`; runs older than `keepSince` are
    /// forgotten.
    public func finished(
        _ name: String, instance: String, startedAt: Date, at: Date, outcome: String, keepSince: Date
    ) async throws {
        try await db.update("job_leases").set("last_finished_at", to: at.milliseconds)
            .set("last_outcome", to: outcome).where("name", .equal, name).run()
        try await db.update("job_runs").set("finished_at", to: at.milliseconds).set("outcome", to: outcome)
            .where("name", .equal, name).where("instance", .equal, instance)
            .where("started_at", .equal, startedAt.milliseconds).run()
        try await db.delete(from: "job_runs").where("started_at", .lessThan, keepSince.milliseconds).run()
    }

    /// The runs of a job, oldest first.
    public func runs(_ name: String) async throws -> [Run] {
        try await db.select().columns("name", "instance", "started_at", "finished_at", "outcome").from("job_runs")
            .where("name", .equal, name).orderBy("started_at").all().map { row in
                Run(
                    name: try row.decode(column: "name", as: String.self),
                    instance: try row.decode(column: "instance", as: String.self),
                    startedAt: Date(milliseconds: try row.decode(column: "started_at", as: Int64.self)),
                    finishedAt: try row.decode(column: "finished_at", as: Int64?.self).map(Date.init(milliseconds:)),
                    outcome: try row.decode(column: "outcome", as: String?.self))
            }
    }

    static let leaseColumns = [
        "name", "holder", "expires_at", "last_started_at", "last_finished_at", "last_outcome",
    ]

    static func lease(_ row: any SQLRow) throws -> Lease {
        Lease(
            name: try row.decode(column: "name", as: String.self),
            holder: try row.decode(column: "holder", as: String.self),
            expiresAt: Date(milliseconds: try row.decode(column: "expires_at", as: Int64.self)),
            lastStartedAt: try row.decode(column: "last_started_at", as: Int64?.self).map(Date.init(milliseconds:)),
            lastFinishedAt: try row.decode(column: "last_finished_at", as: Int64?.self).map(Date.init(milliseconds:)),
            lastOutcome: try row.decode(column: "last_outcome", as: String?.self))
    }
}
