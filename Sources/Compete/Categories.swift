import Foundation
import InputRules

/// How a competition puts its participants into categories (issue 41), each with its own ranking.
public enum CategoryRule: String, Sendable, CaseIterable, Codable {
    /// One ranking for everyone.
    case none
    /// The participant picks one of the competition's categories (women and men, say, or
    /// beginners and the experienced): Campus keeps no gender, so a gender category is chosen.
    case choice
    /// By age on the race day, from the birth date the participant gives when joining.
    case age
    /// By the participant's group (faculty and group) from their profile, as it was when they
    /// joined.
    case group
}

/// One category of a competition: a name, and for age categories the ages it takes.
public struct Category: Sendable, Equatable, Codable {
    public var name: String
    /// The youngest age it takes (nil: any younger).
    public var minAge: Int?
    /// The oldest age it takes (nil: any older).
    public var maxAge: Int?

    public init(name: String, minAge: Int? = nil, maxAge: Int? = nil) {
        self.name = name
        self.minAge = minAge
        self.maxAge = maxAge
    }

    public func takes(age: Int) -> Bool { (minAge ?? 0) <= age && age <= (maxAge ?? Int.max) }
}

/// How teams are ranked: off, by the sum of every member's result, or by the sum of the best N.
public enum TeamScoring: Sendable, Equatable {
    case off
    case sum
    /// A team needs N results to be ranked; its score is the sum of its best N.
    case best(Int)

    public var name: String {
        switch self {
        case .off: "off"
        case .sum: "sum"
        case .best: "best"
        }
    }

    public var best: Int? {
        if case .best(let count) = self { count } else { nil }
    }
}

/// The rules of categories and teams.
public enum CategoryRules {
    public static let categoryLimit = 50
    public static let nameLength = 1...40
    public static let teamLength = 1...60
    public static let ages = 0...130
    public static let bestLimit = 1...100

    /// The categories as a competition keeps them, or the rules they broke: names trimmed, at
    /// least one character, unique in any letter case; ages only for age categories, within
    /// ``ages``, a range not upside down and not overlapping another (so every age has at most
    /// one category). A rule without a list (none, group) keeps none.
    public static func validated(_ categories: [Category], rule: CategoryRule) -> (
        [Category], [CompeteFieldError]
    ) {
        var errors: [CompeteFieldError] = []
        guard rule == .choice || rule == .age else {
            if !categories.isEmpty {
                errors.append(
                    CompeteFieldError(
                        field: "categories",
                        detail: "Only categories that are chosen or go by age are listed; leave the list empty."))
            }
            return ([], errors)
        }
        if categories.count > categoryLimit {
            errors.append(
                CompeteFieldError(
                    field: "categories", detail: "A competition has at most {maximum} categories.",
                    ["maximum": String(categoryLimit)]))
        }
        if categories.isEmpty {
            errors.append(CompeteFieldError(field: "categories", detail: "List the categories participants go into."))
        }
        var seen: Set<String> = []
        var kept: [Category] = []
        for category in categories {
            var category = category
            category.name = TextRules.trimmed(category.name).precomposedStringWithCanonicalMapping
            if category.name.isEmpty {
                errors.append(CompeteFieldError(field: "categories", detail: "Give every category a name."))
            } else if var problem = TextRules.problem(in: category.name, limit: nameLength.upperBound) {
                problem.values["field"] = category.name
                errors.append(CompeteFieldError(field: "categories", problem))
            } else if !seen.insert(category.name.lowercased()).inserted {
                errors.append(
                    CompeteFieldError(
                        field: "categories", detail: "Two categories are called “{name}”.", ["name": category.name]))
            }
            if rule == .age {
                if category.minAge == nil && category.maxAge == nil {
                    errors.append(
                        CompeteFieldError(
                            field: "categories", detail: "Category “{name}” needs a youngest or an oldest age.",
                            ["name": category.name]))
                }
                for age in [category.minAge, category.maxAge].compactMap({ $0 }) where !ages.contains(age) {
                    errors.append(
                        CompeteFieldError(
                            field: "categories", detail: "An age is from {minimum} to {maximum}.",
                            ["minimum": String(ages.lowerBound), "maximum": String(ages.upperBound)]))
                }
                if let low = category.minAge, let high = category.maxAge, low > high {
                    errors.append(
                        CompeteFieldError(
                            field: "categories", detail: "In “{name}” the youngest age is above the oldest.",
                            ["name": category.name]))
                }
                if let other = kept.first(where: { overlap($0, category) }) {
                    errors.append(
                        CompeteFieldError(
                            field: "categories", detail: "The ages of “{name}” and “{other}” overlap.",
                            ["name": category.name, "other": other.name]))
                }
            } else {
                category.minAge = nil
                category.maxAge = nil
            }
            kept.append(category)
        }
        return (kept, errors)
    }

