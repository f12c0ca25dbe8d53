import CampusHTTP
import Foundation
import InputRules
import Localization
import Storage

/// A refusal as Subsonic clients understand it: a code from the API's list and a message. The
/// answer is still HTTP 200, with `status="failed"`, because that is where players look. The
/// message is words of the catalogue (context `problem`), said in the listener's language.
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
    /// The words, when the refusal is the Subsonic layer's own.
    var phrase: Phrase
    /// Campus's own refusal (a problem document), whose words are translated as the API's are.
    var problem: Problem?

    /// `message` is a literal (scripts/extract-messages finds it); the changing parts are `values`.
    init(_ code: Code, _ message: String, _ values: [String: String] = [:]) {
        self.code = code
        self.phrase = Phrase(message, values)
    }

    static func missing(_ name: String) -> SubsonicError {
        SubsonicError(.missingParameter, "Required parameter is missing: {name}", ["name": name])
    }

    /// A whole number was expected.
    static func notANumber(_ name: String, _ text: String) -> SubsonicError {
        SubsonicError(
            .generic, "{name} is not a whole number: {value}", ["name": name, "value": String(text.prefix(20))])
    }

    /// An id that names nothing Campus has, or not what the method takes.
    static func unknownID(_ text: String) -> SubsonicError {
        SubsonicError(.notFound, "There is nothing with the id {id}.", ["id": String(text.prefix(40))])
    }

    /// What Campus's own refusals (problem documents, field problems) become.
    init(_ error: any Error) {
        switch error {
        case let error as SubsonicError:
            self = error
        case let problem as Problem:
            let code: Code =
                switch problem.status.code {
                case 401: .wrongCredentials
                case 403: .notAuthorized
                case 404, 410: .notFound
                default: .generic
                }
            self.init(code, problem.phrase.message, problem.phrase.values)
            self.problem = problem
        case let refusal as Refusal:
            self.init(Problem(refusal))
        case let failure as ValidationFailure:
            self.init(Problem.invalid(failure))
        default:
            if let unavailable = DatabaseUnavailable.of(error) {
                self.init(Problem.databaseUnavailable(unavailable))
            } else {
                self = SubsonicError(.generic, "The server could not do this.")
            }
        }
    }

    /// The message in the listener's language.
    func message(_ t: Translator) -> String {
        if let problem { return t.detail(problem) }
        return t(phrase)
    }
}
