import Accounts
import CampusHTTP
import Foundation
import Hummingbird
import InputRules
import Localization
import Storage

/// Logging in and out, registering, and resetting a forgotten password.
struct SignInPages: Sendable {
    let accounts: AccountService
    let configuration: ServerConfiguration
    let languages: Languages
    /// The university's OpenID provider, when one is configured.
    let signOn: SingleSignOnService?

    func register(on pages: PageRouter) {
        pages.page(SiteRoutes.login, loginPage)
        pages.publicForm(SiteRoutes.login, LoginForm.self, login)
        pages.publicForm(SiteRoutes.logout, CSRFForm.self, logout)
        pages.page(SiteRoutes.register, registrationPage)
        pages.publicForm(SiteRoutes.register, RegistrationForm.self, registration)
        pages.page(SiteRoutes.forgotPassword) { _ in .page(ForgotPasswordPage()) }
        pages.publicForm(SiteRoutes.forgotPassword, ForgotForm.self, forgot)
        pages.page(SiteRoutes.resetPassword) { request in
            .page(ResetPasswordPage(token: request.query("token", maxLength: 200) ?? ""))
        }
        pages.publicForm(SiteRoutes.resetPassword, ResetForm.self, reset)
    }

    // MARK: Login and logout

    struct LoginForm: PageForm {
        var _csrf: String?
        var email: String?
        var password: String?
        /// The second factor, for an account that has it on.
        var code: String?
        var next: String?
    }

    @Sendable func loginPage(_ request: PageRequest) async throws -> PageAnswer {
        let next = Self.safeNext(request.request.uri.queryParameters["next"].map(String.init))
        if request.visitor.user != nil { return .redirect(next) }
        return .page(loginPage(next: next, t: request.t))
    }

    /// The login page as a visitor first sees it: the provider's button, the password form.
    func loginPage(next: String, t: Translator) -> LoginPage {
        let demoAccounts = demoAccountList(t)
        var page = LoginPage(
            next: next, registerURL: Self.withNext(SiteRoutes.register, next), demoAccounts: demoAccounts,
            hasDemoAccounts: !demoAccounts.isEmpty)
        page.signOn = signOn.map { LoginPage.SignOn(name: $0.name, url: Self.withNext(SiteRoutes.signOn, next)) }
        page.passwordSignIn = configuration.passwordSignIn
        return page
    }

    /// A sign-in page's address that keeps where the visitor was going (the plain address when
    /// that is the home page).
    static func withNext(_ route: Route<Void>, _ next: String) -> String {
        next == SiteRoutes.home.path ? route.path : route.path(query: [("next", next)])
    }

    private func demoAccountList(_ t: Translator) -> [LoginPage.DemoAccount] {
        guard configuration.demo else { return [] }
        return Demo.accounts.map { .init(email: $0.email, password: $0.password, role: $0.role.name(t)) }
    }

    @Sendable func login(_ request: PageRequest, _ form: LoginForm) async throws -> PageAnswer {
        let next = Self.safeNext(form.next)
        let email = form.email ?? ""
        do {
            let result = try await accounts.login(
                email: email, password: form.password ?? "", code: form.code, kind: .web,
                address: RequestScope.current?.address ?? "unknown", userAgent: request.request.headers[.userAgent])
            // The pages from now on speak the user's own language, and so does the greeting.
            let t = languages.translator(result.user.language) ?? request.t
            return .redirect(
                next, flash: t("Welcome, {name}!", ["name": result.user.firstName]),
                session: .signIn(token: result.token))
        } catch let refusal as Refusal {
            // The API's status and `Retry-After` (one mapping, ``Problem/init(_:)``).
            let problem = Problem(refusal)
            guard [.unauthorized, .tooManyRequests, .forbidden].contains(problem.status) else { throw refusal }
            var page = loginPage(next: next, t: request.t)
            page.email = email
            page.error = request.t.detail(refusal)
            page.askCode = refusal.kind == TwoFactor.required
            return .page(page, status: problem.status, headers: problem.pageHeaders)
        }
    }

    /// Ends the session; one signed in at the provider goes there to end its session too, where
    /// the provider offers that (`end_session_endpoint`), and comes back home.
    @Sendable func logout(_ request: PageRequest, _ form: CSRFForm) async throws -> PageAnswer {
        var location = SiteRoutes.home.path
        if let token = request.visitor.sessionCookie {
            if let signOn, let idToken = try await signOn.idToken(session: token),
                let there = await signOn.logoutURL(idToken: idToken)
            {
                location = there
            }
            try await accounts.logout(token: token)
        }
        return .redirect(location, flash: request.t("You are logged out."), session: .signOut)
    }

