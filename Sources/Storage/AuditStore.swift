import Accounts
import Foundation
import SQLKit
import SharedHelpers

/// The audit log's rows (issue 40). ``record(_:)`` runs on the `SQLDatabase` it is given, so the
/// entry is written in the transaction of the action it records: both land, or neither does.
public struct AuditStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    static let columns = """
        id, at, action, actor_id, actor_name, address, target_kind, target_id, target_label, before_value, after_value
        """

    public func record(_ entry: AuditEntry) async throws {
        try await db.insert(into: "audit_log")
            .columns(
                "at", "action", "actor_id", "actor_name", "address", "target_kind", "target_id", "target_label",
                "before_value", "after_value"
            )
            .values(
                SQLBind(entry.at.epoch), SQLBind(entry.action.rawValue), SQLBind(entry.actor.accountID),
                SQLBind(entry.actor.name), SQLBind(entry.actor.address), SQLBind(entry.target.kind),
                SQLBind(entry.target.id), SQLBind(entry.target.label), SQLBind(entry.before), SQLBind(entry.after)
            )
            .run()
    }

    /// The entries that match, newest first, and how many match in all.
    public func entries(_ filter: AuditFilter, limit: Int, offset: Int) async throws -> (
        entries: [AuditEntry], total: Int
    ) {
        var conditions: [SQLQueryString] = []
        if let action = filter.action { conditions.append("action = \(bind: action.rawValue)") }
        if let actor = filter.actorID { conditions.append("actor_id = \(bind: actor)") }
        if let kind = filter.targetKind { conditions.append("target_kind = \(bind: kind)") }
        if let id = filter.targetID { conditions.append("target_id = \(bind: id)") }
        if let since = filter.since { conditions.append("at >= \(bind: since.epoch)") }
        if let until = filter.until { conditions.append("at < \(bind: until.epoch)") }
        var condition: SQLQueryString = "1 = 1"
        for next in conditions { condition = "\(condition) AND \(next)" }
        let total =
            try await db.raw("SELECT COUNT(*) AS n FROM audit_log WHERE \(condition)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
        let rows = try await db.raw(
            """
            SELECT \(unsafeRaw: Self.columns) FROM audit_log WHERE \(condition)
            ORDER BY id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)
            """
        ).all()
        return (try rows.compactMap(entry(from:)), total)
    }

    /// Removes the entries written before `date` (the configured keeping time).
    public func removeEntries(before date: Date) async throws {
        try await db.raw("DELETE FROM audit_log WHERE at < \(bind: date.epoch)").run()
    }

    /// An entry; nil for an action this version does not know (written by a newer one).
    func entry(from row: any SQLRow) throws -> AuditEntry? {
        guard let action = AuditAction(rawValue: try row.decode(column: "action", as: String.self)) else {
            return nil
        }
        return AuditEntry(
            id: try row.decode(column: "id", as: Int64.self),
            at: Date(epoch: try row.decode(column: "at", as: Int64.self)), action: action,
            actor: AuditActor(
                accountID: try row.decode(column: "actor_id", as: Int64?.self),
                name: try row.decode(column: "actor_name", as: String.self),
                address: try row.decode(column: "address", as: String?.self)),
            target: AuditTarget(
                kind: try row.decode(column: "target_kind", as: String.self),
                id: try row.decode(column: "target_id", as: String?.self),
                label: try row.decode(column: "target_label", as: String?.self)),
            before: try row.decode(column: "before_value", as: String?.self),
            after: try row.decode(column: "after_value", as: String?.self))
    }
}
