import CampusHTTP
import InputRules
import Localization

extension Translator {
    /// The problem in this language where the catalogue has its words: its `title` (context
    /// `status`, as error pages say it), its detail and its fields' details (context `problem`).
    /// Its `type` and `status` stay as they are: clients match on them, never on words.
    func problem(_ problem: Problem) -> Problem {
        var translated = problem
        translated.title = self(problem.title, context: "status")
        translated.detail = detail(problem)
        translated.errors = problem.errors.map {
            var field = $0
            field.detail = detail(field)
            return field
        }
        return translated
    }

    /// A problem's detail in this language, if the catalogue has its message; a detail that sums
    /// up the fields' details (``Problem/invalid(_:)``) is summed up from their translations.
    func detail(_ problem: Problem) -> String {
        guard problem.errors.isEmpty || problem.detail != problem.errors.map(\.detail).joined(separator: " ") else {
            return problem.errors.map { detail($0) }.joined(separator: " ")
        }
        return self(problem.phrase)
    }

    /// A service's refusal in this language: its words, or, for fields that broke their rules,
    /// each field's, one after another.
    func detail(_ refusal: Refusal) -> String {
        guard refusal.reason == .invalid, !refusal.fields.isEmpty, refusal.kind == nil else {
            return self(refusal.phrase)
        }
        return refusal.fields.map { detail($0) }.joined(separator: " ")
    }

    /// A field's detail in this language, if the catalogue has its message.
    func detail(_ problem: FieldProblem) -> String { self(problem.phrase) }

    /// Every field's detail in this language, one after another.
    func detail(_ failure: ValidationFailure) -> String { failure.problems.map { detail($0) }.joined(separator: " ") }
}
