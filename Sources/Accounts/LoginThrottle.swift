#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Slows down password guessing: after `maxFailures` failed logins for one account or one
/// address within `window`, further attempts wait until the oldest of them leaves the window.
public struct LoginThrottle: Sendable, Equatable {
    public var maxFailures: Int
    public var window: Duration

    public init(maxFailures: Int = 5, window: Duration = .seconds(15 * 60)) {
        self.maxFailures = maxFailures
        self.window = window
    }

    public enum Decision: Sendable, Equatable {
        case allowed
        /// Try again after this many whole seconds.
        case blocked(retryAfterSeconds: Int)
    }

    /// The moment before which failures no longer count.
    public func windowStart(now: Date) -> Date {
        now.addingTimeInterval(-window.seconds)
    }

    /// Decides from the times of recent failures (of one account or one address).
    public func decide(failures: [Date], now: Date) -> Decision {
        let start = windowStart(now: now)
        let recent = failures.filter { $0 > start }.sorted()
        guard recent.count >= maxFailures, maxFailures > 0 else { return .allowed }
        // The attempt is allowed again once enough failures have aged out of the window.
        let unblocking = recent[recent.count - maxFailures]
        let wait = unblocking.addingTimeInterval(window.seconds).timeIntervalSince(now)
        return .blocked(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
    }
}

extension Duration {
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
