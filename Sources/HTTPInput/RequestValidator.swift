import Foundation
import HTTPTypes
import InputRules

/// Checks each API request against the schemas of openapi.yaml before the generated code decodes
/// it: types, required fields, `null`, string lengths (in code points, as JSON Schema counts),
/// patterns, number ranges and enumerations of the JSON body, the query and the path. The
/// document is the contract; this makes the server keep it, with one message per broken field.
/// Rules that need the database or several fields at once stay with the handlers.
public struct RequestValidator: Sendable {
    /// Checks a string of a `format` (`date`, `date-time`, `email` …): nil when it is fine, else
    /// the problem, said of the field named `name`. The server says which formats it knows.
    public typealias FormatCheck = @Sendable (_ text: String, _ field: String, _ name: String) -> FieldProblem?

    /// A request the server cannot read at all (no body where one is needed, a body that is not
    /// JSON): a 400, unlike the 422 of a ``ValidationFailure``.
    public struct Malformed: Error, Sendable, Equatable {
        public var detail: String
    }

    indirect enum Schema: Sendable {
        case object(properties: [String: Schema], required: Set<String>)
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

    /// Checks the path parameters (as the router found them, percent-decoded) and the query of a
    /// request.
    public func checkParameters(of operation: Operation, path: [String: String], query: [String: [String]])
        throws(ValidationFailure)
    {
        var problems: [FieldProblem] = []
        for parameter in operation.path {
            if let value = path[parameter.name] { check(text: value, parameter.schema, parameter.name, &problems) }
        }
        for parameter in operation.query {
            if let values = query[parameter.name], !values.isEmpty {
                if case .array(let items, let minItems, let maxItems) = parameter.schema {
                    if let maxItems, values.count > maxItems {
                        problems.append(
                            FieldProblem(
                                field: parameter.name, detail: "\(parameter.name) is given at most \(maxItems) times."))
                    }
                    if let minItems, values.count < minItems {
                        problems.append(
                            FieldProblem(
                                field: parameter.name, detail: "\(parameter.name) is given at least \(minItems) times.")
                        )
                    }
                    for value in values { check(text: value, items, parameter.name, &problems) }
                } else {
                    if values.count > 1 {
                        problems.append(
                            FieldProblem(field: parameter.name, detail: "\(parameter.name) is given more than once."))
                    }
                    check(text: values[values.count - 1], parameter.schema, parameter.name, &problems)
                }
            } else if parameter.required {
                problems.append(FieldProblem(field: parameter.name, detail: "\(parameter.name) is required."))
            }
        }
        if !problems.isEmpty { throw ValidationFailure(problems) }
    }

    /// Checks a JSON body: ``Malformed`` when it is not JSON at all, ``ValidationFailure`` when
    /// a field breaks the document.
    public func checkBody(of operation: Operation, _ data: Data) throws {
        guard let schema = operation.body else { return }
        if data.isEmpty {
            if operation.bodyRequired { throw Malformed(detail: "This request needs a JSON body.") }
            return
        }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            if let number = Self.unrepresentableNumber(in: data) { throw Self.numberProblem(number) }
            throw Malformed(detail: "The request body is not valid JSON: \(Self.reason(error))")
        }
        if let number = Self.unrepresentableNumber(in: data) { throw Self.numberProblem(number) }
        var problems: [FieldProblem] = []
        check(value, schema, "", &problems)
        if !problems.isEmpty { throw ValidationFailure(problems) }
    }

