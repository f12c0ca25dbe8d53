import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore

/// Keeps the bytes of answers that depend only on a version of the data (the timetable: lists,
/// details, schedules, calendar feeds), the query and the date, until that version changes. The
/// version comes from the database (every import changes it); the cache compares it at most once
/// a second, so an import by another instance or by the CLI is seen within a second, and one by
/// this server at once (``invalidate()``).
public final class ResponseCache: Sendable {
    struct Entry: Sendable {
        var version: String
        var headers: HTTPFields
        var body: ByteBuffer
        var etag: String
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var version: String?
        var checked: ContinuousClock.Instant?

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
    }

    private let state = NIOLockedValueBox(State())
    /// Reads the version of the data the answers are made of.
    let readVersion: @Sendable () async throws -> String
    /// The most entries and body bytes kept; when either is reached, the cache starts over.
    /// An answer bigger than a sixteenth of the bytes is not kept.
    let capacity: Int
    let maximumBytes: Int
    static let recheckInterval: Duration = .seconds(1)

    public init(
        capacity: Int = 5000, maximumBytes: Int = 64 << 20, version: @escaping @Sendable () async throws -> String
    ) {
        self.readVersion = version
        self.capacity = capacity
        self.maximumBytes = maximumBytes
    }

    /// The timetable's version, read from the database at most once a second.
    func currentVersion() async throws -> String {
        let now = ContinuousClock.now
        let cached = state.withLockedValue { state -> String? in
            guard let version = state.version, let checked = state.checked,
                now - checked < Self.recheckInterval
            else { return nil }
            return version
        }
        if let cached { return cached }
        let version = try await readVersion()
        state.withLockedValue { state in
            if state.version != version { state.removeAll() }
            state.version = version
            state.checked = now
        }
        return version
    }

    /// Makes the next lookup read the version again (after an import by this server).
    public func invalidate() {
        state.withLockedValue { $0.checked = nil }
    }

    /// The key of a request's answer: today's date (a schedule without dates is this week's),
    /// the path and the query.
    static func key(_ request: Request, today: String) -> String {
        "\(today) \(request.uri.path)?\(request.uri.query ?? "")"
    }

    /// Whether nothing is kept (then a request need not ask for the version).
    var isEmpty: Bool { state.withLockedValue { $0.entries.isEmpty } }

    func entry(_ key: String, version: String) -> Entry? {
        state.withLockedValue { state in
            guard let entry = state.entries[key], entry.version == version else { return nil }
            return entry
        }
    }

    func store(_ entry: Entry, for key: String) {
        state.withLockedValue { state in
            let size = entry.body.readableBytes
            guard state.version == entry.version, size <= maximumBytes / 16 else { return }
            if state.entries.count >= capacity || state.bytes + size > maximumBytes { state.removeAll() }
            state.bytes += size - (state.entries[key]?.body.readableBytes ?? 0)
            state.entries[key] = entry
        }
    }
}
