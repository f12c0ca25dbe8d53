import CampusAPI
import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Ink
import NIOConcurrencyHelpers
import Yams

/// The OpenAPI document, as served (`/openapi.yaml`, `/openapi.json`) and as a readable page (`/api`).
struct APIDocumentation: Sendable {
    let yaml: String
    /// The document as JSON with sorted keys: the bundled one's made at build time, another's when
    /// first asked for (Foundation's JSONSerialization sorts keys with ICU's collation, which would
    /// otherwise load megabytes of ICU into every server at start).
    var json: Data {
        get throws {
            try jsonBox.withLockedValue { json in
                if let json { return json }
                guard let document = try YAMLValues.compose(yaml).map(YAMLValues.value) else {
                    throw DocumentationError.empty
                }
                let made = try JSONSerialization.data(
                    withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
                json = made
                return made
            }
        }
    }
    private let jsonBox: NIOLockedValueBox<Data?>
    /// Values for the `api` template: operations grouped by tag, and schemas; made when the page
    /// is first asked for (its descriptions are Markdown made HTML: a sixth of the start's CPU).
    var page: PageValues {
        pageBox.withLockedValue { page in
            if let page { return page }
            let made = ((try? YAMLValues.compose(yaml)) ?? nil).map(Self.pageValues) ?? PageValues(version: version)
            page = made
            return made
        }
    }
    private let pageBox = NIOLockedValueBox<PageValues?>(nil)
    /// The document's `info.version`.
    let version: String
    /// Checks requests against the document's schemas.
    let validator: RequestValidator
    /// What each operation's `x-campus-…` extensions say about its route, by `METHOD /path`.
    let routeProperties: [String: RouteProperties]
    /// The query parameters of the cached operations (the response cache's keys hold only these).
    let cachedQueryParameters: Set<String>

    /// The properties of an operation's route: an API route, with what openapi.yaml declares.
    func properties(_ method: HTTPRequest.Method, _ path: String) -> RouteProperties {
        routeProperties["\(method.rawValue) \(path)"] ?? RouteProperties(kind: .api)
    }

    struct PageValues: Sendable {
        var title = "API"
        var version: String
        var description = ""
        var tags: [Tag] = []
        var schemas: [Schema] = []
    }

    struct Tag: Sendable {
        var name: String
        var description: String
        var operations: [Operation]
    }

    struct Operation: Sendable {
        var id: String
        var method: String
        var path: String
        var summary: String
        var description: String
        var needsLogin: Bool
        var parameters: [Field]
        var requestBody: String?
        var responses: [Response]
    }

    struct Response: Sendable {
        var status: String
        var description: String
        var body: String?
    }

    struct Field: Sendable {
        var name: String
        var location: String
        var type: String
        var required: Bool
        var description: String
    }

    struct Schema: Sendable {
        var name: String
        var description: String
        var type: String
        var properties: [Field]
    }

    /// The document shipped with the CampusAPI module, read from its JSON form (made from the YAML
    /// at build time: reading the YAML was the longest step of the start); date-times are checked
    /// as days of the institution's time zone.
    static func bundled(timeZone: TimeZone = .gmt) throws -> APIDocumentation {
        let json = try CampusAPIDocument.json()
        guard let document = try Self.values(json: json) as? [String: Any] else { throw DocumentationError.empty }
        return try APIDocumentation(yaml: CampusAPIDocument.yaml(), document: document, json: json, timeZone: timeZone)
    }

    /// Reads the document once for the request validator and the routes' properties; the page and
    /// the JSON form are made when first asked for.
    init(yaml: String, timeZone: TimeZone = .gmt) throws {
        guard let document = try YAMLValues.compose(yaml).map(YAMLValues.value) as? [String: Any] else {
            throw DocumentationError.empty
        }
        try self.init(yaml: yaml, document: document, json: nil, timeZone: timeZone)
    }

    private init(yaml: String, document: [String: Any], json: Data?, timeZone: TimeZone) throws {
        self.yaml = yaml
        self.jsonBox = NIOLockedValueBox(json)
        self.version = (document["info"] as? [String: Any])?["version"] as? String ?? ""
        self.validator = try RequestValidator(document: document, formats: APIFormats.checks(timeZone: timeZone))
        self.routeProperties = Self.routeProperties(document)
        self.cachedQueryParameters = Self.cachedQueryParameters(document)
    }

    /// A JSON document's values as YAML's reading gives them: Foundation reads every number and
    /// boolean as an `NSNumber` (which casts to `Int` and `Bool` alike), so each becomes a `Bool`,
    /// an `Int` or a `Double` by what it was written as.
    static func values(json: Data) throws -> Any {
        func typed(_ value: Any) -> Any {
            if let object = value as? [String: Any] { return object.mapValues(typed) }
            if let array = value as? [Any] { return array.map(typed) }
            guard !(value is String), let number = value as? NSNumber else { return value }
            switch number.objCType.pointee {
            case CChar(UInt8(ascii: "c")), CChar(UInt8(ascii: "B")): return number.boolValue
            case CChar(UInt8(ascii: "d")), CChar(UInt8(ascii: "f")): return number.doubleValue
            default: return number.intValue
            }
        }
        return typed(try JSONSerialization.jsonObject(with: json))
    }

    enum DocumentationError: Error { case empty }

    /// `x-campus-cache: timetable`, `x-campus-body-limit: BYTES` and `x-campus-fast-path: NAME`
    /// of every operation.
    private static func routeProperties(_ document: [String: Any]) -> [String: RouteProperties] {
        var result: [String: RouteProperties] = [:]
        for (path, item) in document["paths"] as? [String: Any] ?? [:] {
            for (method, value) in item as? [String: Any] ?? [:] {
                guard let operation = value as? [String: Any], operation["operationId"] != nil else { continue }
                result["\(method.uppercased()) \(path)"] = RouteProperties(
                    kind: .api, bodyLimit: operation["x-campus-body-limit"] as? Int ?? RouteProperties.defaultBodyLimit,
                    cached: operation["x-campus-cache"] as? String == "timetable",
                    fastPath: (operation["x-campus-fast-path"] as? String).map(FastOperationName.init(rawValue:)))
            }
        }
        return result
    }

    /// The query parameters of the operations whose answers are cached (`x-campus-cache`): the
    /// response cache keys answers by these alone.
    private static func cachedQueryParameters(_ document: [String: Any]) -> Set<String> {
        let shared = (document["components"] as? [String: Any])?["parameters"] as? [String: Any] ?? [:]
        func resolved(_ parameter: Any) -> [String: Any]? {
            guard let parameter = parameter as? [String: Any] else { return nil }
            if let reference = parameter["$ref"] as? String {
                return shared[String(reference.split(separator: "/").last ?? "")] as? [String: Any]
            }
            return parameter
        }
        var names: Set<String> = []
        for (_, item) in document["paths"] as? [String: Any] ?? [:] {
            guard let item = item as? [String: Any] else { continue }
            let common = item["parameters"] as? [Any] ?? []
            for (_, value) in item {
                guard let operation = value as? [String: Any], operation["x-campus-cache"] as? String == "timetable"
                else { continue }
                for parameter in (common + (operation["parameters"] as? [Any] ?? [])).compactMap(resolved)
                where parameter["in"] as? String == "query" {
                    if let name = parameter["name"] as? String { names.insert(name) }
                }
            }
        }
        return names
    }

    // MARK: Reading the document

    private static func pageValues(_ root: Node) -> PageValues {
        let info = root["info"]
        let components = root["components"]
        var tagOrder: [String] = []
        var tagDescriptions: [String: String] = [:]
        for tag in root["tags"]?.sequence ?? [] {
            let name = tag["name"]?.string ?? ""
            tagOrder.append(name)
            tagDescriptions[name] = tag["description"]?.string ?? ""
        }
        var byTag: [String: [Operation]] = [:]
        let methods = ["get", "put", "post", "patch", "delete", "head"]
        for (pathNode, item) in root["paths"]?.mapping ?? [:] {
            let path = pathNode.string ?? ""
            for (methodNode, operation) in item.mapping ?? [:] {
                guard let method = methodNode.string, methods.contains(method) else { continue }
                let parameters = (operation["parameters"]?.sequence ?? []).map { parameter in
                    let resolved = resolve(parameter, in: components)
                    return Field(
                        name: resolved["name"]?.string ?? "", location: resolved["in"]?.string ?? "",
                        type: typeSummary(resolved["schema"]),
                        required: resolved["required"].map(YAMLValues.value) as? Bool ?? false,
                        description: resolved["description"]?.string ?? "")
                }
                var requestBody: String?
                if let content = operation["requestBody"]?["content"]?.mapping {
                    requestBody = content.map { type, media in
                        "\(type.string ?? "") \(typeSummary(media["schema"]))"
                    }.joined(separator: " | ")
                }
                let responses = (operation["responses"]?.mapping ?? [:]).map { status, response in
                    let resolved = resolve(response, in: components)
                    let body = resolved["content"]?.mapping?.map { type, media in
                        "\(type.string ?? "") \(typeSummary(media["schema"]))"
                    }.joined(separator: " | ")
                    return Response(
                        status: status.string ?? "", description: resolved["description"]?.string ?? "", body: body)
                }
                let tag = operation["tags"]?.sequence?.first?.string ?? "Other"
                let security = operation["security"]?.sequence ?? []
                byTag[tag, default: []].append(
                    Operation(
                        id: operation["operationId"]?.string ?? "",
                        method: method.uppercased(), path: path,
                        summary: operation["summary"]?.string ?? "",
                        description: html(operation["description"]?.string),
                        needsLogin: !security.isEmpty && security.contains { !($0.mapping?.isEmpty ?? true) },
                        parameters: parameters, requestBody: requestBody, responses: responses))
            }
        }
        for tag in byTag.keys where !tagOrder.contains(tag) { tagOrder.append(tag) }
        let tags = tagOrder.compactMap { name -> Tag? in
            guard let operations = byTag[name] else { return nil }
            return Tag(name: name, description: html(tagDescriptions[name]), operations: operations)
        }
        let schemas = (components?["schemas"]?.mapping ?? [:]).map { name, schema in
            let required = Set((schema["required"]?.sequence ?? []).compactMap(\.string))
            let properties = (schema["properties"]?.mapping ?? [:]).map { property, value in
                Field(
                    name: property.string ?? "", location: "", type: typeSummary(value),
                    required: required.contains(property.string ?? ""),
                    description: value["description"]?.string ?? "")
            }
            return Schema(
                name: name.string ?? "", description: html(schema["description"]?.string),
                type: properties.isEmpty ? typeSummary(schema) : "object", properties: properties)
        }
        return PageValues(
            title: info?["title"]?.string ?? "API", version: info?["version"]?.string ?? "",
            description: html(info?["description"]?.string), tags: tags, schemas: schemas)
    }

    /// Follows a local `$ref` (one level).
    private static func resolve(_ node: Node, in components: Node?) -> Node {
        guard let reference = node["$ref"]?.string, reference.hasPrefix("#/components/") else { return node }
        let parts = reference.dropFirst("#/components/".count).split(separator: "/").map(String.init)
        var current = components
        for part in parts { current = current?[part] }
        return current ?? node
    }

    /// Descriptions are CommonMark; the page shows them as HTML. The document is ours, so its
    /// HTML is trusted.
    private static func html(_ markdown: String?) -> String {
        guard let markdown, !markdown.isEmpty else { return "" }
        return MarkdownParser().html(from: markdown)
    }

    /// A short description of a schema: `User`, `string (email, ≤ 254)`, `list of User`, `one of a | b`.
    private static func typeSummary(_ schema: Node?) -> String {
        guard let schema else { return "" }
        if let reference = schema["$ref"]?.string {
            return String(reference.split(separator: "/").last ?? "")
        }
        if let values = schema["enum"]?.sequence {
            return "one of " + values.compactMap(\.string).joined(separator: " | ")
        }
        let type = schema["type"]?.string ?? "any"
        if type == "array" { return "list of " + typeSummary(schema["items"]) }
        var notes: [String] = []
        if let format = schema["format"]?.string { notes.append(format) }
        let lower = schema["minimum"]?.string ?? schema["minLength"]?.string
        let upper = schema["maximum"]?.string ?? schema["maxLength"]?.string
        switch (lower, upper) {
        case (let lower?, let upper?): notes.append("\(lower)–\(upper)")
        case (let lower?, nil): notes.append("≥ \(lower)")
        case (nil, let upper?): notes.append("≤ \(upper)")
        default: break
        }
        if let value = schema["default"]?.string { notes.append("default \(value)") }
        return notes.isEmpty ? type : "\(type) (\(notes.joined(separator: ", ")))"
    }
}

extension Node {
    fileprivate subscript(_ key: String) -> Node? {
        mapping?[key]
    }
}
