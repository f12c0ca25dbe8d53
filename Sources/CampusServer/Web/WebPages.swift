import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import Mustache
import NIOCore
import SharedHelpers
import Storage

/// Renders the web app's pages: the shared layout, the signed-in user, CSRF tokens and flash
/// messages. Handlers build a page's own values and call ``render(_:_:for:status:)``.
struct WebPages: Sendable {
    let services: Services
    let templates: MustacheLibrary

    /// What a page handler knows about the browser: its user and its CSRF cookie.
    struct Visitor: Sendable {
        var account: Authenticated?
        var sessionCookie: String?
        var csrfCookie: String
        /// Set when the browser had no CSRF cookie yet, so the response must set it.
        var isNewCSRFCookie: Bool
        var flash: Flash?
        var path: String

        var user: UserRecord? { account?.user }
    }

    struct Flash: Codable, Sendable {
        var kind: String
        var message: String
    }

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

    /// The visitor, who must be signed in; otherwise the browser goes to the login page.
    func signedIn(_ request: Request) async throws -> (Visitor, Authenticated) {
        let visitor = try await visitor(request)
        guard let account = visitor.account else {
            throw Redirect(to: "/login?next=\(Self.percentEncoded(request.uri.path))")
        }
        return (visitor, account)
    }

    func csrfToken(for visitor: Visitor) -> String {
        services.csrf.token(csrfCookie: visitor.csrfCookie, sessionCookie: visitor.sessionCookie)
    }

    /// Rejects a form post that does not carry this browser's CSRF token.
    func checkCSRF(_ token: String?, visitor: Visitor) throws {
        guard !visitor.isNewCSRFCookie,
            services.csrf.isValid(token, csrfCookie: visitor.csrfCookie, sessionCookie: visitor.sessionCookie)
        else {
            throw Problem.forbidden(
                "This form has expired or did not come from Campus. Go back, reload the page and send it again.")
        }
    }

    /// A form post's fields (`application/x-www-form-urlencoded`), within the request's body limit.
    /// A form post's fields (`application/x-www-form-urlencoded`), within the request's body
    /// limit; no field may hold control characters.
    func form<T: Decodable>(_ type: T.Type, _ request: Request, _ context: CampusRequestContext) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let text = String(buffer: buffer)
        if let problem = URLEncodedForm.problem(in: text) { throw Problem.invalid(problem) }
        return try URLEncodedFormDecoder().decode(T.self, from: text)
    }

    // MARK: Rendering

    /// Renders `template` inside the layout with the values every page has.
    func render(
        _ template: String, _ values: [String: Any] = [:], for visitor: Visitor, status: HTTPResponse.Status = .ok,
        section: String? = nil
    ) async throws -> Response {
        let institution = try await services.institution()
        var context: [String: Any] = [
            "csrf": csrfToken(for: visitor),
            "institution": institution.name,
            "demo": services.configuration.demo,
            "year": Calendar(identifier: .gregorian).component(.year, from: services.now()),
        ]
        if let user = visitor.user {
            context["user"] = Self.userValues(user)
            context["isAdmin"] = user.role == .admin
        }
        if let flash = visitor.flash {
            context["flash"] = ["kind": flash.kind, "message": flash.message]
        }
        if let section { context["nav"] = [section: true] }
        for (key, value) in values { context[key] = value }
        guard let html = templates.render(context, withTemplate: template) else {
            throw WebError.missingTemplate(template)
        }
        var response = Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        setCookies(on: &response, for: visitor)
        if visitor.flash != nil { response.setCookie(expired(Self.flashCookie)) }
        return response
    }

    /// A 303 redirect after a form post, with an optional flash message for the next page.
    func redirect(to location: String, flash: String? = nil, kind: String = "success", for visitor: Visitor)
        -> Response
    {
        var response = Response.redirect(to: location, type: .normal)
        setCookies(on: &response, for: visitor)
        if let flash, let data = try? JSONEncoder().encode(Flash(kind: kind, message: flash)) {
            response.setCookie(cookie(Self.flashCookie, value: data.base64URLEncoded, maxAge: 60))
        }
        return response
    }

    static let flashCookie = "campus_flash"

    private func setCookies(on response: inout Response, for visitor: Visitor) {
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

    static func userValues(_ user: UserRecord) -> [String: Any] {
        var values: [String: Any] = [
            "id": user.id, "firstName": user.firstName, "lastName": user.lastName, "fullName": user.fullName,
            "email": user.email, "role": user.role.rawValue, "subgroup": user.subgroup,
            "initials": String(user.firstName.prefix(1) + user.lastName.prefix(1)).uppercased(),
            "isOrganizer": user.role.includes(.organizer), "isAdmin": user.role == .admin,
        ]
        if let group = user.group { values["group"] = group }
        if let avatar = user.avatarUpdatedAt {
            values["avatarUrl"] = "/api/v1/users/\(user.id)/avatar?v=\(avatar.epoch)"
        }
        return values
    }

    /// Field errors keyed by field name, for templates: `{{#errors.email}}…{{/errors.email}}`.
    static func errorValues(_ failure: ValidationFailure) -> [String: Any] {
        var errors: [String: Any] = [:]
        for problem in failure.problems where errors[problem.field] == nil {
            errors[problem.field] = problem.detail
        }
        return errors
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "/-._~")))
            ?? "/"
    }

    /// A path of this site to go to after logging in; anything else goes home. Only the
    /// characters a URL's path and query may hold unescaped are allowed (RFC 3986), so neither
    /// control characters (browsers drop tabs and line breaks, which turned `/%09/host` into
    /// `//host`) nor backslashes can make it another site's address.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.utf8.count < 500, next.hasPrefix("/"), !next.hasPrefix("//"),
            next.unicodeScalars.allSatisfy({ nextCharacters.contains($0) })
        else {
            return "/"
        }
        return next
    }

    private static let nextCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/%?")

    // MARK: Error pages

    func errorPage(_ problem: Problem, request: Request) -> Response? {
        let html = templates.render(
            [
                "title": problem.title, "detail": problem.detail, "status": problem.status.code,
                "institution": Services.defaultInstitutionName,
                "year": Calendar(identifier: .gregorian).component(.year, from: services.now()),
            ], withTemplate: "error")
        guard let html else { return nil }
        var headers = problem.headers
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: problem.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}

/// Sends the browser elsewhere (a page that needs login sends it to the login page).
struct Redirect: Error, HTTPResponseError {
    var location: String
    init(to location: String) { self.location = location }
    var status: HTTPResponse.Status { .seeOther }
    func response(from request: Request, context: some RequestContext) throws -> Response {
        .redirect(to: location, type: .normal)
    }
}

enum WebError: Error {
    case missingTemplate(String)
}
