import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import HTTPTypes
import InputRules
import OpenAPIRuntime
import Storage

/// Liveness, readiness, metrics and the institution, for operators and apps.
extension APIHandler {
    /// Alive: answers whatever the database does (it asks nothing of it).
    func getHealth(_ input: Operations.getHealth.Input) async throws -> Operations.getHealth.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    func getReadiness(_ input: Operations.getReadiness.Input) async throws -> Operations.getReadiness.Output {
        let database = Components.Schemas.Health.databasePayload(rawValue: services.database.kind.rawValue)
        // Within a second (at once while the database is known to be down): a load balancer
        // asking must not wait on it.
        guard await services.database.ping() else {
            throw Problem(
                .serviceUnavailable, detail: "The database does not answer; see the server log.",
                headers: [.retryAfter: "1"])
        }
        return .ok(.init(body: .json(.init(status: .ready, database: database))))
    }

    func getMetrics(_ input: Operations.getMetrics.Input) async throws -> Operations.getMetrics.Output {
        .ok(.init(body: .plainText(HTTPBody(services.metrics.emitToBuffer()))))
    }

    func getInstitution(_ input: Operations.getInstitution.Input) async throws -> Operations.getInstitution.Output {
        let institution = try await services.institution()
        return .ok(.init(body: .json(.init(name: institution.name, timeZone: institution.timeZone.identifier))))
    }
}
