import Foundation
import Hummingbird
import OpenAPIRuntime
import Storage

/// An error's words for the log, whatever the error: every error Campus logs goes through here,
/// so that no secret a request or a statement held (a bearer token, a cookie, a password, an app
/// password or API key, a source password, a reset link) reaches a log line, at any level.
///
/// OpenAPI's `ServerError` describes itself with the whole request: its headers
/// (`authorization: Bearer …`), its body and the decoded input (`NewPlaylist(name: …)`); here it
/// is its operation, its cause and its underlying error. PostgreSQL's errors are their code and
/// the server's message, never the statement's values (``LoggedError``).
enum ErrorLog {
    static func text(_ error: any Error) -> String {
        LoggedError.text(error, describeOther: other)
    }

    private static func other(_ error: any Error) -> String? {
        switch error {
        case let error as ServerError:
            var cause = error.causeDescription
            if cause.count > 200 { cause = String(cause.prefix(200)) + "…" }
            return
                "ServerError(operation: \(error.operationID), cause: \(cause), underlying: \(text(error.underlyingError)))"
        case let error as HTTPError:
            return "HTTPError(\(error.status.code))"
        default:
            return nil
        }
    }
}
