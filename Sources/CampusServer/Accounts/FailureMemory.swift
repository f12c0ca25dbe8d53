import Accounts
import Foundation
import NIOConcurrencyHelpers

/// Failed attempts kept in memory by this instance, per scope (one kind of credential from one
/// address, and what it tries to reach), with ``LoginThrottle``'s rule: after `maxFailures`
/// within the window the scope waits. It throttles the credentials the login page does not check
/// (players' API keys and app passwords, radio stations' source passwords): a failure costs no
/// database write, so guessing cannot slow the database down, and no scope's failures refuse
/// another's (a wrong API key or source password never makes the login page wait, nor failed
/// logins a player or a source). Each instance counts on its own; a restart forgets.
///
/// An attempt counts as failed from the moment it begins (``begin(scope:digest:now:)``), until it
/// is known to have succeeded, so that guesses sent at once cannot all be checked before the
/// first failure is written down. A credential that failed is remembered by a digest (never the
/// secret): sent again from the same scope within the window, it gets the same answer from
/// memory, without a look-up or a hash, and counts once; so a player left with a revoked key
/// does not use up the attempts of everyone behind the same address. A success forgets only its
/// own attempt: a valid credential of one's own does not wipe the failures of guesses.
final class FailureMemory<Reason: Sendable>: Sendable {
    let throttle: LoginThrottle
    /// At most this many scopes are kept; past it, those whose failures have all left the
    /// window go, and then the one whose last failure is the oldest (an attacker with many
    /// addresses cannot grow it).
    let capacity: Int

    private struct Failure: Sendable {
        var at: Date
        var digest: String
        /// Why it failed; nil while it is being checked.
        var reason: Reason?
    }

    /// The latest attempts of each scope, oldest first, at most `maxFailures` of them.
    private let failures = NIOLockedValueBox<[String: [Failure]]>([:])

    init(throttle: LoginThrottle, capacity: Int = 10_000) {
        self.throttle = throttle
        self.capacity = max(1, capacity)
    }

    enum Verdict: Sendable {
        /// Check the credential; the attempt counts as failed until ``succeeded(scope:digest:)``.
        case allowed
        /// This credential failed from this scope within the window, for this reason.
        case failedBefore(Reason)
        case blocked(retryAfterSeconds: Int)
    }

    /// Whether an attempt with the credential `digest` from `scope` may be checked now.
    func begin(scope: String, digest: String, now: Date) -> Verdict {
        let start = throttle.windowStart(now: now)
        return failures.withLockedValue { failures in
            var recent = (failures[scope] ?? []).filter { $0.at > start }
            if let earlier = recent.last(where: { $0.digest == digest }) {
                // The same credential failed, or is being checked: it counts once.
                return earlier.reason.map { .failedBefore($0) } ?? .allowed
            }
            if case .blocked(let seconds) = throttle.decide(failures: recent.map(\.at), now: now) {
                return .blocked(retryAfterSeconds: seconds)
            }
            if failures[scope] == nil, failures.count >= capacity { Self.makeRoom(in: &failures, after: start) }
            recent.append(Failure(at: now, digest: digest))
            failures[scope] = Array(recent.suffix(max(1, throttle.maxFailures)))
            return .allowed
        }
    }

    /// The attempt with `digest` from `scope` failed, for `reason`.
    func failed(_ reason: Reason, scope: String, digest: String, now: Date) {
        failures.withLockedValue { failures in
            var list = failures[scope] ?? []
            if let index = list.lastIndex(where: { $0.digest == digest }) {
                list[index].reason = reason
            } else {
                if failures[scope] == nil, failures.count >= capacity {
                    Self.makeRoom(in: &failures, after: throttle.windowStart(now: now))
                }
                list.append(Failure(at: now, digest: digest, reason: reason))
            }
            failures[scope] = Array(list.suffix(max(1, throttle.maxFailures)))
        }
    }

    /// The attempt with `digest` from `scope` was right: it is no failure.
    func succeeded(scope: String, digest: String) {
        failures.withLockedValue { failures in
            guard let list = failures[scope] else { return }
            let rest = list.filter { $0.digest != digest }
            failures[scope] = rest.isEmpty ? nil : rest
        }
    }

    /// How many scopes are kept.
    var count: Int { failures.withLockedValue { $0.count } }

    /// Gives up the scopes whose attempts all left the window; if none did, the one whose last
    /// attempt is the oldest.
    private static func makeRoom(in failures: inout [String: [Failure]], after start: Date) {
        let before = failures.count
        failures = failures.filter { $0.value.contains { $0.at > start } }
        guard failures.count == before else { return }
        let oldest = failures.min { ($0.value.last?.at ?? .distantPast) < ($1.value.last?.at ?? .distantPast) }
        if let oldest { failures[oldest.key] = nil }
    }
}
