import CampusHTTP
import Testing

@testable import CampusServer

@Suite struct RequestValidatorTests {
    /// Both `…/participants/me` and `…/participants/{userId}` answer DELETE; "me" is not a user id,
    /// so the templated one must never be chosen for it. The router picks the route; the validator
    /// checks the operation of the route it picked.
    @Test func concretePathsWinOverTemplatedOnes() async throws {
        let validator = try APIDocumentation.bundled().validator
        let leave = validator.operation(
            method: .delete, template: "/api/v1/competitions/{competitionId}/participants/me")
        #expect(leave?.template.hasSuffix("/me") == true)
        let kick = validator.operation(
            method: .delete, template: "/api/v1/competitions/{competitionId}/participants/{userId}")
        #expect(kick?.template.hasSuffix("/{userId}") == true)
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let token = try await server.login("ann@example.org")
            for _ in 0..<20 {
                // Leaving competition 5, which does not exist: 404, not the 422 of "me" as a user id.
                let response = try await server.request(
                    .delete, "/api/v1/competitions/5/participants/me", token: token)
                #expect(response.status == .notFound)
            }
            let kicked = try await server.request(.delete, "/api/v1/competitions/5/participants/x", token: token)
            #expect(kicked.status == .unprocessableContent)
        }
    }
}
