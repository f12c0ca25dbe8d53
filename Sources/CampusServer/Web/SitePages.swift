import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The API documentation and the OpenAPI document.
struct SitePages: Sendable {
    let pages: WebPages
    let documentation: APIDocumentation

    func register(on routes: PageRoutes) {
        routes.get("/api", apiPage)
        routes.get("/openapi.yaml", kind: .api) { _, _ in
            Self.document(documentation.yaml, type: "application/yaml; charset=utf-8")
        }
        routes.get("/openapi.json", kind: .api) { _, _ in
            Self.document(String(decoding: try documentation.json, as: UTF8.self), type: "application/json")
        }
    }

    private static func document(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    @Sendable func apiPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let doc = documentation.page
        let values: [String: Any] = [
            "title": doc.title, "version": doc.version, "description": doc.description,
            "tags": doc.tags.map { tag in
                [
                    "name": tag.name, "description": tag.description,
                    "operations": tag.operations.map { operation in
                        [
                            "id": operation.id, "method": operation.method,
                            "methodClass": operation.method.lowercased(),
                            "path": operation.path, "summary": operation.summary,
                            "description": operation.description, "needsLogin": operation.needsLogin,
                            "parameters": operation.parameters.map(Self.field),
                            "hasParameters": !operation.parameters.isEmpty,
                            "requestBody": operation.requestBody ?? "",
                            "responses": operation.responses.map {
                                ["status": $0.status, "description": $0.description, "body": $0.body ?? ""]
                            },
                        ] as [String: Any]
                    },
                ] as [String: Any]
            },
            "schemas": doc.schemas.map { schema in
                [
                    "name": schema.name, "description": schema.description, "type": schema.type,
                    "properties": schema.properties.map(Self.field), "hasProperties": !schema.properties.isEmpty,
                ] as [String: Any]
            },
        ]
        return try await pages.render("api", values, for: visitor, section: "api")
    }

    private static func field(_ field: APIDocumentation.Field) -> [String: Any] {
        [
            "name": field.name, "location": field.location, "type": field.type, "required": field.required,
            "description": field.description,
        ]
    }
}