    /// The first number of a JSON text that a 64-bit floating-point number cannot hold: too large
    /// (`1e400`), or not zero but too close to it (`1e-400`). JSON allows them; Campus cannot
    /// compute with them.
    public static func unrepresentableNumber(in data: Data) -> (text: String, isLarge: Bool)? {
        var inString = false
        var escaped = false
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) else {
                index += 1
                continue
            }
            var end = index
            while end < data.endIndex, Self.numberBytes.contains(data[end]) { end += 1 }
            let token = String(decoding: data[index..<end], as: UTF8.self)
            index = end
            guard token.utf8.count <= 400, let value = Double(token) else { continue }
            if !value.isFinite { return (String(token.prefix(40)), true) }
            let mantissa = token.prefix { $0 != "e" && $0 != "E" }
            if value == 0, mantissa.contains(where: { ("1"..."9").contains($0) }) {
                return (String(token.prefix(40)), false)
            }
        }
        return nil
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)

    private static func numberProblem(_ number: (text: String, isLarge: Bool)) -> ValidationFailure {
        ValidationFailure([
            FieldProblem(
                field: "",
                detail: number.isLarge
                    ? "The number \(number.text) is too large; numbers are at most about 1.8e308."
                    : "The number \(number.text) is too close to zero to be kept (the smallest is about 5e-324); write 0."
            )
        ])
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
                problems.append(FieldProblem(field: field, detail: "\(field) must be a whole number."))
                return
            }
            Self.checkRange(
                NSNumber(value: integer), isInteger: true, minimum: minimum, maximum: maximum, field, &problems)
        case .number(let minimum, let maximum):
            guard let number = Double(text), number.isFinite else {
                problems.append(FieldProblem(field: field, detail: "\(field) must be a number."))
                return
            }
            Self.checkRange(
                NSNumber(value: number), isInteger: false, minimum: minimum, maximum: maximum, field, &problems)
        case .boolean:
            guard text == "true" || text == "false" else {
                problems.append(FieldProblem(field: field, detail: "\(field) must be true or false."))
                return
            }
        case .nullable(let inner):
            check(text: text, inner, field, &problems)
        default:
            check(text, schema, field, &problems)
        }
    }

    private static func describe(_ field: String) -> String { field.isEmpty ? "The request body" : field }

    private func check(_ value: Any, _ schema: Schema, _ field: String, _ problems: inout [FieldProblem]) {
        let name = Self.describe(field)
        if value is NSNull {
            if case .nullable = schema { return }
            if case .any = schema { return }
            problems.append(FieldProblem(field: field, detail: "\(name) must not be null."))
            return
        }
        switch schema {
        case .any:
            return
        case .nullable(let inner):
            check(value, inner, field, &problems)
        case .object(let properties, let required):
            guard let object = value as? [String: Any] else {
                problems.append(FieldProblem(field: field, detail: "\(name) must be a JSON object."))
                return
            }
            for key in required.sorted() where object[key] == nil {
                let path = field.isEmpty ? key : "\(field).\(key)"
                problems.append(FieldProblem(field: path, detail: "\(path) is required."))
            }
            for (key, property) in properties.sorted(by: { $0.key < $1.key }) {
                if let item = object[key] { check(item, property, field.isEmpty ? key : "\(field).\(key)", &problems) }
            }
        case .array(let items, let minItems, let maxItems):
            guard let array = value as? [Any] else {
                problems.append(FieldProblem(field: field, detail: "\(name) must be a list."))
                return
            }
            if let minItems, array.count < minItems {
                problems.append(FieldProblem(field: field, detail: "\(name) needs at least \(minItems) item(s)."))
            }
            if let maxItems, array.count > maxItems {
                problems.append(FieldProblem(field: field, detail: "\(name) has at most \(maxItems) items."))
            }
            for (index, item) in array.enumerated() { check(item, items, "\(field)[\(index)]", &problems) }
        case .string(let minLength, let maxLength, let pattern, let values, let format, let multiline):
            guard let text = value as? String else {
                problems.append(FieldProblem(field: field, detail: "\(name) must be a string."))
                return
            }
            let length = text.unicodeScalars.count
            if let values, !values.contains(text) {
                problems.append(
                    FieldProblem(field: field, detail: "\(name) must be one of: \(values.joined(separator: ", ")).")
                )
            } else if let minLength, length < minLength {
                problems.append(
                    FieldProblem(
                        field: field,
                        detail: minLength == 1
                            ? "\(name) must not be empty." : "\(name) needs at least \(minLength) characters."))
            } else if let maxLength, length > maxLength {
                problems.append(FieldProblem(field: field, detail: "\(name) has at most \(maxLength) characters."))
            } else if let control = TextRules.firstControl(in: text, multiline: multiline) {
                problems.append(
                    FieldProblem(
                        field: field,
                        detail:
                            "\(name) contains a control character (\(TextRules.codePoint(control))), which is not allowed."
                    ))
            } else if let format, let checker = formats[format], let problem = checker(text, field, name) {
                // The format says more than a pattern can (a date like 2023-09-25), so it goes first.
                problems.append(problem)
            } else if let pattern, !pattern.matches(text) {
                problems.append(
                    FieldProblem(
                        field: field,
                        detail:
                            "\(name) \(pattern.message ?? "does not have the form this field needs (\(pattern.source))")."
                    ))
            }
        case .integer(let minimum, let maximum), .number(let minimum, let maximum):
            var isInteger = false
            if case .integer = schema { isInteger = true }
            guard let number = value as? NSNumber, !Self.isBoolean(value) else {
                problems.append(
                    FieldProblem(field: field, detail: "\(name) must be \(isInteger ? "a whole number" : "a number")."))
                return
            }
            Self.checkRange(number, isInteger: isInteger, minimum: minimum, maximum: maximum, field, &problems)
        case .boolean:
            if !Self.isBoolean(value) {
                problems.append(FieldProblem(field: field, detail: "\(name) must be true or false."))
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
                    FieldProblem(field: field, detail: "\(name) must be a whole number between -2⁶³ and 2⁶³."))
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
                problems.append(FieldProblem(field: field, detail: "\(name) must be a finite number."))
                return
            }
            tooSmall = minimum.map { double < $0 } ?? false
            tooLarge = maximum.map { double > $0 } ?? false
        }
        if tooSmall, let minimum {
            problems.append(FieldProblem(field: field, detail: "\(name) must be at least \(format(minimum))."))
        } else if tooLarge, let maximum {
            problems.append(FieldProblem(field: field, detail: "\(name) must be at most \(format(maximum))."))
        }
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
