import Foundation

/// The sleep timer of the big player: it pauses playback after a number of minutes or at the
/// end of the current item. Live radio has no timer. The listener's own step to another item
/// cancels only the timer for the end of the item (seed 001 §3.7); a timer of minutes runs on.
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

    /// Whether this action cancels the timer. Seed 001 §3.7: a timer for the end of the current
    /// item is turned off when the listener moves to the next or previous item by hand, and so
    /// it is when they choose any other item themselves (a place in the queue, something new to
    /// play, the step past an item they hid). A timer of minutes counts on through such steps:
    /// the listener asked to stop after some minutes, whatever plays. A cleared queue cancels
    /// either, since nothing is left to pause.
    public func isCancelled(by action: PlayerAction) -> Bool {
        switch action {
        case .clearQueue: true
        case .trackSkip, .trackPrev, .trackChange, .play: choice == .endOfItem
        default: false
        }
    }
}
