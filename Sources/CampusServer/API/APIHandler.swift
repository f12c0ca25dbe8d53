import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import Localization
import OpenAPIRuntime
import Storage

/// The handlers of the operations in openapi.yaml. Each extension serves one tag.
struct APIHandler: APIProtocol {
    let services: Services

    var accounts: AccountService { services.accounts }

    // MARK: Authentication of API requests (``Authenticator``, which the fast paths ask too)

    var authenticator: Authenticator { Authenticator(services) }

    func requireUser() async throws -> Authenticated { try await authenticator.requireUser() }

    func keptUser() -> Authenticated? { authenticator.keptUser() }

    func requireAdmin() async throws -> Authenticated { try await authenticator.requireAdmin() }

    /// The words for `user`: their language, else the request's `Accept-Language`.
    func translator(for user: Account) -> Translator {
        services.languages.choose(choice: user.language, acceptLanguage: RequestScope.current?.acceptLanguage)
    }
}
