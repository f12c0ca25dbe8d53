import CampusAPI
import CampusHTTP
import Foundation
import Listen

/// Reports on content and feedback (seed 001's settings screen), and the admins' queue.
extension APIHandler {
    func createReport(_ input: Operations.createReport.Input) async throws -> Operations.createReport.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the report as JSON.") }
        let reason = ContentReport.Reason(rawValue: body.reason.rawValue) ?? .other
        let view = try await reports.report(target: body.target, reason: reason, note: body.note, by: user)
        return .created(.init(body: .json(view.api)))
    }

    func listReports(_ input: Operations.listReports.Input) async throws -> Operations.listReports.Output {
        _ = try await requireAdmin()
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let reports = try await reports.reports(
            resolved: input.query.resolved ?? false, limit: page.limit, offset: page.offset)
        return .ok(.init(body: .json(reports.map(\.api))))
    }

    func resolveReport(_ input: Operations.resolveReport.Input) async throws -> Operations.resolveReport.Output {
        let admin = try await requireAdmin().user
        return .ok(.init(body: .json(try await reports.resolveReport(input.path.reportId, by: admin).api)))
    }
}

extension ReportService.ReportView {
    var api: Components.Schemas.ContentReport {
        .init(
            id: report.id, reporter: .init(id: report.reporterID, name: report.reporterName),
            target: report.target?.description, targetTitle: targetTitle, targetUrl: targetPath,
            reason: .init(rawValue: report.reason.rawValue) ?? .other, note: report.note, createdAt: report.createdAt,
            resolvedAt: report.resolvedAt)
    }
}
