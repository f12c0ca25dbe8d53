import Foundation
import InputRules

/// What a competition is: a race, with one result per participant, or a challenge, whose
/// result is the sum of many activities over its period (issue 41, after Strava's club
/// challenges, without their cap of 199 people).
public enum CompetitionKind: String, Sendable, CaseIterable, Codable {
    case race, challenge
}

/// Where an activity came from.
public enum ActivitySource: String, Sendable, Codable {
    case manual, track
}

/// One activity of a challenge: a walk's kilometres, a workout's time.
public struct Activity: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var participantID: Int64
    public var value: Double
    /// When it was done.
    public var at: Date
    public var note: String
    public var source: ActivitySource
    public var createdAt: Date

    public init(
        id: Int64, participantID: Int64, value: Double, at: Date, note: String, source: ActivitySource,
        createdAt: Date
    ) {
        self.id = id
        self.participantID = participantID
        self.value = value
        self.at = at
        self.note = note
        self.source = source
        self.createdAt = createdAt
    }
}

extension Competition {
    /// The metric whose direction ranks: a challenge's totals rank the most first, whatever they
    /// count (a time challenge's longest total time first), so it ranks by points' direction.
    public var ranksBy: Metric { kind == .challenge ? .points : metric }
}

/// The rules of a challenge's activities.
public enum ActivityRules {
    /// The most activities one participant logs in one challenge.
    public static let perParticipant = 1000
    public static let noteLength = 200
    /// One activity is at most this much: a day's time, 1,000 km, a million points.
    public static func largest(_ metric: Metric) -> Double {
        switch metric {
        case .time: 86_400
        case .distance: 1000
        case .points: 1_000_000
        }
    }

    /// An activity as kept, or the rule it broke: a result of the metric, more than zero and at
    /// most ``largest(_:)``; done within the challenge's period and not in the future (five
    /// minutes of clock difference allowed); a note of one line.
    public static func validated(
        value: Double, at: Date, note: String, in competition: Competition, now: Date
    ) throws(CompeteFieldError) -> (value: Double, at: Date, note: String) {
        let kept: Double
        do { kept = try CompetitionRules.result(value, for: competition.metric) } catch {
            throw CompeteFieldError(field: "value", error.phrase)
        }
        guard kept > 0 else { throw CompeteFieldError(field: "value", detail: "An activity is more than zero.") }
        guard kept <= largest(competition.metric) else {
            throw CompeteFieldError(
                field: "value", detail: "One activity is at most {maximum}.",
                [
                    "maximum": ResultText.format(
                        largest(competition.metric), metric: competition.metric, unit: competition.unit)
                ])
        }
        if let start = competition.startsAt, at < start {
            throw CompeteFieldError(field: "at", detail: "The activity is before the challenge starts.")
        }
        if let end = competition.endsAt, at > end {
            throw CompeteFieldError(field: "at", detail: "The activity is after the challenge ends.")
        }
        guard at <= now.addingTimeInterval(300) else {
            throw CompeteFieldError(field: "at", detail: "The activity is in the future.")
        }
        let text = TextRules.trimmed(note).precomposedStringWithCanonicalMapping
        if var problem = TextRules.problem(in: text, limit: noteLength) {
            problem.values["field"] = "note"
            throw CompeteFieldError(field: "note", problem)
        }
        return (kept, at, text)
    }
}
