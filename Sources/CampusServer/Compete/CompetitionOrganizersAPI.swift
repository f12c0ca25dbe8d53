import CampusAPI
import Foundation
import Storage

/// `/api/v1/competitions/{id}/organizers`: a competition's owner and co-organizers
/// (``CompeteService/addOrganizer(_:userID:by:)`` and the rest).
extension APIHandler {
    func listOrganizers(_ input: Operations.listOrganizers.Input) async throws -> Operations.listOrganizers.Output {
        let user = try await requireUser().user
        let (visible, organizers) = try await compete.organizers(input.path.competitionId, for: user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        owner: .init(id: visible.competition.ownerID, name: visible.row.ownerName),
                        organizers: organizers.map(\.api)))))
    }

    func addOrganizer(_ input: Operations.addOrganizer.Input) async throws -> Operations.addOrganizer.Output {
        let user = try await requireUser().user
        let added = try await compete.addOrganizer(input.path.competitionId, userID: input.path.userId, by: user)
        return .ok(.init(body: .json(added.api)))
    }

    func removeOrganizer(_ input: Operations.removeOrganizer.Input) async throws -> Operations.removeOrganizer.Output {
        let user = try await requireUser().user
        try await compete.removeOrganizer(input.path.competitionId, userID: input.path.userId, by: user)
        return .noContent(.init())
    }
}

extension CoOrganizer {
    var api: Components.Schemas.CoOrganizer {
        .init(id: userID, name: name, email: email.isEmpty ? nil : email, addedAt: addedAt)
    }
}
