import Foundation

/// The sleep timer of the big player: it pauses playback after a number of minutes or at the
/// end of the current item. Live radio has no timer, and skipping or going back cancels it.
public struct SleepTimer: Sendable, Equatable, Codable {
    public enum Choice: Sendable, Equatable, Codable {
        case minutes(Int)
        case endOfItem
    }

    /// The choices the seed offers.
    public static let minuteChoices = [5, 10, 15, 30, 45, 60]

    public var choice: Choice
    public var startedAt: Date

    public init(_ choice: Choice, startedAt: Date, isLiveRadio: Bool) throws(PlayerError) {
        guard !isLiveRadio else { throw PlayerError(field: "timer", detail: "Live radio has no sleep timer.") }
        if case .minutes(let minutes) = choice, !Self.minuteChoices.contains(minutes) {
            throw PlayerError(field: "timer", detail: "A sleep timer runs 5, 10, 15, 30, 45 or 60 minutes.")
        }
        self.choice = choice
        self.startedAt = startedAt
    }

    /// When the timer pauses playback, for a timer of minutes.
    public var endsAt: Date? {
        guard case .minutes(let minutes) = choice else { return nil }
        return startedAt.addingTimeInterval(TimeInterval(minutes * 60))
    }

    /// Whether playback pauses now: the time is up, or the current item just ended.
    public func pauses(now: Date, itemEnded: Bool) -> Bool {
        switch choice {
        case .minutes: endsAt.map { now >= $0 } ?? false
        case .endOfItem: itemEnded
        }
    }

    /// Whether the listener's own step to another item cancels the timer.
    public static func isCancelled(by action: PlayerAction) -> Bool {
        switch action {
        case .trackSkip, .trackPrev, .trackChange, .play, .clearQueue: true
        default: false
        }
    }
}
