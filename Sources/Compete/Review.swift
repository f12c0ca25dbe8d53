import Foundation

/// Where a flagged result stands: the organizer reviews it, the participant may appeal a
/// rejection once (issue 41's honest results).
public enum ReviewStatus: String, Sendable, CaseIterable, Codable {
    /// Flagged, waiting for an organizer: it does not count yet.
    case pending
    /// An organizer let it count.
    case accepted
    /// An organizer refused it, with a reason; the participant may appeal once.
    case rejected
    /// Appealed after a rejection, waiting for an organizer again.
    case appealed

    /// Whether the result waits for an organizer.
    public var isOpen: Bool { self == .pending || self == .appealed }
}

/// A result's review: the result as claimed, why it was flagged, and what was decided.
public struct Review: Sendable, Equatable {
    public var status: ReviewStatus
    /// The result as it came (it counts only once accepted).
    public var value: Double
    public var flags: [Flag]
    /// The organizer's reason for a rejection.
    public var note: String?
    /// The participant's appeal.
    public var appeal: String?
    /// When it was flagged, decided or appealed last.
    public var at: Date

    public init(
        status: ReviewStatus, value: Double, flags: [Flag], note: String? = nil, appeal: String? = nil, at: Date
    ) {
        self.status = status
        self.value = value
        self.flags = flags
        self.note = note
        self.appeal = appeal
        self.at = at
    }
}

extension CompetitionRules {
    /// The longest reason for a rejection, and the longest appeal, in code points.
    public static let reviewTextLength = 1000
    /// A course is up to this many km (an ultramarathon, a cycling stage).
    public static let courseLength = 0.01...10_000.0
}
