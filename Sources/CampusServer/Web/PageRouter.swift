import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import Localization
import NIOCore

/// A form of the web app: every form carries the page's CSRF token.
protocol PageForm: Decodable, Sendable {
    var _csrf: String? { get }
}

/// A form with nothing but its CSRF token (log out, delete, join …).
struct CSRFForm: PageForm {
    var _csrf: String?
}

/// What a page handler gets to work with.
struct PageRequest: Sendable {
    let request: Request
    let context: CampusRequestContext
    let visitor: Visitor

    /// The visitor's language: `t("Saved.")`, `t.plural("{count} participant", "{count} participants", n)`.
    var t: Translator { visitor.translator }

    /// A path parameter (`{name}`), percent-decoded; 404 when it is missing.
    func parameter(_ name: String) throws -> String {
        guard let value = context.parameters.get(name) else {
            throw Refusal.notFound("There is nothing at this address.")
        }
        return value.removingPercentEncoding ?? value
    }

    /// A path parameter that is an id (a positive whole number); 404 otherwise.
    func id(_ name: String = "id") throws -> Int64 {
        guard let id = context.parameters.get(name, as: Int64.self), id > 0 else {
            throw Refusal.notFound("There is nothing at this address.")
        }
        return id
    }

    /// A query parameter that is a value (a date, a number, a choice, a path) as a form sent it
    /// (`+` is a space), exactly: nothing is trimmed, so that ` 2024-01-01` (`?week=+2024-01-01`)
    /// is not a date, as it is not for the API. Nil when absent, empty or longer than
    /// `maxLength` characters.
    func query(_ name: String, maxLength: Int = 100) -> String? {
        guard let raw = request.uri.queryParameters[Substring(name)] else { return nil }
        return Self.value(raw, maxLength: maxLength)
    }

    /// A query parameter that people type (a search, a prefilled field): trimmed, at most
    /// `maxLength` characters; nil when absent or empty.
    func text(_ name: String, maxLength: Int = 100) -> String? {
        guard let raw = request.uri.queryParameters[Substring(name)] else { return nil }
        let text = String(raw).replacingOccurrences(of: "+", with: " ").trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : String(text.prefix(maxLength))
    }

    /// Every value of a query parameter that may repeat (`kind=room&kind=group`), each read as
    /// ``query(_:maxLength:)`` reads one; at most 20.
    func queryValues(_ name: String, maxLength: Int = 100) -> [String] {
        request.uri.queryParameters.getAll(name).prefix(20).compactMap { Self.value($0, maxLength: maxLength) }
    }

    private static func value(_ raw: some StringProtocol, maxLength: Int) -> String? {
        let value = String(raw).replacingOccurrences(of: "+", with: " ")
        return value.isEmpty || value.count > maxLength ? nil : value
    }
}

/// The web app's routes, built in one place: each page or form is registered with its typed
/// route, and this is where a visitor is found, sign-in is required (a visitor who is not signed
/// in goes to the login page), a form's fields are decoded (URL-encoded or multipart, no control
/// characters) and its CSRF token is checked — once, for every form post.
struct PageRouter {
    let router: Router<CampusRequestContext>
    let routes: RouteTable
    let renderer: PageRenderer

    typealias PageHandler = @Sendable (PageRequest) async throws -> PageAnswer
    typealias SignedInHandler = @Sendable (PageRequest, Authenticated) async throws -> PageAnswer

    /// A page anyone may see.
    func page(_ route: some RoutePattern, _ handler: @escaping PageHandler) {
        register(.get, route) { request in try await handler(request) }
    }

    /// A page for signed-in visitors.
    func signedInPage(_ route: some RoutePattern, _ handler: @escaping SignedInHandler) {
        register(.get, route) { request in try await handler(request, try Self.signedIn(request)) }
    }

    /// A form post anyone may send (logging in, registering, resetting a password).
    func publicForm<Form: PageForm>(
        _ route: some RoutePattern, _ type: Form.Type,
        _ handler: @escaping @Sendable (PageRequest, Form) async throws -> PageAnswer
    ) {
        let renderer = self.renderer
        register(.post, route) { request in
            let form = try await Self.decode(type, request, renderer)
            return try await handler(request, form)
        }
    }

    /// A form post of a signed-in visitor.
    func form<Form: PageForm>(
        _ route: some RoutePattern, _ type: Form.Type,
        _ handler: @escaping @Sendable (PageRequest, Authenticated, Form) async throws -> PageAnswer
    ) {
        let renderer = self.renderer
        register(.post, route) { request in
            let account = try Self.signedIn(request)
            let form = try await Self.decode(type, request, renderer)
            return try await handler(request, account, form)
        }
    }

