import Foundation
import PostgresKit
import SQLiteKit

/// An error's words for the log, without what the error carries of the request or the query:
/// PostgreSQL's errors as their code, SQLSTATE and the server's message (never the query or its
/// values, which `String(reflecting:)` would print), SQLite's as its reason and message, decoding
/// errors as their kind and the path of the field. Every error Campus logs is described so, so
/// that no password, token or key that a request or a statement held reaches a log line.
public enum LoggedError {
    /// The words for `error`; `describeOther` describes errors this module does not know (the
    /// server's: OpenAPI's `ServerError`, which prints the whole request, its headers and body).
    public static func text(_ error: any Error, describeOther: ((any Error) -> String?)? = nil) -> String {
        if let other = describeOther?(error) { return other }
        switch error {
        case let error as DatabaseUnavailable:
            return error.description
        case let error as PSQLError:
            var text = "PSQLError(\(error.code)"
            if let state = error.serverInfo?[.sqlState] { text += ", sqlState: \(state)" }
            if let message = error.serverInfo?[.message] { text += ", message: \(message)" }
            if let constraint = error.serverInfo?[.constraintName] { text += ", constraint: \(constraint)" }
            return text + ")"
        case let error as SQLiteError:
            return "SQLiteError(\(error.reason), message: \(error.message))"
        case let error as DecodingError:
            return decoding(error)
        case let error as PostgresDecodingError:
            return "PostgresDecodingError(\(error.code), column: \(error.columnName), type: \(error.targetType))"
        default:
            // The type's own words (String(describing:), never String(reflecting:), which dumps
            // every stored property), capped.
            let text = String(describing: error)
            return text.count > 500 ? String(text.prefix(500)) + "…" : text
        }
    }

    /// A decoding error as its kind and where: the value itself (which may be anything a client
    /// sent) is left out.
    public static func decoding(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context): return "DecodingError.dataCorrupted(at: \(path(context.codingPath)))"
        case .keyNotFound(let key, let context):
            return "DecodingError.keyNotFound(\(path(context.codingPath + [key])))"
        case .valueNotFound(let type, let context):
            return "DecodingError.valueNotFound(\(type), at: \(path(context.codingPath)))"
        case .typeMismatch(let type, let context):
            return "DecodingError.typeMismatch(\(type), at: \(path(context.codingPath)))"
        @unknown default: return "DecodingError"
        }
    }
}
