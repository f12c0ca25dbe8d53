import Accounts
import CampusHTTP
import Foundation

/// Who sends an API request, or a request a fast path answers (a schedule, a ranking page, a
/// stream): the account of its bearer token or of the web app's session cookie, with the CSRF
/// check a cookie needs on a request that changes data. The API's handlers and the fast paths
/// ask this one place.
struct Authenticator: Sendable {
    let accounts: AccountService
    let csrf: CSRFProtection

    init(_ services: Services) {
        accounts = services.accounts
        csrf = services.csrf
    }

    /// The signed-in user of this request (``RequestScope/current``), or 401 (403 for a cookie
    /// without the page's CSRF token on a request that changes data).
    func requireUser() async throws -> Authenticated {
        guard let scope = RequestScope.current, let token = scope.signInToken else { throw Problem.unauthorized() }
        guard let account = try await accounts.authenticate(token: token) else {
            if scope.bearerToken == nil { throw Problem.unauthorized() }
            throw Problem.unauthorized("The bearer token is unknown or expired. Log in again.")
        }
        if scope.bearerToken == nil, scope.isUnsafeMethod,
            !csrf.isValid(scope.csrfHeader, csrfCookie: scope.csrfCookie, sessionCookie: token)
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

    /// The signed-in admin, or 403.
    func requireAdmin() async throws -> Authenticated {
        let account = try await requireUser()
        guard account.user.role == .admin else { throw Problem.forbidden("Only admins may do this.") }
        return account
    }
}
