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
}
