import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import NIOCore

/// The home page, the API's documentation page, the OpenAPI document itself, and the footer's
/// language switcher.
struct SitePages: Sendable {
    let accounts: AccountService
    let personal: MyTimetablePages
    let documentation: APIDocumentation

    func register(on pages: PageRouter) {
        let personal = personal
        pages.page(SiteRoutes.home) { request in
            guard let user = request.visitor.user else { return .page(HomePage(glance: nil)) }
            return .page(HomePage(glance: try await personal.glance(for: user, request.t)))
        }
        let languages = pages.renderer.languages
        pages.publicForm(SiteRoutes.language, LanguageForm.self) { request, form in
            guard let chosen = languages.translator(form.language) else {
                throw Refusal.invalid(
                    FieldProblem(field: "language", detail: "must be one of the languages Campus speaks"))
            }
            if let user = request.visitor.user {
                _ = try await accounts.updateProfile(of: user, .init(language: chosen.code))
            }
            return .redirect(SignInPages.safeNext(form.back), session: .language(chosen.code))
        }
        pages.page(SiteRoutes.apiDocumentation) { _ in .page(APIPage(documentation.page)) }
        pages.page(SiteRoutes.about) { _ in .page(AboutPage(version: documentation.version)) }
        pages.resource(SiteRoutes.openAPIYAML, kind: .api) { _, _ in
            Self.document(documentation.yaml, type: "application/yaml; charset=utf-8")
        }
        pages.resource(SiteRoutes.openAPIJSON, kind: .api) { _, _ in
            Self.document(String(decoding: try documentation.json, as: UTF8.self), type: "application/json")
        }
    }

    private static func document(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// The footer's switcher: the language, and the page to come back to.
struct LanguageForm: PageForm {
    var _csrf: String?
    var language: String
    var back: String?
}

struct HomePage: PageModel {
    static let template = "home"
    static let section: SiteSection? = .home

    /// Today at a glance, for a signed-in visitor.
    var glance: Glance?
}

/// The API's documentation: operations by tag, and schemas.
struct APIPage: PageModel {
    static let template = "api"
    static let section: SiteSection? = nil

    struct Tag: Sendable {
        var name: String
        var description: String
        var operations: [Operation]
    }

    struct Operation: Sendable {
        var id: String
        var method: String
        var methodClass: String
        var path: String
        var summary: String
        var description: String
        var needsLogin: Bool
        var parameters: [Field]
        var hasParameters: Bool
        var requestBody: String?
        var responses: [Response]
    }

    struct Response: Sendable {
        var status: String
        var description: String
        var body: String
    }

    struct Field: Sendable {
        var name: String
        var location: String
        var type: String
        var required: Bool
        var description: String

        init(_ field: APIDocumentation.Field) {
            name = field.name
            location = field.location
            type = field.type
            required = field.required
            description = field.description
        }
    }

    struct Schema: Sendable {
        var name: String
        var description: String
        var type: String
        var properties: [Field]
        var hasProperties: Bool
    }

    var title: String
    var version: String
    var description: String
    var tags: [Tag]
    var schemas: [Schema]

    init(_ doc: APIDocumentation.PageValues) {
        title = doc.title
        version = doc.version
        description = doc.description
        tags = doc.tags.map { tag in
            Tag(
                name: tag.name, description: tag.description,
                operations: tag.operations.map { operation in
                    Operation(
                        id: operation.id, method: operation.method, methodClass: operation.method.lowercased(),
                        path: operation.path, summary: operation.summary, description: operation.description,
                        needsLogin: operation.needsLogin, parameters: operation.parameters.map(Field.init),
                        hasParameters: !operation.parameters.isEmpty, requestBody: operation.requestBody,
                        responses: operation.responses.map {
                            Response(status: $0.status, description: $0.description, body: $0.body ?? "")
                        })
                })
        }
        schemas = doc.schemas.map { schema in
            Schema(
                name: schema.name, description: schema.description, type: schema.type,
                properties: schema.properties.map(Field.init), hasProperties: !schema.properties.isEmpty)
        }
    }
}
