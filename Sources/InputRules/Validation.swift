import Localization

/// One field of an input that broke a rule, with words a person can act on.
public struct FieldProblem: Error, Sendable, Equatable {
    public var field: String
    /// The words, in English until a page or the API translates them.
    public var detail: String
    /// What the detail was made from: what a translation looks up and fills.
    public var phrase: Phrase

    /// `FieldProblem(field: "week", detail: "{field} is not a date.", ["field": "week"])`: the
    /// message is a literal (scripts/extract-messages finds it), the changing parts are values.
    public init(field: String, detail message: String, _ values: [String: String] = [:]) {
        self.init(field: field, Phrase(message, values))
    }

    public init(field: String, _ phrase: Phrase) {
        self.field = field
        self.detail = phrase.text
        self.phrase = phrase
    }
}

/// Every field of one input that broke a rule.
public struct ValidationFailure: Error, Sendable, Equatable {
    public var problems: [FieldProblem]

    public init(_ problems: [FieldProblem]) { self.problems = problems }

    /// A readable summary of all problems.
    public var summary: String { problems.map(\.detail).joined(separator: " ") }
}

/// Collects field problems while an input is checked, then throws them all at once.
public struct Validator: Sendable {
    public private(set) var problems: [FieldProblem] = []

    public init() {}

    /// Runs `check`, remembering its problem instead of stopping at the first one.
    public mutating func check<T>(_ check: () throws(FieldProblem) -> T) -> T? {
        do {
            return try check()
        } catch {
            problems.append(error)
            return nil
        }
    }

    public mutating func add(_ problem: FieldProblem) { problems.append(problem) }

    /// Throws a ``ValidationFailure`` when any check failed.
    public func finish() throws(ValidationFailure) {
        if !problems.isEmpty { throw ValidationFailure(problems) }
    }
}
