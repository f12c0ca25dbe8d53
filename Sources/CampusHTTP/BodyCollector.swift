import HTTPTypes
import Hummingbird
import NIOCore

/// Collects a response body written by Hummingbird (to keep it, or to compress it).
final class BodyCollector {
    var buffer = ByteBuffer()
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The whole of `body`; more than `limit` bytes is an error (a body longer than it said).
    static func collect(_ body: ResponseBody, limit: Int = .max) async throws -> ByteBuffer {
        let collector = BodyCollector(limit: limit)
        try await body.write(CollectingWriter(collector: collector))
        return collector.buffer
    }
}

struct CollectingWriter: ResponseBodyWriter {
    let collector: BodyCollector

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        guard collector.buffer.readableBytes <= collector.limit - buffer.readableBytes else {
            throw HTTPError(.internalServerError, message: "The answer is longer than it said.")
        }
        collector.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
