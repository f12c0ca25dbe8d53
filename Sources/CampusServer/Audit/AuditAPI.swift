import Accounts
import CampusAPI
import CampusHTTP
import Foundation

/// `GET /api/v1/audit`: the audit log, filtered and paged (admins; 403 for anyone else).
extension APIHandler {
    var audit: AuditService { services.audit }

    func listAuditEntries(_ input: Operations.listAuditEntries.Input) async throws
        -> Operations.listAuditEntries.Output
    {
        let admin = try await requireAdmin()
        let query = input.query
        let page = try Paging(limit: query.limit, offset: query.offset)
        let filter = AuditFilter(
            action: query.action.flatMap { AuditAction(rawValue: $0.rawValue) }, actorID: query.actor,
            targetKind: query.targetKind, targetID: query.targetId, since: query.since, until: query.until)
        let result = try await audit.entries(filter, limit: page.limit, offset: page.offset, by: admin.user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: result.entries.map(\.api), total: result.total, limit: page.limit,
                        offset: page.offset))))
    }
}

extension AuditEntry {
    var api: Components.Schemas.AuditEntry {
        .init(
            id: id, at: at, action: .init(rawValue: action.rawValue) ?? .account_period_created,
            actor: .init(userId: actor.accountID, name: actor.name, address: actor.address),
            target: .init(kind: target.kind, id: target.id, label: target.label), before: before, after: after)
    }
}
