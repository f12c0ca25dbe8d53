import Accounts
import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore
import SharedHelpers
import Storage

/// Renders pages in the layout, and answers with redirects: the signed-in visitor, CSRF tokens,
/// flash messages and cookies.
struct PageRenderer: Sendable {
    let services: Services
    let templates: MustacheLibrary

    static let flashCookie = "campus_flash"

    // MARK: Visitors

    func visitor(_ request: Request) async throws -> Visitor {
        var account: Authenticated?
        let sessionCookie = request.cookies[CookieName.session]?.value
        if let sessionCookie {
            account = try await services.accounts.authenticate(token: sessionCookie)
        }
        let existing = request.cookies[CookieName.csrf]?.value
        let csrfCookie = existing.flatMap { $0.count >= 32 && $0.count <= 64 ? $0 : nil } ?? Token.make()
        var flash: Flash?
        if let raw = request.cookies[Self.flashCookie]?.value, let data = Data(base64URLEncoded: raw) {
            flash = try? JSONDecoder().decode(Flash.self, from: data)
        }
        return Visitor(
            account: account, sessionCookie: account == nil ? nil : sessionCookie, csrfCookie: csrfCookie,
            isNewCSRFCookie: existing != csrfCookie, flash: flash, path: request.uri.path)
    }

    func csrfToken(for visitor: Visitor) -> String {
        services.csrf.token(csrfCookie: visitor.csrfCookie, sessionCookie: visitor.sessionCookie)
    }

    /// Whether a form carries this browser's CSRF token (``PageRouter`` asks, for every form).
    func isValidCSRF(_ token: String?, visitor: Visitor) -> Bool {
        !visitor.isNewCSRFCookie
            && services.csrf.isValid(token, csrfCookie: visitor.csrfCookie, sessionCookie: visitor.sessionCookie)
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
        let institution = try await services.institution()
        let layout = Layout(
            csrf: csrfToken(for: visitor), institution: institution.name, demo: services.configuration.demo,
            year: Calendar(identifier: .gregorian).component(.year, from: services.now()),
            user: visitor.user.map(LayoutUser.init), isAdmin: visitor.user?.role == .admin, flash: visitor.flash,
            nav: Navigation(type(of: model).section), back: visitor.path)
        let template = type(of: model).template
        guard let html = templates.render(PageContext(page: model, layout: layout), withTemplate: template) else {
            throw WebError.missingTemplate(template)
        }
        var response = Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
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
        }
        if let flash, let data = try? JSONEncoder().encode(Flash(kind: kind, message: flash)) {
            response.setCookie(cookie(Self.flashCookie, value: data.base64URLEncoded, maxAge: 60))
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
            name: name, value: value, maxAge: maxAge, path: "/", secure: services.configuration.secureCookies,
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
        var links = SiteLinks()
    }

    func errorPage(_ problem: Problem, request: Request) -> Response? {
        let page = ErrorPage(
            title: problem.title, detail: problem.detail, status: problem.status.code,
            institution: Services.defaultInstitutionName,
            year: Calendar(identifier: .gregorian).component(.year, from: services.now()))
        guard let html = templates.render(page, withTemplate: "error") else { return nil }
        var headers = problem.headers
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: problem.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}

enum WebError: Error {
    case missingTemplate(String)
}
