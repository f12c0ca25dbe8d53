import Foundation
import HTTPTypes
import InputRules
import Localization

/// Checks each API request against the schemas of openapi.yaml before the generated code decodes
/// it: types, required fields, `null`, string lengths (in code points, as JSON Schema counts),
/// patterns, number ranges and enumerations of the JSON body, the query and the path. The
/// document is the contract; this makes the server keep it, with one message per broken field.
/// Rules that need the database or several fields at once stay with the handlers.
public struct RequestValidator: Sendable {
    /// Checks a string of a `format` (`date`, `date-time`, `email` …): nil when it is fine, else
    /// the problem, said of the field named `name`. The server says which formats it knows.
    public typealias FormatCheck = @Sendable (_ text: String, _ field: String, _ name: String) -> FieldProblem?

    indirect enum Schema: Sendable {
        /// `closed`: the document says `additionalProperties: false`, so a field it does not
        /// name is refused here, in words, rather than by the generated decoder's English.
        case object(properties: [String: Schema], required: Set<String>, closed: Bool)
        case array(items: Schema, minItems: Int?, maxItems: Int?)
        case string(
            minLength: Int?, maxLength: Int?, pattern: Pattern?, values: [String]?, format: String?, multiline: Bool)
        case integer(minimum: Double?, maximum: Double?)
        case number(minimum: Double?, maximum: Double?)
        case boolean
        case nullable(Schema)
        case any
    }

    /// A compiled `pattern`, with what it asks for in words (`x-pattern-message`).
    struct Pattern: @unchecked Sendable {
        // NSRegularExpression is immutable and documented as safe to share between threads.
        let expression: NSRegularExpression
        let source: String
        let message: String?

        func matches(_ text: String) -> Bool {
            expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    struct Parameter: Sendable {
        var name: String
        var schema: Schema
        var required: Bool
    }

    public struct Operation: Sendable {
        /// The path as openapi.yaml writes it: `/api/v1/groups/{name}/schedule`.
        public var template: String
        public var method: HTTPRequest.Method
        var body: Schema?
        public var hasBody: Bool { body != nil }
        var bodyRequired: Bool
        var query: [Parameter]
        var path: [Parameter]
        var headers: [Parameter]
        /// The names of the header parameters, as openapi.yaml writes them.
        public var headerNames: [String] { headers.map(\.name) }
    }

    /// Operations by method and template: `GET /api/v1/groups/{name}`.
    let operations: [String: Operation]
    let formats: [String: FormatCheck]

    // MARK: Checking requests

    /// The operation of a method and path template (the route the router matched), if the
    /// document defines it.
    public func operation(method: HTTPRequest.Method, template: String) -> Operation? {
        operations["\(method.rawValue) \(template)"]
    }

    /// Checks the path parameters (as the router found them, percent-decoded), the query and the
    /// header parameters (by name) of a request.
    public func checkParameters(
        of operation: Operation, path: [String: String], query: [String: [String]], headers: [String: String] = [:]
    ) throws(ValidationFailure) {
        var problems: [FieldProblem] = []
        for parameter in operation.path {
            if let value = path[parameter.name] { check(text: value, parameter.schema, parameter.name, &problems) }
        }
        for parameter in operation.headers {
            if let value = headers[parameter.name] {
                check(text: value, parameter.schema, parameter.name, &problems)
            } else if parameter.required {
                problems.append(
                    FieldProblem(field: parameter.name, detail: "{field} is required.", ["field": parameter.name]))
            }
        }
        for parameter in operation.query {
            if let values = query[parameter.name], !values.isEmpty {
                if case .array(let items, let minItems, let maxItems) = parameter.schema {
                    if let maxItems, values.count > maxItems {
                        problems.append(
                            FieldProblem(
                                field: parameter.name, detail: "{field} is given at most {maximum} times.",
                                ["field": parameter.name, "maximum": String(maxItems)]))
                    }
                    if let minItems, values.count < minItems {
                        problems.append(
                            FieldProblem(
                                field: parameter.name, detail: "{field} is given at least {minimum} times.",
                                ["field": parameter.name, "minimum": String(minItems)]))
                    }
                    for value in values { check(text: value, items, parameter.name, &problems) }
                } else {
                    if values.count > 1 {
                        problems.append(
                            FieldProblem(
                                field: parameter.name, detail: "{field} is given more than once.",
                                ["field": parameter.name]))
                    }
                    check(text: values[values.count - 1], parameter.schema, parameter.name, &problems)
                }
            } else if parameter.required {
                problems.append(
                    FieldProblem(field: parameter.name, detail: "{field} is required.", ["field": parameter.name]))
            }
        }
        if !problems.isEmpty { throw ValidationFailure(problems) }
    }

    /// Checks a JSON body: a ``Refusal`` (malformed, a 400) when it is not JSON at all, ``ValidationFailure`` when
    /// a field breaks the document.
    public func checkBody(of operation: Operation, _ data: Data) throws {
        guard let schema = operation.body else { return }
        if data.isEmpty {
            if operation.bodyRequired { throw Refusal.malformed("This request needs a JSON body.") }
            return
        }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            if let number = Self.unrepresentableNumber(in: data) { throw Self.numberProblem(number) }
            // The reason is the JSON parser's own words.
            throw Refusal.malformed("The request body is not valid JSON: {reason}", ["reason": Self.reason(error)])
        }
        if let number = Self.unrepresentableNumber(in: data) { throw Self.numberProblem(number) }
        var problems: [FieldProblem] = []
        check(value, schema, "", &problems)
        if !problems.isEmpty { throw ValidationFailure(problems) }
    }

