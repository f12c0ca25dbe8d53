import Accounts
import CampusHTTP
import Compete
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import NIOConcurrencyHelpers
import OpenAPIHummingbird
import OpenAPIRuntime
import Storage

extension Problem {
    /// The problem a client caused, or nil when the error is the server's own.
    init?(describing error: any Error) {
        switch error {
        case let problem as Problem:
            self = problem
        case let refusal as Refusal:
            self = Problem(refusal)
        case let failure as ValidationFailure:
            self = .invalid(failure)
        case let field as FieldProblem:
            self = .invalid(field)
        case let date as RFC3339DateTranscoder.Invalid where date.problem == .outOfRange:
            // The words of `date.description`, as a message to translate.
            self = Problem(
                .unprocessableContent,
                detail: "{field} is outside the dates Campus works with, {firstDay} to {lastDay}.",
                DateRules.rangeValues.merging(["field": "“\(date.text)”"]) { _, new in new })
        case let date as RFC3339DateTranscoder.Invalid:
            self = Problem(
                .unprocessableContent,
                detail:
                    "“{text}” is not an RFC 3339 date-time such as 2026-11-22T09:00:00Z, from {firstDay} to {lastDay}.",
                DateRules.rangeValues.merging(["text": date.text]) { _, new in new })
        case let failure as CompeteValidationError:
            self = .invalid(ValidationFailure(failure.errors.map(\.fieldProblem)))
        case let field as CompeteFieldError:
            self = .invalid(field.fieldProblem)
        case StoreError.emailTaken:
            self = .conflict("An account with this email address exists already. Log in, or reset its password.")
        case let error as ServerError:
            // Errors from the generated OpenAPI code: the request did not fit the document.
            if let inner = Problem(describing: error.underlyingError) {
                self = inner
            } else if error.httpStatus == .unsupportedMediaType {
                self = Self.unreadableBody(error.causeDescription)
            } else if (400..<500).contains(error.httpStatus.code) {
                // The generated code's own words, in English, follow the message.
                self = Problem(
                    error.httpStatus, detail: "The request does not fit this operation: {reason}",
                    ["reason": Self.sentence(error.causeDescription)])
            } else {
                return nil
            }
        case let error as DecodingError:
            self = Self.decoding(error)
        case let error as HTTPError:
            guard (400..<500).contains(error.status.code) else { return nil }
            self = Problem(error.status, detail: error.body ?? error.status.reasonPhrase, headers: error.headers)
        case let broken as BrokenRequestBody:
            self = broken.problem
        default:
            guard let unavailable = DatabaseUnavailable.of(error) else { return nil }
            self = .databaseUnavailable(unavailable)
        }
    }

    /// The database cannot be reached just now: 503, and when to try again. Not logged per
    /// request (the database says once when it is lost and when it answers again).
    static func databaseUnavailable(_ unavailable: DatabaseUnavailable) -> Problem {
        Problem(
            .serviceUnavailable, detail: "The database cannot be reached just now; try again in a moment.",
            headers: [.retryAfter: String(unavailable.retryAfter)])
    }

    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }

    /// A body of a type the operation does not read (415), in words of the catalogue. The
    /// generated code says which types in English ("Unexpected content type, expected:
    /// application/json, received: text/plain"): the types are taken from there as values.
    static func unreadableBody(_ cause: String) -> Problem {
        let lead = "Unexpected content type, expected: "
        guard cause.hasPrefix(lead), let received = cause.range(of: ", received: ") else {
            return Problem.unsupportedMediaType("This operation does not read a body of this content type.")
        }
        let expected = cause[cause.index(cause.startIndex, offsetBy: lead.count)..<received.lowerBound]
        return Problem.unsupportedMediaType(
            "This operation reads {expected}, not {received}: send the body as {expected}.",
            ["expected": String(expected.prefix(100)), "received": String(cause[received.upperBound...].prefix(100))])
    }

    /// Malformed JSON is a 400; a well-formed document with a wrong or missing field is a 422
    /// that names the field.
    static func decoding(_ error: DecodingError) -> Problem {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text
        }
        switch error {
        case .dataCorrupted(let context):
            // The decoder's own words, in English (`debugDescription`), follow the message.
            if context.codingPath.isEmpty {
                return .badRequest("The request body is not valid JSON: {reason}", ["reason": context.debugDescription])
            }
            let field = path(context.codingPath)
            return .invalid(
                FieldProblem(
                    field: field, detail: "{field} has an invalid value: {reason}",
                    ["field": field, "reason": context.debugDescription]))
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .invalid(FieldProblem(field: field, detail: "{field} is required.", ["field": field]))
        case .valueNotFound(_, let context):
            let field = path(context.codingPath)
            return .invalid(FieldProblem(field: field, detail: "{field} must not be null.", ["field": field]))
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            return .invalid(typeMismatch(type, field: field))
        @unknown default:
            return .badRequest("The request body could not be read.")
        }
    }

    /// A field, or the request body itself (the field ""), of another type than the one expected.
    /// Every request body is an object, so the body itself is only ever not an object, a sentence
    /// of its own; a body of another type would take "The request body" as `{field}`.
    private static func typeMismatch(_ type: Any.Type, field: String) -> FieldProblem {
        let values = ["field": field.isEmpty ? "The request body" : field]
        switch type {
        case is String.Type: return FieldProblem(field: field, detail: "{field} must be a string.", values)
        case is Bool.Type: return FieldProblem(field: field, detail: "{field} must be true or false.", values)
        case is Int.Type, is Int64.Type, is Int32.Type:
            return FieldProblem(field: field, detail: "{field} must be a whole number.", values)
        case is Double.Type, is Float.Type:
            return FieldProblem(field: field, detail: "{field} must be a number.", values)
        default:
            if "\(type)".contains("Array") {
                return FieldProblem(field: field, detail: "{field} must be a list.", values)
            }
            if field.isEmpty { return FieldProblem(field: field, detail: "The request body must be an object.") }
            return FieldProblem(field: field, detail: "{field} must be an object.", values)
        }
    }
}
