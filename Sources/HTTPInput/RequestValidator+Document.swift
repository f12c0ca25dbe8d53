import Foundation
import HTTPTypes
import InputRules

/// How the validator reads openapi.yaml: each operation's parameters and body schema, with
/// `$ref`s resolved and `allOf` merged.
extension RequestValidator {
    // MARK: Reading the document

    /// The operations of a parsed document; strings of the given formats are checked by them.
    public init(document: [String: Any], formats: [String: FormatCheck] = [:]) throws {
        self.formats = formats
        let components = document["components"] as? [String: Any] ?? [:]
        var operations: [String: Operation] = [:]
        for (path, item) in document["paths"] as? [String: Any] ?? [:] {
            guard let item = item as? [String: Any] else { continue }
            let shared = item["parameters"] as? [Any] ?? []
            for (methodName, value) in item {
                guard let method = HTTPRequest.Method(methodName.uppercased()),
                    ["GET", "PUT", "POST", "PATCH", "DELETE"].contains(method.rawValue),
                    let operation = value as? [String: Any]
                else { continue }
                var query: [Parameter] = []
                var pathParameters: [Parameter] = []
                var headers: [Parameter] = []
                for raw in shared + (operation["parameters"] as? [Any] ?? []) {
                    guard let parameter = Self.resolve(raw, components) as? [String: Any],
                        let name = parameter["name"] as? String
                    else { continue }
                    let schema = try Self.schema(parameter["schema"], components)
                    let entry = Parameter(name: name, schema: schema, required: parameter["required"] as? Bool ?? false)
                    switch parameter["in"] as? String {
                    case "query": query.append(entry)
                    case "path": pathParameters.append(entry)
                    case "header": headers.append(entry)
                    default: break
                    }
                }
                var body: Schema?
                var bodyRequired = false
                if let requestBody = Self.resolve(operation["requestBody"] as Any, components) as? [String: Any],
                    let content = requestBody["content"] as? [String: Any],
                    let json = content["application/json"] as? [String: Any]
                {
                    body = try Self.schema(json["schema"], components)
                    bodyRequired = requestBody["required"] as? Bool ?? false
                }
                operations["\(method.rawValue) \(path)"] = Operation(
                    template: path, method: method, body: body, bodyRequired: bodyRequired, query: query,
                    path: pathParameters, headers: headers)
            }
        }
        self.operations = operations
    }

    private static func resolve(_ node: Any, _ components: [String: Any]) -> Any {
        guard let object = node as? [String: Any], let reference = object["$ref"] as? String,
            reference.hasPrefix("#/components/")
        else { return node }
        var current: Any? = components
        for part in reference.dropFirst("#/components/".count).split(separator: "/") {
            current = (current as? [String: Any])?[String(part)]
        }
        return current.map { resolve($0, components) } ?? node
    }

    private static func schema(_ node: Any?, _ components: [String: Any]) throws -> Schema {
        guard let node, let object = resolve(node, components) as? [String: Any] else { return .any }
        var types: [String] = []
        if let type = object["type"] as? String { types = [type] }
        if let list = object["type"] as? [Any] { types = list.compactMap { $0 as? String } }
        let nullable = types.contains("null")
        types.removeAll { $0 == "null" }
        func number(_ key: String) -> Double? {
            (object[key] as? Int).map(Double.init) ?? object[key] as? Double
        }
        let schema: Schema
        switch types.first {
        case "object":
            var properties: [String: Schema] = [:]
            for (name, value) in object["properties"] as? [String: Any] ?? [:] {
                properties[name] = try self.schema(value, components)
            }
            schema = .object(
                properties: properties, required: Set(object["required"] as? [String] ?? []),
                closed: object["additionalProperties"] as? Bool == false)
        case "array":
            schema = .array(
                items: try self.schema(object["items"], components), minItems: object["minItems"] as? Int,
                maxItems: object["maxItems"] as? Int)
        case "string":
            var pattern: Pattern?
            if let source = object["pattern"] as? String {
                pattern = Pattern(
                    expression: try NSRegularExpression(pattern: source), source: source,
                    message: object["x-pattern-message"] as? String)
            }
            schema = .string(
                minLength: object["minLength"] as? Int, maxLength: object["maxLength"] as? Int, pattern: pattern,
                values: (object["enum"] as? [Any])?.compactMap { $0 as? String }, format: object["format"] as? String,
                multiline: object["x-multiline"] as? Bool ?? false)
        case "integer":
            schema = .integer(minimum: number("minimum"), maximum: number("maximum"))
        case "number":
            schema = .number(minimum: number("minimum"), maximum: number("maximum"))
        case "boolean":
            schema = .boolean
        default:
            schema = .any
        }
        return nullable ? .nullable(schema) : schema
    }
}
