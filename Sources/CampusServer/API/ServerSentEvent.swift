import ServiceLifecycle

/// Server-Sent Events (`text/event-stream`) as the live API streams write them: the live ranking
/// and a station's now-playing.
enum ServerSentEvent {
    /// One event: `event:`, `id:`, `retry:` and `data:` lines, then a blank line (a bare `:` comment
    /// line when there is nothing, which keeps a connection alive).
    static func text(name: String?, id: String?, data: String?, retry: Int? = nil) -> ArraySlice<UInt8> {
        var text = ""
        if let retry { text += "retry: \(retry)\n" }
        if let name { text += "event: \(name)\n" }
        if let id { text += "id: \(id)\n" }
        if let data {
            for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        }
        if text.isEmpty { text = ":\n" }
        return ArraySlice((text + "\n").utf8)
    }

    typealias Continuation = AsyncStream<ArraySlice<UInt8>>.Continuation

    /// A comment line: it keeps an idle connection open through proxies.
    static let heartbeat = text(name: nil, id: nil, data: nil)

    /// Until graceful shutdown (or cancellation), a heartbeat to every stream each `interval`;
    /// then every stream ends. `streams` are the streams now; `removeAll` takes them all away.
    static func keepAlive(
        every interval: Duration, streams: () -> [Continuation], removeAll: () -> [Continuation]
    ) async {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            for continuation in streams() { continuation.yield(heartbeat) }
        }
        for continuation in removeAll() { continuation.finish() }
    }
}
