import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import HTTPInput
import InputRules
import Listen
import OpenAPIRuntime
import SharedHelpers
import Storage

/// The library API (admins): podcast imports, uploads, scans.
extension APIHandler {
    func importPodcast(_ input: Operations.importPodcast.Input) async throws -> Operations.importPodcast.Output {
        let admin = try await requireAdmin()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the feed's URL as JSON.") }
        let summary = try await library.importPodcast(body.url, by: AuditActor(admin.user))
        let t = translator(for: admin.user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        podcastId: summary.podcastID, title: summary.title, added: summary.added,
                        updated: summary.updated, skipped: summary.skipped.map { t($0) }))))
    }

    func uploadMedia(_ input: Operations.uploadMedia.Input) async throws -> Operations.uploadMedia.Output {
        let user = try await requireAdmin().user
        guard case .binary(let body) = input.body else { throw Problem.unsupportedMediaType("Send the file's bytes.") }
        let view = try await library.upload(body, name: input.query.name, folder: input.query.folder, for: user)
        return .created(.init(body: .json(view.api)))
    }

    func scanLibrary(_ input: Operations.scanLibrary.Input) async throws -> Operations.scanLibrary.Output {
        let admin = try await requireAdmin()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the folder as JSON.") }
        let summary = try await library.scan(body.folder, by: AuditActor(admin.user))
        let t = translator(for: admin.user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        added: summary.added, updated: summary.updated, unchanged: summary.unchanged,
                        removed: summary.removed, failed: summary.failed.map { $0.said { t($0) } }))))
    }
}