    private static func reason(_ error: any Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        return text.hasSuffix(".") ? text : text + "."
    }

    /// A parameter arrives as text; it is checked as the value its schema describes.
    private func check(text: String, _ schema: Schema, _ field: String, _ problems: inout [FieldProblem]) {
        switch schema {
        case .integer(let minimum, let maximum):
            guard let integer = Int64(text) else {
                problems.append(FieldProblem(field: field, detail: "{field} must be a whole number.", ["field": field]))
                return
            }
            Self.checkRange(
                NSNumber(value: integer), isInteger: true, minimum: minimum, maximum: maximum, field, &problems)
        case .number(let minimum, let maximum):
            guard let number = Double(text), number.isFinite else {
                problems.append(FieldProblem(field: field, detail: "{field} must be a number.", ["field": field]))
                return
            }
            Self.checkRange(
                NSNumber(value: number), isInteger: false, minimum: minimum, maximum: maximum, field, &problems)
        case .boolean:
            guard text == "true" || text == "false" else {
                problems.append(FieldProblem(field: field, detail: "{field} must be true or false.", ["field": field]))
                return
            }
        case .nullable(let inner):
            check(text: text, inner, field, &problems)
        default:
            check(text, schema, field, &problems)
        }
    }

    /// The name of a field in a message: the field's path, or "The request body" for the body
    /// itself (the field ""). Every body of openapi.yaml is an object, so the body itself can only
    /// be null or not an object, and those two say so in sentences of their own (``said(of:_:body:)``);
    /// the other messages take this name as `{field}` and meet "The request body" only if a
    /// body of another type is ever added.
    private static func describe(_ field: String) -> String { field.isEmpty ? "The request body" : field }

    /// `named` for a field, `body` for the request body itself (the field ""): whole sentences each.
    private static func said(of field: String, _ named: FieldProblem, body: FieldProblem) -> FieldProblem {
        field.isEmpty ? body : named
    }

    /// The most unknown fields of one object a refusal names.
    static let unknownFieldsNamed = 5

