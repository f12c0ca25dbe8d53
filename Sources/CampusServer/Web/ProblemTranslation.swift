import CampusHTTP
import InputRules
import Localization

extension Translator {
    /// The problem with its detail and its fields' details in this language, where the catalogue
    /// has them (context `problem`); `type` and `title` stay English, as clients match on them.
    func problem(_ problem: Problem) -> Problem {
        var translated = problem
        translated.detail = detail(problem.detail)
        translated.errors = problem.errors.map { FieldProblem(field: $0.field, detail: detail($0.detail)) }
        return translated
    }

    /// A problem's or a field's detail in this language, if the catalogue has it.
    func detail(_ text: String) -> String { translation(of: text, context: "problem") ?? text }
}