    /// A path of this site to go to after logging in; anything else goes home. Only the
    /// characters a URL's path and query may hold unescaped are allowed (RFC 3986), so neither
    /// control characters (browsers drop tabs and line breaks, which turned `/%09/host` into
    /// `//host`) nor backslashes can make it another site's address.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.utf8.count < 500, LinkRules.isSitePath(next) else { return SiteRoutes.home.path }
        return next
    }

    // MARK: Registration

    struct RegistrationForm: PageForm {
        var _csrf: String?
        var email: String?
        var password: String?
        /// The password again (seed 002's registration screen): a typo is caught before the account exists.
        var confirmation: String?
        var firstName: String?
        var lastName: String?
        var organizer: String?
        /// Where the visitor was going when they were asked to log in (see ``SignInPages/safeNext(_:)``).
        var next: String?
    }

    @Sendable func registrationPage(_ request: PageRequest) async throws -> PageAnswer {
        let next = Self.safeNext(request.query("next", maxLength: 500))
        if request.visitor.user != nil {
            return .redirect(next == SiteRoutes.home.path ? SiteRoutes.profile.path : next)
        }
        // Accounts come from the university's provider only: its sign-in makes them.
        if !configuration.passwordSignIn { return .redirect(Self.withNext(SiteRoutes.login, next)) }
        return .page(RegisterPage(next: next, loginURL: Self.withNext(SiteRoutes.login, next)))
    }

    /// Makes the account and signs its user in: they go on where they were going (home, unless
    /// a page that needs an account sent them to log in first).
    @Sendable func registration(_ request: PageRequest, _ form: RegistrationForm) async throws -> PageAnswer {
        let next = Self.safeNext(form.next)
        var page = RegisterPage(
            next: next, loginURL: Self.withNext(SiteRoutes.login, next), email: form.email ?? "",
            firstName: form.firstName ?? "", lastName: form.lastName ?? "", organizer: form.organizer != nil)
        do {
            let result = try await accounts.registerAndSignIn(
                email: form.email ?? "", password: form.password ?? "", confirmation: form.confirmation,
                firstName: form.firstName ?? "",
                lastName: form.lastName ?? "", organizer: form.organizer != nil, kind: .web,
                address: RequestScope.current?.address ?? "unknown", userAgent: request.request.headers[.userAgent])
            return .redirect(
                next,
                flash: request.t(
                    "Your account is ready, {name}: you are signed in as {email}.",
                    ["name": result.user.firstName, "email": result.user.email]),
                session: .signIn(token: result.token))
        } catch let failure as ValidationFailure {
            page.errors = FieldErrors(failure, request.t)
            return .page(page, status: .unprocessableContent)
        } catch StoreError.emailTaken {
            page.errors = FieldErrors("email", request.t("An account with this email exists already. Log in instead."))
            return .page(page, status: .conflict)
        }
    }

    // MARK: Password reset

    struct ForgotForm: PageForm {
        var _csrf: String?
        var email: String?
    }

    @Sendable func forgot(_ request: PageRequest, _ form: ForgotForm) async throws -> PageAnswer {
        let email = String((form.email ?? "").prefix(AccountRules.emailMaxLength))
        try await accounts.requestPasswordReset(email: email, language: request.t)
        return .page(ForgotPasswordPage(sent: true, email: email))
    }

    struct ResetForm: PageForm {
        var _csrf: String?
        var token: String?
        var password: String?
        var confirmation: String?
    }

    @Sendable func reset(_ request: PageRequest, _ form: ResetForm) async throws -> PageAnswer {
        let token = String((form.token ?? "").prefix(200))
        let password = form.password ?? ""
        if password != (form.confirmation ?? "") {
            return .page(
                ResetPasswordPage(
                    token: token, errors: FieldErrors("confirmation", request.t("The two passwords are not the same."))),
                status: .unprocessableContent)
        }
        do {
            try await accounts.resetPassword(token: token, newPassword: password)
        } catch let failure as ValidationFailure {
            return .page(
                ResetPasswordPage(token: token, errors: FieldErrors(failure, request.t)), status: .unprocessableContent)
        } catch let refusal as Refusal where refusal.reason == .notAllowed {
            return .page(ResetPasswordPage(token: token, error: request.t.detail(refusal)), status: .forbidden)
        }
        return .redirect(
            SiteRoutes.login.path, flash: request.t("Your password is changed. Log in with the new one."),
            session: .signOut)
    }
}
