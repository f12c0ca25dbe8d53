import Accounts
import CampusHTTP
import Foundation
import Hummingbird
import InputRules
import Localization

/// Signing in with the university's account (OpenID Connect): the login page's button leads to
/// ``start``, the provider sends the browser back to ``callback``, and an existing account of the
/// same email is linked on ``linkPage`` with its password.
struct SingleSignOnPages: Sendable {
    let signOn: SingleSignOnService
    let languages: Languages

    func register(on pages: PageRouter) {
        pages.page(SiteRoutes.signOn, start)
        pages.page(SiteRoutes.signOnCallback, callback)
        pages.publicForm(SiteRoutes.signOnLink, LinkForm.self, link)
    }

    @Sendable func start(_ request: PageRequest) async throws -> PageAnswer {
        let next = SignInPages.safeNext(request.query("next", maxLength: 500))
        if request.visitor.user != nil { return .redirect(next) }
        do {
            return .redirect(try await signOn.start(next: next, browser: request.visitor.csrfCookie))
        } catch let refusal as Refusal {
            return failed(refusal, request, next: next)
        }
    }

    /// The provider's way back: `code` and `state`, or `error` when the person did not sign in.
    @Sendable func callback(_ request: PageRequest) async throws -> PageAnswer {
        if let error = request.query("error", maxLength: 100) {
            let why = request.query("error_description", maxLength: 300) ?? error
            return failed(
                Refusal(
                    .notSignedIn, detail: "{provider} did not sign you in: {why}",
                    ["provider": signOn.name, "why": why]),
                request, next: SiteRoutes.home.path)
        }
        do {
            let outcome = try await signOn.finish(
                state: request.query("state", maxLength: 100) ?? "",
                code: request.query("code", maxLength: 2000) ?? "", browser: request.visitor.csrfCookie,
                address: RequestScope.current?.address ?? "unknown", userAgent: request.request.headers[.userAgent])
            switch outcome {
            case .signedIn(let token, let user, let next):
                let t = languages.translator(user.language) ?? request.t
                return .redirect(
                    next, flash: t("Welcome, {name}!", ["name": user.firstName]), session: .signIn(token: token))
            case .linkOffered(let offer, let email, let next):
                return .page(SignOnLinkPage(provider: signOn.name, offer: offer, email: email, next: next))
            }
        } catch let refusal as Refusal {
            return failed(refusal, request, next: SiteRoutes.home.path)
        }
    }

    struct LinkForm: PageForm {
        var _csrf: String?
        var offer: String?
        var password: String?
        var code: String?
    }

    @Sendable func link(_ request: PageRequest, _ form: LinkForm) async throws -> PageAnswer {
        let offer = form.offer ?? ""
        do {
            let linked = try await signOn.link(
                offer: offer, password: form.password ?? "", code: form.code,
                address: RequestScope.current?.address ?? "unknown", userAgent: request.request.headers[.userAgent])
            let t = languages.translator(linked.user.language) ?? request.t
            return .redirect(
                linked.next,
                flash: t(
                    "Your account is linked: from now on you sign in with {provider}.", ["provider": signOn.name]),
                session: .signIn(token: linked.token))
        } catch let refusal as Refusal {
            let problem = Problem(refusal)
            guard [.unauthorized, .tooManyRequests].contains(problem.status), refusal.kind?.name != "sign-on-expired"
            else { return failed(refusal, request, next: SiteRoutes.home.path) }
            let offered = try await signOn.offered(offer)
            var page = SignOnLinkPage(
                provider: signOn.name, offer: offer, email: offered.account.email, next: offered.offer.next)
            page.error = request.t.detail(refusal)
            page.askCode = refusal.kind == TwoFactor.required
            return .page(page, status: problem.status, headers: problem.pageHeaders)
        }
    }

    /// The login page saying what went wrong, with the status the API would give.
    private func failed(_ refusal: Refusal, _ request: PageRequest, next: String) -> PageAnswer {
        let problem = Problem(refusal)
        var page = LoginPage(
            next: next, registerURL: SiteRoutes.register.path, demoAccounts: [], hasDemoAccounts: false)
        page.error = request.t.detail(refusal)
        page.signOn = LoginPage.SignOn(name: signOn.name, url: SignInPages.withNext(SiteRoutes.signOn, next))
        page.passwordSignIn = signOn.accounts.passwordSignIn
        return .page(page, status: problem.status, headers: problem.pageHeaders)
    }
}

/// An account of the same email exists: its password links it to the provider's person.
struct SignOnLinkPage: PageModel {
    static let template = "sign-on-link"
    static let section: SiteSection? = nil

    var provider: String
    var offer: String
    var email: String
    var next: String
    var error: String?
    var askCode = false
    var action = SiteRoutes.signOnLink.path
}
