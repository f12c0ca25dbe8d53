import Accounts
import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import Localization
import Mustache
import NIOCore
import SharedHelpers
import Storage

/// Renders pages in the layout, and answers with redirects: the signed-in visitor, CSRF tokens,
/// flash messages and cookies.
struct PageRenderer: Sendable {
    let configuration: ServerConfiguration
    let authenticator: Authenticator
    /// Where a signed-in visitor's form posts went (``PageRouter``'s `Idempotency-Key`).
    let accounts: AccountService
    /// The institution's name and time zone, for the layout.
    let institution: @Sendable () async throws -> Institution
    /// The signed-in user's unread notifications, for the bell.
    let unread: @Sendable (Account) async throws -> Int
    let now: @Sendable () -> Date
    let templates: LocalizedTemplates

    static let flashCookie = "campus_flash"
    /// A visitor's choice of language (the footer's switcher), kept across signing in and out.
    static let languageCookie = "campus_language"

    var languages: Languages { templates.languages }

    /// The language for a request: the user's choice, else the language cookie, else the
    /// browser's `Accept-Language`, else the institution's.
    func translator(_ request: Request, user: Account? = nil) -> Translator {
        let cookie = request.cookies[Self.languageCookie]?.value
        return languages.choose(
            choice: user?.language ?? cookie.flatMap { $0.utf8.count <= 16 ? $0 : nil },
            acceptLanguage: request.headers[.acceptLanguage])
    }

    // MARK: Visitors

    func visitor(_ request: Request) async throws -> Visitor {
        let sessionCookie = request.cookies[CookieName.session]?.value
        let account = try await authenticator.pageAccount(sessionCookie: sessionCookie)
        let existing = request.cookies[CookieName.csrf]?.value
        let csrfCookie = existing.flatMap { $0.count >= 32 && $0.count <= 64 ? $0 : nil } ?? Token.make()
        var flash: Flash?
        if let raw = request.cookies[Self.flashCookie]?.value,
            let data = Data(base64URLEncoded: raw, maximumLength: Flash.cookieValueLimit)
        {
            flash = try? JSONDecoder().decode(Flash.self, from: data)
        }
        return Visitor(
            account: account, sessionCookie: account == nil ? nil : sessionCookie, csrfCookie: csrfCookie,
            isNewCSRFCookie: existing != csrfCookie, flash: flash, path: request.uri.path,
            translator: translator(request, user: account?.user))
    }

    func csrfToken(for visitor: Visitor) -> String {
        authenticator.csrfToken(csrfCookie: visitor.csrfCookie, sessionCookie: visitor.sessionCookie)
    }

    /// Whether a form carries this browser's CSRF token (``PageRouter`` asks, for every form).
    func isValidCSRF(_ token: String?, visitor: Visitor) -> Bool {
        !visitor.isNewCSRFCookie
            && authenticator.isValidCSRF(
                token, csrfCookie: visitor.csrfCookie, sessionCookie: visitor.sessionCookie)
    }

    // MARK: Answers

    func respond(_ answer: PageAnswer, for visitor: Visitor) async throws -> Response {
        switch answer {
        case .page(let model, let status, let headers):
            var response = try await render(model, for: visitor, status: status)
            for field in headers { response.headers[field.name] = field.value }
            return response
        case .redirect(let location, let flash, let kind, let session):
            return redirect(to: location, flash: flash, kind: kind, for: visitor, session: session)
        case .response(let response):
            return response
        }
    }

