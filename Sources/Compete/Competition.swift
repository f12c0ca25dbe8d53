import Foundation
import InputRules
import Localization

/// A competition, as organizers run it and participants join it (seed 002's `competitions`).
public struct Competition: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var name: String
    public var description: String
    public var metric: Metric
    /// The unit results are shown in: "km", "s" or what the organizer chose for points.
    public var unit: String
    public var startsAt: Date?
    public var endsAt: Date?
    /// Active competitions take new participants and result changes; inactive ones only show
    /// their ranking.
    public var isActive: Bool
    /// Whether participants may upload a GPX track for their own result.
    public var participantUploads: Bool
    public var ownerID: Int64
    /// The competition this one was made from by "reuse", if it still exists.
    public var templateID: Int64?
    /// Every run of one template shares a series: the id of the first run.
    public var seriesID: Int64
    /// How participants go into categories, and the categories (for a choice or by age).
    public var categoryRule: CategoryRule
    public var categories: [Category]
    public var teams: TeamScoring
    /// What participants do, for the speed a result can honestly have.
    public var sport: Sport
    /// A time competition's course length in km, to check times against the sport.
    public var courseKm: Double?
    /// A race (one result each) or a challenge (the sum of many activities).
    public var kind: CompetitionKind
    /// Only students of this faculty (its abbreviation, from the timetable) may join; nil: everyone.
    public var faculty: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64, name: String, description: String, metric: Metric, unit: String, startsAt: Date? = nil,
        endsAt: Date? = nil, isActive: Bool = true, participantUploads: Bool = false, ownerID: Int64,
        templateID: Int64? = nil, seriesID: Int64? = nil, categoryRule: CategoryRule = .none,
        categories: [Category] = [], teams: TeamScoring = .off, sport: Sport = .other, courseKm: Double? = nil,
        kind: CompetitionKind = .race, faculty: String? = nil, createdAt: Date, updatedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.metric = metric
        self.unit = unit
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.isActive = isActive
        self.participantUploads = participantUploads
        self.ownerID = ownerID
        self.templateID = templateID
        self.seriesID = seriesID ?? id
        self.categoryRule = categoryRule
        self.categories = categories
        self.teams = teams
        self.sport = sport
        self.courseKm = courseKm
        self.kind = kind
        self.faculty = faculty
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }
}

/// What an organizer fills in to create a competition, or to change one.
public struct CompetitionDraft: Sendable, Equatable {
    public var name: String
    public var description: String
    public var metric: Metric
    public var unit: String?
    public var startsAt: Date?
    public var endsAt: Date?
    public var participantUploads: Bool
    public var categoryRule: CategoryRule
    public var categories: [Category]
    public var teams: TeamScoring
    public var sport: Sport
    public var courseKm: Double?
    public var kind: CompetitionKind
    public var faculty: String?

    public init(
        name: String, description: String, metric: Metric, unit: String? = nil, startsAt: Date? = nil,
        endsAt: Date? = nil, participantUploads: Bool = false, categoryRule: CategoryRule = .none,
        categories: [Category] = [], teams: TeamScoring = .off, sport: Sport = .other, courseKm: Double? = nil,
        kind: CompetitionKind = .race, faculty: String? = nil
    ) {
        self.name = name
        self.description = description
        self.metric = metric
        self.unit = unit
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.participantUploads = participantUploads
        self.categoryRule = categoryRule
        self.categories = categories
        self.teams = teams
        self.sport = sport
        self.courseKm = courseKm
        self.kind = kind
        self.faculty = faculty
    }

    /// A draft pre-filled from an earlier competition (seed 002's "reuse this model").
    public init(reusing competition: Competition) {
        self.init(
            name: competition.name, description: competition.description, metric: competition.metric,
            unit: competition.unit, startsAt: competition.startsAt, endsAt: competition.endsAt,
            participantUploads: competition.participantUploads, categoryRule: competition.categoryRule,
            categories: competition.categories, teams: competition.teams, sport: competition.sport,
            courseKm: competition.courseKm, kind: competition.kind, faculty: competition.faculty)
    }
}

/// One rule an input broke, naming the field.
public struct CompeteFieldError: Error, Sendable, Equatable {
    public var field: String
    /// The words, and what they were made from (a translation looks them up).
    public var phrase: Phrase

    /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
    /// are `values`, as for a ``FieldProblem``.
    public init(field: String, detail message: String, _ values: [String: String] = [:]) {
        self.field = field
        self.phrase = Phrase(message, values)
    }

    /// A problem worded elsewhere (``TextRules/problem(in:limit:multiline:)``).
    public init(field: String, _ phrase: Phrase) {
        self.field = field
        self.phrase = phrase
    }

    /// The same problem as the rest of Campus names one.
    public var fieldProblem: FieldProblem { FieldProblem(field: field, phrase) }
}

/// Every rule a draft or a result broke.
public struct CompeteValidationError: Error, Sendable, Equatable {
    public var errors: [CompeteFieldError]
    public init(_ errors: [CompeteFieldError]) { self.errors = errors }
}

/// The limits and rules of competitions and results.
public enum CompetitionRules {
    public static let nameLength = 1...100
    public static let descriptionLength = 0...2000
    public static let unitLength = 1...16
    /// Results above this are typing mistakes (a billion km, seconds or points).
    public static let largestResult = 1_000_000_000.0
    /// The most competitions one organizer owns, active or not (their library); deleting old
    /// ones makes room.
    public static let ownedLimit = 1000