    /// A field's name as a sender wrote it, shortened and without control characters, for a
    /// message that names a field the document does not.
    private static func fieldName(_ text: String) -> String {
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars.prefix(100) {
            cleaned.append(TextRules.isControl(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(cleaned) + (text.unicodeScalars.count > 100 ? "…" : "")
    }

    private func check(_ value: Any, _ schema: Schema, _ field: String, _ problems: inout [FieldProblem]) {
        let name = Self.describe(field)
        if value is NSNull {
            if case .nullable = schema { return }
            if case .any = schema { return }
            problems.append(
                Self.said(
                    of: field, FieldProblem(field: field, detail: "{field} must not be null.", ["field": field]),
                    body: FieldProblem(field: field, detail: "The request body must not be null.")))
            return
        }
        switch schema {
        case .any:
            return
        case .nullable(let inner):
            check(value, inner, field, &problems)
        case .object(let properties, let required, let closed):
            guard let object = value as? [String: Any] else {
                problems.append(
                    Self.said(
                        of: field,
                        FieldProblem(field: field, detail: "{field} must be a JSON object.", ["field": field]),
                        body: FieldProblem(field: field, detail: "The request body must be a JSON object.")))
                return
            }
            for key in required.sorted() where object[key] == nil {
                let path = field.isEmpty ? key : "\(field).\(key)"
                problems.append(FieldProblem(field: path, detail: "{field} is required.", ["field": path]))
            }
            for (key, property) in properties.sorted(by: { $0.key < $1.key }) {
                if let item = object[key] { check(item, property, field.isEmpty ? key : "\(field).\(key)", &problems) }
            }
            if closed {
                let known = properties.keys.sorted().joined(separator: ", ")
                for key in object.keys.filter({ properties[$0] == nil }).sorted().prefix(Self.unknownFieldsNamed) {
                    let path = Self.fieldName(field.isEmpty ? key : "\(field).\(key)")
                    problems.append(
                        FieldProblem(
                            field: path, detail: "{field} is not a field of this request; it takes {fields}.",
                            ["field": path, "fields": known]))
                }
            }
        case .array(let items, let minItems, let maxItems):
            guard let array = value as? [Any] else {
                problems.append(FieldProblem(field: field, detail: "{field} must be a list.", ["field": name]))
                return
            }
            if let minItems, array.count < minItems {
                problems.append(
                    FieldProblem(
                        field: field, detail: "{field} needs at least {minimum} item(s).",
                        ["field": name, "minimum": String(minItems)]))
            }
            if let maxItems, array.count > maxItems {
                problems.append(
                    FieldProblem(
                        field: field, detail: "{field} has at most {maximum} items.",
                        ["field": name, "maximum": String(maxItems)]))
            }
            for (index, item) in array.enumerated() { check(item, items, "\(field)[\(index)]", &problems) }
        case .string(let minLength, let maxLength, let pattern, let values, let format, let multiline):
            guard let text = value as? String else {
                problems.append(FieldProblem(field: field, detail: "{field} must be a string.", ["field": name]))
                return
            }
            let length = text.unicodeScalars.count
            if let values, !values.contains(text) {
                problems.append(
                    FieldProblem(
                        field: field, detail: "{field} must be one of: {values}.",
                        ["field": name, "values": values.joined(separator: ", ")]))
            } else if minLength == 1, length < 1 {
                problems.append(FieldProblem(field: field, detail: "{field} must not be empty.", ["field": name]))
            } else if let minLength, length < minLength {
                problems.append(
                    FieldProblem(
                        field: field, detail: "{field} needs at least {minimum} characters.",
                        ["field": name, "minimum": String(minLength)]))
            } else if let maxLength, length > maxLength {
                problems.append(
                    FieldProblem(
                        field: field, detail: "{field} has at most {maximum} characters.",
                        ["field": name, "maximum": String(maxLength)]))
            } else if let control = TextRules.firstControl(in: text, multiline: multiline) {
                problems.append(
                    FieldProblem(
                        field: field,
                        detail: "{field} contains a control character ({codePoint}), which is not allowed.",
                        ["field": name, "codePoint": TextRules.codePoint(control)]))
            } else if let format, let checker = formats[format], let problem = checker(text, field, name) {
                // The format says more than a pattern can (a date like 2023-09-25), so it goes first.
                problems.append(problem)
            } else if let pattern, !pattern.matches(text) {
                problems.append(Self.patternProblem(pattern, field: field, name: name))
            }
        case .integer(let minimum, let maximum), .number(let minimum, let maximum):
            var isInteger = false
            if case .integer = schema { isInteger = true }
            guard let number = value as? NSNumber, !Self.isBoolean(value) else {
                problems.append(
                    isInteger
                        ? FieldProblem(field: field, detail: "{field} must be a whole number.", ["field": name])
                        : FieldProblem(field: field, detail: "{field} must be a number.", ["field": name]))
                return
            }
            Self.checkRange(number, isInteger: isInteger, minimum: minimum, maximum: maximum, field, &problems)
        case .boolean:
            if !Self.isBoolean(value) {
                problems.append(FieldProblem(field: field, detail: "{field} must be true or false.", ["field": name]))
            }
        }
    }

    /// Whole numbers are compared as 64-bit integers, so that large ids keep every digit.
    private static func checkRange(
        _ number: NSNumber, isInteger: Bool, minimum: Double?, maximum: Double?, _ field: String,
        _ problems: inout [FieldProblem]
    ) {
        let name = describe(field)
        let type = String(cString: number.objCType)
        let isWhole = type != "d" && type != "f"
        if isInteger && !isWhole {
            let double = number.doubleValue
            guard double.isFinite, double.rounded() == double, abs(double) < 9.2e18 else {
                problems.append(
                    FieldProblem(
                        field: field, detail: "{field} must be a whole number between -2⁶³ and 2⁶³.", ["field": name]))
                return
            }
        }
        let tooSmall: Bool
        let tooLarge: Bool
        if isWhole {
            let integer = number.int64Value
            tooSmall = minimum.map { Double(integer) < $0 } ?? false
            tooLarge = maximum.map { Double(integer) > $0 } ?? false
        } else {
            let double = number.doubleValue
            guard double.isFinite else {
                problems.append(FieldProblem(field: field, detail: "{field} must be a finite number.", ["field": name]))
                return
            }
            tooSmall = minimum.map { double < $0 } ?? false
            tooLarge = maximum.map { double > $0 } ?? false
        }
        if tooSmall, let minimum {
            problems.append(
                FieldProblem(
                    field: field, detail: "{field} must be at least {minimum}.",
                    ["field": name, "minimum": format(minimum)]))
        } else if tooLarge, let maximum {
            problems.append(
                FieldProblem(
                    field: field, detail: "{field} must be at most {maximum}.",
                    ["field": name, "maximum": format(maximum)]))
        }
    }

    /// The problem of a text that does not match the field's `pattern`: the sentence its
    /// `x-pattern-message` makes ("{field} must be a colour like #1e88e5."), which
    /// scripts/extract-messages takes from openapi.yaml into the catalogue, else the pattern.
    private static func patternProblem(_ pattern: Pattern, field: String, name: String) -> FieldProblem {
        guard let words = pattern.message else {
            return FieldProblem(
                field: field, detail: "{field} does not have the form this field needs ({pattern}).",
                ["field": name, "pattern": pattern.source])
        }
        let sentence = "{field} \(words)."
        return FieldProblem(field: field, detail: sentence, ["field": name])
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// JSONSerialization gives both numbers and booleans as NSNumber (`Any is Bool` holds for
    /// 1 as well); a boolean is the one whose type encoding is `c` (char).
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

}
