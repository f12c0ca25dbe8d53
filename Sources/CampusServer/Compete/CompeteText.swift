import Compete
import Localization

/// The words and numbers of the competition pages in the reader's language: metric names, the
/// ranking rule, results with the language's decimal separator and units ("2,73 км", "9 очков").
/// A unit the organizer named is data and stays as written; the default units are translated.
/// The API keeps ``ResultText``'s English forms.
struct CompeteText: Sendable {
    let t: Translator

    func metric(_ metric: Metric) -> String {
        switch metric {
        case .distance: t("Distance", context: "metric")
        case .time: t("Time", context: "metric")
        case .points: t("Points", context: "metric")
        }
    }

    /// The sentence above every scoreboard.
    func rankingRule(_ metric: Metric) -> String {
        switch metric {
        case .distance: t("Ranked by distance: the longest first.")
        case .time: t("Ranked by time: the fastest first.")
        case .points: t("Ranked by points: the most first.")
        }
    }

    /// A number with at most `places` decimals, no trailing zeros and the language's separator.
    func decimal(_ value: Double, places: Int) -> String {
        ResultText.decimal(value, places: places).replacingOccurrences(
            of: ".", with: t(".", context: "decimal separator"))
    }

    /// A result with its unit: `1:02:03`, `12,35 км`, `17 очков`, `3 goals`.
    func result(_ value: Double, metric: Metric, unit: String) -> String {
        let number = decimal(value, places: 2)
        switch metric {
        case .time:
            return ResultText.clock(value)
        case .distance where unit == Metric.distance.defaultUnit:
            return t("{number} km", ["number": number])
        case .points where unit == Metric.points.defaultUnit:
            guard value == value.rounded(), abs(value) < 1e9 else {
                return t("{number} points", context: "a fraction of points", ["number": number])
            }
            return t.plural("{count} point", "{count} points", Int(value))
        default:
            return "\(number) \(unit)"
        }
    }

    /// The unit a competition's results are written in, as a heading or a field's hint shows it.
    func unit(_ unit: String, metric: Metric) -> String {
        switch metric {
        case .time: t("h:mm:ss")
        case .distance where unit == Metric.distance.defaultUnit: t("km")
        case .points where unit == Metric.points.defaultUnit: t("points", context: "unit")
        default: unit
        }
    }

    /// How participants go into categories, as the competition form offers it.
    func categoryRule(_ rule: CategoryRule) -> String {
        switch rule {
        case .none: t("No categories")
        case .choice: t("Chosen by the participant (such as women and men)")
        case .age: t("By age on the race day")
        case .group: t("By group, from the profile")
        }
    }

    /// How teams are ranked.
    func teamScoring(_ teams: TeamScoring) -> String {
        switch teams {
        case .off: t("No teams")
        case .sum: t("Sum of every member's result")
        case .best: t("Sum of the best results")
        }
    }

    /// What participants do, as the competition form offers it.
    func sport(_ sport: Sport) -> String {
        switch sport {
        case .run: t("Running", context: "sport")
        case .walk: t("Walking", context: "sport")
        case .ride: t("Cycling", context: "sport")
        case .ski: t("Skiing", context: "sport")
        case .swim: t("Swimming", context: "sport")
        case .other: t("Other (no speed check)", context: "sport")
        }
    }
}
