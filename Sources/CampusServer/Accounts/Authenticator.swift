import Accounts
import CampusHTTP
import Foundation
import Storage

/// Who sends a request: for the API and the fast paths (a schedule, a ranking page, a stream),
/// the account of its bearer token or of the web app's session cookie, with the CSRF check a
/// cookie needs on a request that changes data; for the pages, the account of the session cookie
/// and the forms' CSRF tokens; for the Subsonic API, the account of a player's credentials. The
/// API's handlers, the fast paths, the pages and the Subsonic API ask this one place.
struct Authenticator: Sendable {
    let accounts: AccountService
    let appCredentials: AppCredentialService
    let csrf: CSRFProtection

    init(_ services: Services) {
        accounts = services.accounts
        appCredentials = services.appCredentials
        csrf = services.csrf
    }

    /// The account of a page's session cookie, or nil (no cookie, or one unknown or expired).
    func pageAccount(sessionCookie: String?) async throws -> Authenticated? {
        guard let sessionCookie else { return nil }
        return try await accounts.authenticate(token: sessionCookie)
    }

    /// The CSRF token the forms of a page carry, for this browser's CSRF cookie and session.
    func csrfToken(csrfCookie: String, sessionCookie: String?) -> String {
        csrf.token(csrfCookie: csrfCookie, sessionCookie: sessionCookie)
    }

    /// Whether a form's CSRF token is this browser's (``PageRouter`` asks, for every form).
    func isValidCSRF(_ token: String?, csrfCookie: String, sessionCookie: String?) -> Bool {
        csrf.isValid(token, csrfCookie: csrfCookie, sessionCookie: sessionCookie)
    }

    /// The account a player (a Subsonic client) signs in as, from the request's address
    /// (``AppCredentialService/authenticate(_:address:)``, which throttles failures per address).
    func player(_ signIn: AppCredentialService.SignIn) async throws -> Account {
        try await appCredentials.authenticate(signIn, address: RequestScope.current?.address ?? "unknown")
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
