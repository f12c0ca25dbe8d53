import Testing

@testable import CampusHTTP

/// Which `Authorization` headers carry a bearer token Campus reads.
@Suite struct BearerTokenTests {
    @Test(arguments: [
        ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER\tabc", "abc"), ("  Bearer   abc  ", "abc"),
        ("Bearer токен", "токен"),
    ])
    func bearerTokensAreRead(_ header: String, _ token: String) {
        #expect(RequestScopeMiddleware.bearerToken(header) == token)
    }

    @Test(arguments: [
        "Basic abc", "Bearer", "Bearer a b", "Bearerabc", "", "   ", "Bearers abc", "Bear abc", "bearer@ abc",
    ])
    func otherHeadersCarryNone(_ header: String) {
        #expect(RequestScopeMiddleware.bearerToken(header) == nil)
    }
}
