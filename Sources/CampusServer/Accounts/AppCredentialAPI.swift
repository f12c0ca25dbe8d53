import CampusAPI
import CampusHTTP
import Foundation
import Storage

/// The Profile tag's API keys and app passwords, for players that speak the Subsonic API.
extension APIHandler {
    func listApiKeys(_ input: Operations.listApiKeys.Input) async throws -> Operations.listApiKeys.Output {
        let user = try await requireUser().user
        let items = try await services.appCredentials.list(.apiKey, for: user).map {
            Components.Schemas.ApiKey(id: $0.id, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt)
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    func createApiKey(_ input: Operations.createApiKey.Input) async throws -> Operations.createApiKey.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the name as JSON.") }
        let (credential, key) = try await services.appCredentials.create(.apiKey, name: body.name, for: user)
        return .created(.init(body: .json(.init(id: credential.id, name: credential.name, key: key))))
    }

    func deleteApiKey(_ input: Operations.deleteApiKey.Input) async throws -> Operations.deleteApiKey.Output {
        let user = try await requireUser().user
        try await services.appCredentials.revoke(.apiKey, id: input.path.credentialId, for: user)
        return .noContent(.init())
    }

    func listAppPasswords(_ input: Operations.listAppPasswords.Input) async throws
        -> Operations.listAppPasswords.Output
    {
        let user = try await requireUser().user
        let items = try await services.appCredentials.list(.appPassword, for: user).map {
            Components.Schemas.AppPassword(
                id: $0.id, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt)
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    func createAppPassword(_ input: Operations.createAppPassword.Input) async throws
        -> Operations.createAppPassword.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the name as JSON.") }
        let (credential, password) = try await services.appCredentials.create(
            .appPassword, name: body.name, for: user)
        return .created(.init(body: .json(.init(id: credential.id, name: credential.name, password: password))))
    }

    func deleteAppPassword(_ input: Operations.deleteAppPassword.Input) async throws
        -> Operations.deleteAppPassword.Output
    {
        let user = try await requireUser().user
        try await services.appCredentials.revoke(.appPassword, id: input.path.credentialId, for: user)
        return .noContent(.init())
    }
}