    /// The draft with its text trimmed, or every rule it broke. The seed required a name and
    /// a description but let whitespace pass; here a name must have a visible character.
    public static func validated(_ draft: CompetitionDraft) throws(CompeteValidationError) -> CompetitionDraft {
        var errors: [CompeteFieldError] = []
        var draft = draft
        draft.name = TextRules.trimmed(draft.name)
        draft.description = TextRules.trimmed(draft.description)
        let trimmedUnit = draft.unit.map { TextRules.trimmed($0) } ?? ""
        let unit = trimmedUnit.isEmpty ? draft.metric.defaultUnit : trimmedUnit
        draft.unit = unit
        if draft.name.isEmpty {
            errors.append(CompeteFieldError(field: "name", detail: "Give the competition a name."))
        } else if !nameLength.contains(draft.name.unicodeScalars.count) {
            errors.append(
                CompeteFieldError(
                    field: "name", detail: "A name has at most {maximum} characters.",
                    ["maximum": String(nameLength.upperBound)]))
        }
        if draft.name.containsControlCharacters {
            errors.append(CompeteFieldError(field: "name", detail: "A name cannot contain control characters."))
        }
        if TextRules.firstControl(in: draft.description, multiline: true) != nil {
            errors.append(
                CompeteFieldError(field: "description", detail: "A description cannot contain control characters."))
        }
        if draft.startsAt.map({ !DateRules.isSupported($0) }) == true {
            errors.append(
                CompeteFieldError(
                    field: "startsAt", detail: "The start is outside {firstDay} to {lastDay}.", DateRules.rangeValues))
        }
        if draft.endsAt.map({ !DateRules.isSupported($0) }) == true {
            errors.append(
                CompeteFieldError(
                    field: "endsAt", detail: "The end is outside {firstDay} to {lastDay}.", DateRules.rangeValues))
        }
        if !descriptionLength.contains(draft.description.unicodeScalars.count) {
            errors.append(
                CompeteFieldError(
                    field: "description", detail: "A description has at most {maximum} characters.",
                    ["maximum": String(descriptionLength.upperBound)]))
        }
        if !unitLength.contains(unit.unicodeScalars.count) {
            errors.append(
                CompeteFieldError(
                    field: "unit", detail: "A unit has at most {maximum} characters.",
                    ["maximum": String(unitLength.upperBound)]))
        } else if unit.containsControlCharacters {
            errors.append(CompeteFieldError(field: "unit", detail: "A unit cannot contain control characters."))
        } else if draft.metric != .points, draft.unit != draft.metric.defaultUnit {
            // A sentence for each metric, as a translator needs them; the unit is what to type.
            let values = ["unit": draft.metric.defaultUnit]
            errors.append(
                draft.metric == .time
                    ? CompeteFieldError(
                        field: "unit",
                        detail: "A time competition counts in {unit}; only points competitions name their own unit.",
                        values)
                    : CompeteFieldError(
                        field: "unit",
                        detail:
                            "A distance competition counts in {unit}; only points competitions name their own unit.",
                        values))
        }
        if let start = draft.startsAt, let end = draft.endsAt, end < start {
            errors.append(CompeteFieldError(field: "endsAt", detail: "The end comes before the start."))
        }
        let (categories, categoryErrors) = CategoryRules.validated(draft.categories, rule: draft.categoryRule)
        draft.categories = categories
        errors += categoryErrors + CategoryRules.validated(draft.teams, metric: draft.metric)
        if let course = draft.courseKm, !course.isFinite || !courseLength.contains(course) {
            errors.append(
                CompeteFieldError(
                    field: "courseKm", detail: "A course is from {minimum} to {maximum} km.",
                    ["minimum": "0.01", "maximum": "10000"]))
        }
        draft.faculty = draft.faculty.map { TextRules.trimmed($0) }.flatMap { $0.isEmpty ? nil : $0 }
        if let faculty = draft.faculty, var problem = TextRules.problem(in: faculty, limit: 40) {
            problem.values["field"] = "faculty"
            errors.append(CompeteFieldError(field: "faculty", problem))
        }
        if !errors.isEmpty { throw CompeteValidationError(errors) }
        return draft
    }

    /// A result as stored: finite, not negative, at most ``largestResult``; times are whole
    /// seconds (rounded) and more than zero, since a time of 0 is no race at all.
    public static func result(_ value: Double, for metric: Metric) throws(CompeteFieldError) -> Double {
        guard value.isFinite else {
            throw CompeteFieldError(field: "value", detail: "A result is a finite number.")
        }
        guard value >= 0 else {
            throw CompeteFieldError(field: "value", detail: "A result is not negative.")
        }
        guard value <= largestResult else {
            throw CompeteFieldError(
                field: "value", detail: "A result is at most {maximum}.", ["maximum": String(Int(largestResult))])
        }
        switch metric {
        case .time:
            let seconds = value.rounded()
            guard seconds > 0 else {
                throw CompeteFieldError(field: "value", detail: "A time is at least one second.")
            }
            return seconds
        case .distance, .points:
            return value
        }
    }
}