    static func overlap(_ a: Category, _ b: Category) -> Bool {
        max(a.minAge ?? 0, b.minAge ?? 0) <= min(a.maxAge ?? Int.max, b.maxAge ?? Int.max)
    }

    /// Teams as a competition keeps them, or why not: best N within ``bestLimit``, and a time
    /// competition ranks teams by the best N only (a sum of every member's time favours small
    /// teams).
    public static func validated(_ teams: TeamScoring, metric: Metric) -> [CompeteFieldError] {
        switch teams {
        case .off: return []
        case .sum:
            return metric == .time
                ? [
                    CompeteFieldError(
                        field: "teams", detail: "A time competition ranks teams by the sum of their best N times.")
                ] : []
        case .best(let count):
            return bestLimit.contains(count)
                ? []
                : [
                    CompeteFieldError(
                        field: "teams", detail: "A team counts from {minimum} to {maximum} best results.",
                        ["minimum": String(bestLimit.lowerBound), "maximum": String(bestLimit.upperBound)])
                ]
        }
    }

    /// A participant's age in whole years on `day` (on the calendar of the institution's zone),
    /// born on `born` (year, month, day); nil for a date that is not one or is after `day`.
    /// Foundation's calendar counts the years, so someone born on 29 February turns a year
    /// older on 28 February in other years.
    public static func age(born: DateComponents, on day: Date, calendar: Calendar) -> Int? {
        var parts = DateComponents()
        parts.year = born.year
        parts.month = born.month
        parts.day = born.day
        let raceDay = calendar.startOfDay(for: day)
        guard let birth = calendar.date(from: parts),
            calendar.dateComponents([.year, .month, .day], from: birth) == parts.onlyDay, birth <= raceDay
        else { return nil }
        let years = calendar.dateComponents([.year], from: birth, to: raceDay).year
        return years.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The category of the one whose age on the race day is `age`, or nil when no category takes it.
    public static func category(age: Int, in categories: [Category]) -> Category? {
        categories.first { $0.takes(age: age) }
    }

    /// The listed category named `name` in any letter case (its own spelling), or nil.
    public static func listed(_ name: String, in categories: [Category]) -> Category? {
        let key = TextRules.trimmed(name).precomposedStringWithCanonicalMapping.lowercased()
        return categories.first { $0.name.lowercased() == key }
    }

    /// A team's name as kept (trimmed, NFC), or the rule it broke.
    public static func team(_ name: String) throws(CompeteFieldError) -> String {
        let team = TextRules.trimmed(name).precomposedStringWithCanonicalMapping
        guard !team.isEmpty else {
            throw CompeteFieldError(field: "team", detail: "A team's name has a visible character.")
        }
        if var problem = TextRules.problem(in: team, limit: teamLength.upperBound) {
            problem.values["field"] = team
            throw CompeteFieldError(field: "team", problem)
        }
        return team
    }
}

extension DateComponents {
    fileprivate var onlyDay: DateComponents {
        var parts = DateComponents()
        parts.year = year
        parts.month = month
        parts.day = day
        return parts
    }
}
