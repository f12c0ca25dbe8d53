import Accounts
import Foundation
import InputRules
import Listen
import Storage

/// Reports on content and feedback, and the admins' queue of them.
struct ReportService: Sendable {
    let database: Database
    let now: @Sendable () -> Date
}

/// Seed 001's settings screen: reports on content and feedback go to the admins' queue, with the
/// item they name; an admin resolves them.
extension ReportService {
    /// A report as the queue shows it: what it names, by its title and link (a removed item's
    /// report keeps its reference, without a link).
    struct ReportView: Sendable {
        var report: ContentReport
        var targetTitle: String?
        var targetPath: String?
    }

    /// Files a report on `target` (nil: feedback on Campus itself, which needs the reason
    /// `feedback`); the target must exist and be readable by the listener.
    func report(target text: String?, reason: ContentReport.Reason, note given: String?, by user: Account)
        async throws -> ReportView
    {
        let target = try text.map { try CatalogueService.reference($0, field: "target") }
        if case .some(.system) = target {
            throw Refusal.invalid(FieldProblem(field: "target", detail: "System playlists are made by Campus."))
        }
        guard (target == nil) == (reason == .feedback) else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "reason", detail: "Feedback is about Campus itself; a report on content names its item."))
        }
        let note: String
        do {
            note = try ContentReport.note(given, reason: reason)
        } catch {
            throw Refusal.invalid(error.fieldProblem)
        }
        return try await database.write { db in
            let store = ListenStore(db)
            var named: (title: String, path: String)?
            if let target { named = try await described(target, for: user, store: store) }
            // Nothing is wrong with the report itself: the listener's waiting reports are many.
            guard try await store.openReportCount(userID: user.id) < ContentReport.openLimit else {
                throw Refusal.conflict(
                    "You have {count} reports waiting; the admins will read them first.",
                    ["count": String(ContentReport.openLimit)])
            }
            let id = try await store.addReport(userID: user.id, target: target, reason: reason, note: note, now: now())
            guard let report = try await store.report(id: id) else { throw Self.noReport(id) }
            return ReportView(report: report, targetTitle: named?.title, targetPath: named?.path)
        }
    }

    /// The title of what a report would name, if the listener may name it (for the report form).
    func reportTargetTitle(_ target: Reference, for user: Account) async throws -> String? {
        try await database.read { db in
            try? await described(target, for: user, store: ListenStore(db)).title
        }
    }

    /// The admins' queue: waiting reports oldest first, or the last resolved ones; `limit` after
    /// `offset`.
    func reports(resolved: Bool, limit: Int = 200, offset: Int = 0) async throws -> [ReportView] {
        try await database.read { db in
            let store = ListenStore(db)
            return try await views(
                try await store.reports(resolved: resolved, limit: limit, offset: offset), store: store)
        }
    }

    func resolveReport(_ id: Int64, by admin: Account) async throws -> ReportView {
        try await database.write { db in
            let store = ListenStore(db)
            guard let report = try await store.report(id: id) else { throw Self.noReport(id) }
            if report.resolvedAt == nil {
                let now = now()
                _ = try await store.resolveReport(id, by: admin.id, now: now)
                try await AuditStore(db).record(
                    AuditEntry(
                        at: now, action: .reportResolved, actor: AuditActor(admin),
                        target: AuditTarget(kind: "report", id: id, label: report.target?.description),
                        before: report.reason.rawValue, after: "resolved"))
            }
            guard let resolved = try await store.report(id: id) else { throw Self.noReport(id) }
            return try await views([resolved], store: store)[0]
        }
    }

    private static func noReport(_ id: Int64) -> Refusal {
        Refusal.notFound("There is no report {id}.", ["id": String(id)])
    }

    /// The reports as the queue shows them, what they name read at once.
    private func views(_ reports: [ContentReport], store: ListenStore) async throws -> [ReportView] {
        let named = try await named(reports.compactMap(\.target), for: nil, store: store)
        return reports.map { report in
            let target = report.target.flatMap { named[$0] }
            return ReportView(report: report, targetTitle: target?.title, targetPath: target?.path)
        }
    }

    /// What a reference names, by its title and page; unknown (or someone else's private
    /// playlist, for a listener) is refused.
    private func described(_ target: Reference, for user: Account?, store: ListenStore) async throws
        -> (title: String, path: String)
    {
        guard let named = try await named([target], for: user, store: store)[target] else {
            throw Refusal.invalid(
                FieldProblem(field: "target", detail: "There is no {reference}.", ["reference": target.description]))
        }
        return named
    }

    /// What the references name that exists (and, for a listener, that is theirs to name), by
    /// title and page: one read per kind of reference.
    private func named(_ targets: [Reference], for user: Account?, store: ListenStore) async throws
        -> [Reference: (title: String, path: String)]
    {
        var media: [Int64] = []
        var parents: [Int64] = []
        var authors: [Int64] = []
        var playlists: [Int64] = []
        for target in Set(targets) {
            switch target {
            case .media(let id): media.append(id)
            case .parent(_, let id): parents.append(id)
            case .author(let id): authors.append(id)
            case .playlist(let id): playlists.append(id)
            case .system: break
            }
        }
        var named: [Reference: (title: String, path: String)] = [:]
        for item in try await store.media(ids: media) {
            named[.media(item.id)] = (item.title, SiteRoutes.parentItem(item.kind.parent).path(item.parentID, item.id))
        }
        for parent in try await store.parents(ids: parents) {
            named[.parent(parent.kind, parent.id)] = (parent.title, SiteRoutes.parent(parent.kind).path(parent.id))
        }
        for author in try await store.authors(ids: authors) {
            named[.author(author.id)] = (author.name, SiteRoutes.author.path(author.id))
        }
        for playlist in try await store.playlists(ids: playlists)
        where user == nil || playlist.isPublic || playlist.ownerID == user?.id {
            named[.playlist(playlist.id)] = (playlist.name, SiteRoutes.playlist.path(String(playlist.id)))
        }
        return named
    }
}
