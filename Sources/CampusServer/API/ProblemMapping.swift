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
        case let failure as ValidationFailure:
            self = .invalid(failure)
        case let field as FieldProblem:
            self = .invalid(field)
        case let malformed as RequestValidator.Malformed:
            self = .badRequest(malformed.detail)
        case let date as RFC3339DateTranscoder.Invalid:
            self = Problem(.unprocessableContent, detail: date.description)
        case let failure as CompeteValidationError:
            self = .invalid(ValidationFailure(failure.errors.map { FieldProblem(field: $0.field, detail: $0.detail) }))
        case let field as CompeteFieldError:
            self = .invalid(FieldProblem(field: field.field, detail: field.detail))
        case StoreError.emailTaken:
            self = .conflict("An account with this email address exists already. Log in, or reset its password.")
        case let error as ServerError:
            // Errors from the generated OpenAPI code: the request did not fit the document.
            if let inner = Problem(describing: error.underlyingError) {
                self = inner
            } else if (400..<500).contains(error.httpStatus.code) {
                self = Problem(error.httpStatus, detail: Self.sentence(error.causeDescription))
            } else {
                return nil
            }
        case let error as DecodingError:
            self = Self.decoding(error)
        case let error as HTTPError:
            guard (400..<500).contains(error.status.code) else { return nil }
            self = Problem(error.status, detail: error.body ?? error.status.reasonPhrase, headers: error.headers)
        default:
            return nil
        }
    }

    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
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
            if context.codingPath.isEmpty {
                return .badRequest("The request body is not valid JSON: \(context.debugDescription)")
            }
            let field = path(context.codingPath)
            return .invalid(
                FieldProblem(field: field, detail: "\(field) has an invalid value: \(context.debugDescription)"))
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .invalid(FieldProblem(field: field, detail: "\(field) is required."))
        case .valueNotFound(_, let context):
            let field = path(context.codingPath)
            return .invalid(FieldProblem(field: field, detail: "\(field) must not be null."))
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            let expected: String
            switch type {
            case is String.Type: expected = "a string"
            case is Bool.Type: expected = "true or false"
            case is Int.Type, is Int64.Type, is Int32.Type: expected = "a whole number"
            case is Double.Type, is Float.Type: expected = "a number"
            default: expected = "\(type)".contains("Array") ? "a list" : "an object"
            }
            let name = field.isEmpty ? "The request body" : field
            return .invalid(FieldProblem(field: field, detail: "\(name) must be \(expected)."))
        @unknown default:
            return .badRequest("The request body could not be read.")
        }
    }
}
