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
        guard let scope = RequestScope.current, let token = scope.signInToken else { throw Problem.unauthorized() }
        guard let account = try await accounts.authenticate(token: token) else {
            if scope.bearerToken == nil { throw Problem.unauthorized() }
            throw Problem.unauthorized("The bearer token is unknown or expired. Log in again.")
        }
        if scope.bearerToken == nil, scope.isUnsafeMethod,
            !services.csrf.isValid(scope.csrfHeader, csrfCookie: scope.csrfCookie, sessionCookie: token)
        {
            throw Problem.forbidden("This request needs the page's CSRF token in the X-CSRF-Token header.")
        }
        return account
    }

    /// The account ``requireUser()`` finds, when the memory of sessions holds it and nothing
    /// needs writing (``AccountService/keptAccount(token:)``); nil when only `requireUser` can
    /// tell, and for a cookie on a request that changes data (which needs its CSRF check).
    func keptUser() -> Authenticated? {
        guard let scope = RequestScope.current, let token = scope.signInToken,
            scope.bearerToken != nil || !scope.isUnsafeMethod
        else { return nil }
        return accounts.keptAccount(token: token)
    }

    func requireAdmin() async throws -> Authenticated {
        let account = try await requireUser()
        guard account.user.role == .admin else { throw Problem.forbidden("Only admins may do this.") }
        return account
    }
}