    /// A multipart form post (an upload) of a signed-in visitor, up to `bodyLimit` bytes.
    func upload<Form: PageForm>(
        _ route: some RoutePattern, _ type: Form.Type, bodyLimit: Int,
        _ handler: @escaping @Sendable (PageRequest, Authenticated, Form) async throws -> PageAnswer
    ) {
        let renderer = self.renderer
        register(.post, route, bodyLimit: bodyLimit) { request in
            let account = try Self.signedIn(request)
            guard let boundary = MultipartForm.boundary(contentType: request.request.headers[.contentType]) else {
                throw Problem.unsupportedMediaType("Send the form as multipart/form-data.")
            }
            let buffer = try await request.request.body.collect(upTo: request.context.maxUploadSize)
            let form: Form
            do {
                form = try MultipartForm.decode(type, from: buffer, boundary: boundary)
            } catch let error as MultipartForm.Unreadable {
                throw Problem.badRequest(error.detail)
            }
            try Self.checkCSRF(form, request.visitor, renderer)
            return try await handler(request, account, form)
        }
    }

    /// Something that is not a page, at a path of the site (a style sheet, a document).
    func resource(
        _ route: some RoutePattern, kind: RouteProperties.Kind = .page,
        _ handler: @escaping @Sendable (Request, CampusRequestContext) async throws -> Response
    ) {
        router.get(RouterPath(route.pattern), use: handler)
        routes.add(.get, route.pattern, RouteProperties(kind: kind))
    }

    // MARK: The one place for sign-in, forms and CSRF

    /// The longest `Idempotency-Key` taken (a UUID is 36 characters).
    static let idempotencyKeyLength = 100

    /// The `Idempotency-Key` of a request, if it has one; a key that is not 1 to 100 letters,
    /// digits and hyphens is refused (400).
    static func idempotencyKey(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard (1...idempotencyKeyLength).contains(value.utf8.count),
            value.utf8.allSatisfy({
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45
            })
        else {
            throw Problem.badRequest(
                "Idempotency-Key must be 1 to {count} letters, digits and hyphens.",
                ["count": String(idempotencyKeyLength)])
        }
        return value
    }

    private func register(
        _ method: HTTPRequest.Method, _ route: some RoutePattern, bodyLimit: Int = RouteProperties.defaultBodyLimit,
        _ handler: @escaping @Sendable (PageRequest) async throws -> PageAnswer
    ) {
        let renderer = self.renderer
        router.on(RouterPath(route.pattern), method: method) { request, context -> Response in
            let visitor = try await renderer.visitor(request)
            // A signed-in form post with an Idempotency-Key, sent before: answered where it went then.
            let accounts = renderer.accounts
            let key = method == .post ? try Self.idempotencyKey(request.headers[.idempotencyKey]) : nil
            if let key, let user = visitor.user,
                let location = try await accounts.sentFormLocation(of: user, key: key)
            {
                return Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
            }
            let answer = try await handler(PageRequest(request: request, context: context, visitor: visitor))
            if let key, let user = visitor.user, case .redirect(let location, _, _, _) = answer {
                try await accounts.rememberSentForm(of: user, key: key, location: location)
            }
            return try await renderer.respond(answer, for: visitor)
        }
        routes.add(method, route.pattern, RouteProperties(kind: .page, bodyLimit: bodyLimit))
    }

    private static func signedIn(_ request: PageRequest) throws -> Authenticated {
        guard let account = request.visitor.account else {
            throw Redirect(to: SiteRoutes.login.path(query: [("next", request.request.uri.path)]))
        }
        return account
    }

    private static func decode<Form: PageForm>(_ type: Form.Type, _ request: PageRequest, _ renderer: PageRenderer)
        async throws -> Form
    {
        let buffer = try await request.request.body.collect(upTo: request.context.maxUploadSize)
        let text = String(buffer: buffer)
        if let problem = URLEncodedForm.problem(in: text) { throw Problem.invalid(problem) }
        let form = try URLEncodedFormDecoder().decode(type, from: text)
        try checkCSRF(form, request.visitor, renderer)
        return form
    }

    private static func checkCSRF(_ form: some PageForm, _ visitor: Visitor, _ renderer: PageRenderer) throws {
        guard renderer.isValidCSRF(form._csrf, visitor: visitor) else {
            throw Problem.forbidden(
                "This form has expired or did not come from Campus. Go back, reload the page and send it again.")
        }
    }
}