    /// Renders the model's template inside the layout.
    func render(_ model: any PageModel, for visitor: Visitor, status: HTTPResponse.Status = .ok) async throws
        -> Response
    {
        let institution = try await institution()
        let language = visitor.translator.code
        var unreadCount: Int?
        if let user = visitor.user, let count = try? await unread(user), count > 0 { unreadCount = count }
        let layout = Layout(
            csrf: csrfToken(for: visitor), institution: institution.name, demo: configuration.demo,
            year: Calendar(identifier: .gregorian).component(.year, from: now()),
            user: visitor.user.map(LayoutUser.init), isAdmin: visitor.user?.role == .admin, flash: visitor.flash,
            nav: Navigation(type(of: model).section), back: visitor.path, lang: language,
            languages: LanguageOption.all(languages, current: language),
            scriptMessages: templates.scriptMessages(language),
            unread: unreadCount, twoFactorNeeded: visitor.account?.roleWaitingForTwoFactor != nil,
            registration: configuration.passwordSignIn)
        let template = type(of: model).template
        guard
            let html = templates.render(
                PageContext(page: model, layout: layout), withTemplate: template, language: language)
        else {
            throw WebError.missingTemplate(template)
        }
        // A signed-in user's page is never stored (a shared computer's back button after signing
        // out); a visitor's page holds nothing private and is asked for again each time it is used.
        var response = Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: visitor.user == nil ? "no-cache" : "no-store",
                .contentLanguage: language,
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        setCSRFCookie(on: &response, for: visitor)
        if visitor.flash != nil { response.setCookie(expired(Self.flashCookie)) }
        return response
    }

    /// A 303 redirect after a form post, with an optional flash message for the next page.
    func redirect(
        to location: String, flash: String? = nil, kind: Flash.Kind = .success, for visitor: Visitor,
        session: SessionChange = .unchanged
    ) -> Response {
        var response = Response.redirect(to: location, type: .normal)
        switch session {
        case .unchanged:
            setCSRFCookie(on: &response, for: visitor)
        case .signIn(let token):
            // A new CSRF cookie with the new session: a token from before signing in is no good.
            response.setCookie(cookie(CookieName.csrf, value: Token.make(), maxAge: 365 * 24 * 3600))
            response.setCookie(cookie(CookieName.session, value: token, maxAge: Int(AccountService.sessionLifetime)))
        case .signOut:
            setCSRFCookie(on: &response, for: visitor)
            response.setCookie(expired(CookieName.session))
        case .language(let code):
            setCSRFCookie(on: &response, for: visitor)
            response.setCookie(cookie(Self.languageCookie, value: code, maxAge: 365 * 24 * 3600))
        }
        if let flash {
            response.setCookie(
                cookie(Self.flashCookie, value: Flash(kind: kind, message: flash).cookieValue, maxAge: 60))
        }
        return response
    }

    private func setCSRFCookie(on response: inout Response, for visitor: Visitor) {
        if visitor.isNewCSRFCookie {
            response.setCookie(cookie(CookieName.csrf, value: visitor.csrfCookie, maxAge: 365 * 24 * 3600))
        }
    }

    func cookie(_ name: String, value: String, maxAge: Int?) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: "/", secure: configuration.secureCookies,
            httpOnly: true, sameSite: .lax)
    }

    func expired(_ name: String) -> Cookie { cookie(name, value: "", maxAge: 0) }

    // MARK: Error pages

    struct ErrorPage: Sendable {
        var title: String
        var detail: String
        var status: Int
        var institution: String
        var year: Int
        var lang: String
        var links = SiteLinks()
    }

    /// An error as a page, in the visitor's language (without asking the database who they are:
    /// the language cookie and the browser decide).
    func errorPage(_ problem: Problem, request: Request) -> Response? {
        let t = translator(request)
        let page = ErrorPage(
            title: t(problem.title, context: "status"), detail: t.detail(problem),
            status: problem.status.code, institution: Services.defaultInstitutionName,
            year: Calendar(identifier: .gregorian).component(.year, from: now()), lang: t.code)
        guard let html = templates.render(page, withTemplate: "error", language: t.code) else { return nil }
        var headers = problem.headers
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentLanguage] = t.code
        headers[.cacheControl] = "no-store"
        return Response(
            status: problem.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}

enum WebError: Error {
    case missingTemplate(String)
}
