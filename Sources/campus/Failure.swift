import CampusServer
import InputRules
import Localization

/// What a command says when it fails, and its exit status: where a service refused (a
/// ``Refusal``, or fields that broke their rules), the status of its reason (`sysexits.h`), else 1.
struct Failure: Error, CustomStringConvertible {
    var description: String
    var status: Int32 = 1
    init(_ description: String) { self.description = description }

    /// The error in the reader's language, with the exit status of its reason.
    init(_ error: any Error, _ t: Translator) {
        self.init(describeForPeople(error, t))
        if let refusal = error as? Refusal {
            status = Self.status(refusal.reason)
        } else if error is FieldProblem || error is ValidationFailure {
            status = Self.status(.invalid)
        }
    }

    /// 65 (data error) for what was sent, 66 (no input) for what does not exist, 77 (no
    /// permission) for who may not, 75 (try again later) for too many or too busy.
    static func status(_ reason: Refusal.Reason) -> Int32 {
        switch reason {
        case .malformed, .invalid, .conflict, .tooLarge, .unsupportedFormat: 65
        case .notFound, .gone: 66
        case .notSignedIn, .notAllowed: 77
        case .tooMany, .unavailable: 75
        }
    }
}
