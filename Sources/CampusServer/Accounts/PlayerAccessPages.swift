import Accounts
import CampusHTTP
import Foundation
import InputRules
import Storage

/// The profile's "Music players" page: the app passwords and API keys that let players speaking
/// the Subsonic API in (issue 17), made, listed and revoked by their owner. A new secret is shown
/// once, on the page that answers its creation.
struct PlayerAccessPages: Sendable {
    let appCredentials: AppCredentialService
    let configuration: ServerConfiguration
    var credentials: AppCredentialService { appCredentials }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.profilePlayers) { request, account in
            .page(try await page(request, account.user))
        }
        pages.form(SiteRoutes.profilePlayers, CreateForm.self, create)
        pages.form(SiteRoutes.profilePlayerRevoke, KindForm.self) { request, account, form in
            guard let id = request.context.parameters.get("credentialId", as: Int64.self) else {
                throw Refusal.notFound("There is nothing at {path}.", ["path": request.request.uri.path])
            }
            try await credentials.revoke(try Self.kind(form.kind), id: id, for: account.user)
            return .redirect(
                SiteRoutes.profilePlayers.path, flash: request.t("Revoked: players using it are signed out."))
        }
    }

    struct CreateForm: PageForm {
        var _csrf: String?
        var kind: String?
        var name: String?
    }

    struct KindForm: PageForm {
        var _csrf: String?
        var kind: String?
    }

    static func kind(_ text: String?) throws -> AppCredential.Kind {
        guard let kind = text.flatMap(AppCredential.Kind.init(rawValue:)) else {
            throw Refusal.invalid(FieldProblem(field: "kind", detail: "Choose an app password or an API key."))
        }
        return kind
    }

    func page(_ request: PageRequest, _ user: Account) async throws -> PlayerAccessPage {
        PlayerAccessPage(
            serverURL: configuration.resolvedBaseURL, username: user.email,
            appPasswords: try await credentials.list(.appPassword, for: user).map(PlayerAccessPage.Row.init),
            apiKeys: try await credentials.list(.apiKey, for: user).map(PlayerAccessPage.Row.init))
    }

    @Sendable func create(_ request: PageRequest, _ account: Authenticated, _ form: CreateForm) async throws
        -> PageAnswer
    {
        let kind = try Self.kind(form.kind)
        do {
            let (credential, secret) = try await credentials.create(kind, name: form.name, for: account.user)
            var page = try await page(request, account.user)
            page.created = .init(name: credential.name, secret: secret, isAPIKey: kind == .apiKey)
            return .page(page, status: .created)
        } catch let failure as ValidationFailure {
            var page = try await page(request, account.user)
            page.error = request.t.detail(failure)
            return .page(page, status: .unprocessableContent)
        } catch let refusal as Refusal where [.invalid, .conflict].contains(refusal.reason) {
            var page = try await page(request, account.user)
            page.error = request.t.detail(refusal)
            return .page(page, status: refusal.status)
        }
    }
}

struct PlayerAccessPage: PageModel {
    static let template = "player-access"
    static let section: SiteSection? = .profile

    struct Row: Sendable {
        var id: Int64
        var name: String
        var created: String
        var lastUsed: String?
        var kind: String
        var revokePath: String

        init(_ credential: AppCredential) {
            id = credential.id
            name = credential.name
            created = ListenText.day(credential.createdAt)
            lastUsed = credential.lastUsedAt.map(ListenText.day)
            kind = credential.kind.rawValue
            revokePath = SiteRoutes.profilePlayerRevoke.path(credential.id)
        }
    }

    struct Created: Sendable {
        var name: String
        var secret: String
        var isAPIKey: Bool
    }

    var serverURL: String
    var username: String
    var appPasswords: [Row]
    var apiKeys: [Row]
    var created: Created?
    var error: String?
}
