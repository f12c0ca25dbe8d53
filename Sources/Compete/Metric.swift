import Foundation

/// How a competition measures its results, and which way is better.
public enum Metric: String, Sendable, CaseIterable, Codable {
    /// A distance in kilometres; more is better.
    case distance
    /// A time in whole seconds; less is better.
    case time
    /// Points; more is better.
    case points

    /// Whether a larger result is a better one.
    public var moreIsBetter: Bool { self != .time }

    /// The unit a competition of this metric uses unless its organizer names another.
    public var defaultUnit: String {
        switch self {
        case .distance: "km"
        case .time: "s"
        case .points: "points"
        }
    }

    /// The sentence the seed showed above every scoreboard.
    public var rankingRule: String {
        switch self {
        case .distance: "Ranked by distance: the longest first."
        case .time: "Ranked by time: the fastest first."
        case .points: "Ranked by points: the most first."
        }
    }

    /// Whether `a` is a better result than `b`.
    public func isBetter(_ a: Double, than b: Double) -> Bool {
        moreIsBetter ? a > b : a < b
    }
}
