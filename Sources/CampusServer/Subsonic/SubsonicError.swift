import CampusHTTP
import Foundation
import InputRules

/// A refusal as Subsonic clients understand it: a code from the API's list and a message. The
/// answer is still HTTP 200, with `status="failed"`, because that is where players look.
struct SubsonicError: Error, Sendable, Equatable {
    enum Code: Int, Sendable {
        case generic = 0
        case missingParameter = 10
        case clientTooNew = 20
        case serverTooOld = 30
        case wrongCredentials = 40
        case tokenNotSupported = 41
        case authenticationNotSupported = 42
        case conflictingAuthentication = 43
        case invalidAPIKey = 44
        case notAuthorized = 50
        case trialOver = 60
        case notFound = 70
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func missing(_ name: String) -> SubsonicError {
        SubsonicError(.missingParameter, "Required parameter is missing: \(name)")
    }

    static func notFound(_ what: String) -> SubsonicError { SubsonicError(.notFound, "\(what) not found") }

    static func invalid(_ name: String, _ detail: String) -> SubsonicError {
        SubsonicError(.generic, "Invalid value of \(name): \(detail)")
    }

    /// What Campus's own refusals (problem documents, field problems) become.
    init(_ error: any Error) {
        switch error {
        case let error as SubsonicError:
            self = error
        case let problem as Problem:
            let message = Self.words(problem)
            switch problem.status.code {
            case 401: self.init(.wrongCredentials, message)
            case 403: self.init(.notAuthorized, message)
            case 404, 410: self.init(.notFound, message)
            default: self.init(.generic, message)
            }
        case let failure as ValidationFailure:
            self.init(.generic, failure.problems.map { "\($0.field): \($0.detail)" }.joined(separator: "; "))
        default:
            self.init(.generic, "The server could not do this.")
        }
    }

    private static func words(_ problem: Problem) -> String {
        let fields = problem.errors.map { "\($0.field): \($0.detail)" }
        return fields.isEmpty ? problem.detail : fields.joined(separator: "; ")
    }
}
