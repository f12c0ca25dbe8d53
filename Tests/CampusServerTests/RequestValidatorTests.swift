import Testing

@testable import CampusServer

@Suite struct RequestValidatorTests {
    @Test func concretePathsWinOverTemplatedOnes() throws {
        let validator = try APIDocumentation.bundled().validator
        // Both `…/participants/me` and `…/participants/{userId}` answer DELETE; "me" is not a
        // user id, so the templated one must never be chosen for it, whatever the order.
        for _ in 0..<20 {
            let leave = validator.operation(method: .delete, path: "/api/v1/competitions/5/participants/me")
            #expect(leave?.segments.last == "me")
        }
        let kick = validator.operation(method: .delete, path: "/api/v1/competitions/5/participants/7")
        #expect(kick?.segments.last == "{userId}")
    }
}
