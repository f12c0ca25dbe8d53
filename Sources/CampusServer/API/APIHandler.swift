import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import OpenAPIRuntime
import Storage

/// The handlers of the operations in openapi.yaml. Each extension serves one tag.
struct APIHandler: APIProtocol {
    let services: Services

    var accounts: AccountService { services.accounts }

    // MARK: Authentication of API requests

    /// The signed-in user of this request, from its bearer token or the web app's session cookie.
    /// Requests that change data with the cookie must carry the CSRF token in `X-CSRF-Token`.
    func requireUser() async throws -> Authenticated {
        guard let scope = RequestScope.current else { throw Problem.unauthorized() }
        if let token = scope.bearerToken {
            guard let account = try await accounts.authenticate(token: token) else {
                throw Problem.unauthorized("The bearer token is unknown or expired. Log in again.")
            }
            return account
        }
        if let cookie = scope.sessionCookie, let account = try await accounts.authenticate(token: cookie) {
            if scope.isUnsafeMethod,
                !services.csrf.isValid(scope.csrfHeader, csrfCookie: scope.csrfCookie, sessionCookie: cookie)
            {
                throw Problem.forbidden("This request needs the page's CSRF token in the X-CSRF-Token header.")
            }
            return account
        }
        throw Problem.unauthorized()
    }

    func requireAdmin() async throws -> Authenticated {
        let account = try await requireUser()
        guard account.user.role == .admin else { throw Problem.forbidden("Only admins may do this.") }
        return account
    }
}
