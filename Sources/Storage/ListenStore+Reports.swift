import Foundation
import Listen
import SQLKit
import SharedHelpers

/// Reports on content and feedback, and the admins' queue of them.
extension ListenStore {
    static let reportColumns = """
        r.id, r.user_id, u.first_name, u.last_name, r.target, r.reason, r.note, r.created_at, r.resolved_at
        """

    func report(from row: any SQLRow) throws -> ContentReport {
        ContentReport(
            id: try row.decode(column: "id", as: Int64.self),
            reporterID: try row.decode(column: "user_id", as: Int64.self),
            reporterName:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            target: try row.decode(column: "target", as: String?.self).flatMap(Reference.init),
            reason: try row.decodeCase(column: "reason", as: ContentReport.Reason.self),
            note: try row.decode(column: "note", as: String.self),
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)),
            resolvedAt: try row.decode(column: "resolved_at", as: Int64?.self).map(Date.init(epoch:)))
    }

    public func addReport(
        userID: Int64, target: Reference?, reason: ContentReport.Reason, note: String, now: Date
    ) async throws -> Int64 {
        guard
            let id = try await db.insert(into: "content_reports").columns(
                "user_id", "target", "reason", "note", "created_at"
            )
            .values(
                SQLBind(userID), SQLBind(target?.description), SQLBind(reason.rawValue), SQLBind(note),
                SQLBind(now.epoch)
            )
            .returning("id").first(decodingColumn: "id", as: Int64.self)
        else { throw ListenStoreError.notCreated }
        return id
    }

    /// How many of the listener's reports wait.
    public func openReportCount(userID: Int64) async throws -> Int {
        try await db.raw(
            "SELECT COUNT(*) AS n FROM content_reports WHERE user_id = \(bind: userID) AND resolved_at IS NULL"
        ).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    public func report(id: Int64) async throws -> ContentReport? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.reportColumns) FROM content_reports r JOIN users u ON u.id = r.user_id
            WHERE r.id = \(bind: id)
            """
        ).first().map(report(from:))
    }

    /// The waiting reports, oldest first, or the resolved ones, newest first.
    public func reports(resolved: Bool, limit: Int, offset: Int = 0) async throws -> [ContentReport] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.reportColumns) FROM content_reports r JOIN users u ON u.id = r.user_id
            WHERE r.resolved_at IS \(unsafeRaw: resolved ? "NOT NULL" : "NULL")
            ORDER BY \(unsafeRaw: resolved ? "r.resolved_at DESC, r.id DESC" : "r.created_at, r.id")
            LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all().map(report(from:))
    }

    /// Marks a waiting report resolved; false when there is none such waiting.
    public func resolveReport(_ id: Int64, by userID: Int64, now: Date) async throws -> Bool {
        let rows = try await db.raw(
            """
            UPDATE content_reports SET resolved_at = \(bind: now.epoch), resolved_by = \(bind: userID)
            WHERE id = \(bind: id) AND resolved_at IS NULL RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }
}
