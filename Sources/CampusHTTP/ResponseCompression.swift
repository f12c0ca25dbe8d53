import CompressNIO
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Sends what a browser reads compressed with gzip (issue 36): HTML, CSS, JavaScript, JSON and
/// problem documents, calendars, XML and feeds, SVG and plain text, when the request accepts gzip
/// and the whole answer is 1 KiB to 8 MiB with its length known. Never audio, video or raster
/// images (compressed already), never a range (206), an answer encoded already, or a stream
/// whose length is not known (server-sent events, a live station: they are written as they
/// come). Every answer of a compressible type says `Vary: Accept-Encoding`.
///
/// A strong ETag of a compressed answer gets `-gzip` inside its quotes (the bytes differ), and a
/// request's `If-None-Match` has it taken off again before the route compares it to its own,
/// so revalidation (304) works for either encoding. A HEAD is answered as its GET would be.
///
/// gzip only: brotli has no maintained Swift package in the environment (compress-nio has
/// zlib's gzip and deflate), and gzip is what every browser accepts.
public enum ResponseCompression {
    public static let minimumBytes = 1024
    public static let maximumBytes = 8 << 20
    static let tagSuffix = "-gzip"

    /// The media types compressed (besides every `text/…` but event streams).
    static let compressibleTypes: Set<String> = [
        "application/json", "application/problem+json", "application/javascript", "application/xml",
        "application/rss+xml", "application/atom+xml", "application/gpx+xml", "application/xhtml+xml",
        "application/manifest+json", "application/vnd.apple.mpegurl", "application/x-mpegurl", "image/svg+xml",
        "application/yaml", "application/openapi+yaml",
    ]

    /// Whether answers of this `Content-Type` are compressed.
    public static func isCompressible(contentType: String?) -> Bool {
        guard let contentType else { return false }
        // The media type before any parameters, without spaces around it, in lower case: read
        // from the bytes (every answer asks, and Foundation's trimming cost a fresh schedule 4 %).
        let spaces: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let utf8 = contentType.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
        guard let first = utf8[..<end].firstIndex(where: { !spaces($0) }),
            let last = utf8[..<end].lastIndex(where: { !spaces($0) })
        else { return false }
        let bare = contentType[first...last]
        let type =
            bare.utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
            ? bare.lowercased() : String(bare)
        if type.hasPrefix("text/") { return type != "text/event-stream" }
        return compressibleTypes.contains(type)
    }

    /// Whether `Accept-Encoding` takes gzip: named (or `*`) with a weight that is not zero.
    public static func acceptsGzip(_ headers: HTTPFields) -> Bool {
        var named: Bool?
        var any: Bool?
        for value in headers[values: .acceptEncoding] where value.utf8.count <= 1024 {
            for part in value.split(separator: ",") {
                let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let coding = pieces.first else { continue }
                let weight = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                switch coding {
                case "gzip", "x-gzip": named = weight > 0
                case "*": any = weight > 0
                default: break
                }
            }
        }
        return named ?? any ?? false
    }

    /// `If-None-Match` and `If-Match` with the compressed answers' tags taken back to the route's own.
    /// Returns whether it changed anything.
    static func unmarkConditions(_ headers: inout HTTPFields) -> Bool {
        var changed = false
        for name in [HTTPField.Name.ifNoneMatch, .ifMatch] {
            guard let value = headers[name], value.contains(tagSuffix + "\"") else { continue }
            headers[name] = value.replacingOccurrences(of: tagSuffix + "\"", with: "\"")
            changed = true
        }
        return changed
    }

    /// Whether the GET of this answer to a HEAD would be compressed.
    static func wouldCompress(head response: Response) -> Bool {
        guard response.status == .ok, isCompressible(contentType: response.headers[.contentType]),
            response.headers[.contentEncoding] == nil,
            let length = response.headers[.contentLength].flatMap({ Int($0) })
        else { return false }
        return length >= minimumBytes && length <= maximumBytes
    }

    /// The answer compressed when it should be and `gzip` is accepted; `Vary` added to every
    /// answer of a compressible type.
    static func compress(_ response: Response, gzip: Bool, memo: CompressedBodies) async throws -> Response {
        var response = response
        guard vary(status: response.status, headers: &response.headers), gzip,
            let length = response.body.contentLength, compresses(length: length, headers: response.headers)
        else { return response }
        let tag = strongTag(response.headers)
        var body = try await BodyCollector.collect(response.body, limit: length)
        let compressed: ByteBuffer
        if let tag, let kept = memo.compressed(body, tagged: tag) {
            compressed = kept
        } else {
            let original = body
            compressed = try body.compress(with: .gzip())
            if let tag { memo.keep(compressed, of: original, tagged: tag) }
        }
        markCompressed(&response.headers, length: compressed.readableBytes)
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    /// Adds `Vary: Accept-Encoding` to an answer of a compressible type and says whether its body
    /// may be compressed (not a range, a 304, an empty answer or one encoded already).
    static func vary(status: HTTPResponse.Status, headers: inout HTTPFields) -> Bool {
        guard isCompressible(contentType: headers[.contentType]), headers[.contentEncoding] == nil,
            status != .partialContent, status != .notModified, status != .noContent
        else { return false }
        if !(headers[values: .vary].contains { $0.lowercased().contains("accept-encoding") }) {
            headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        }
        return true
    }

    /// Whether a body of `length` bytes is compressed (1 KiB to 8 MiB, not a part of a whole).
    static func compresses(length: Int, headers: HTTPFields) -> Bool {
        length >= minimumBytes && length <= maximumBytes && headers[.contentRange] == nil
    }

    /// The answer's ETag when it is a strong one (quoted).
    static func strongTag(_ headers: HTTPFields) -> String? {
        headers[.eTag].flatMap { $0.hasPrefix("\"") && $0.hasSuffix("\"") ? $0 : nil }
    }

    /// The headers of the compressed form of an answer: its own tag marked, the encoding, the length.
    static func markCompressed(_ headers: inout HTTPFields, length: Int) {
        if let tag = strongTag(headers) { headers[.eTag] = String(tag.dropLast()) + tagSuffix + "\"" }
        headers[.contentEncoding] = "gzip"
        headers[.contentLength] = String(length)
    }
}

/// Compressed bodies of answers with a strong ETag (static files, kept schedules), so that the
/// same bytes are compressed once: at most ``capacity`` bytes (originals and compressed), the
/// oldest forgotten first. A kept body is given only for the very bytes it was made of: some tags
/// are versions, not digests (a user's feed), and two answers may share one.
public final class CompressedBodies: Sendable {
    private struct Entry {
        var original: ByteBuffer
        var compressed: ByteBuffer
        var bytes: Int { original.readableBytes + compressed.readableBytes }
    }

    private struct Kept {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var bytes = 0
    }

    let capacity: Int
    private let kept = NIOLockedValueBox(Kept())

    public init(capacity: Int = 8 << 20) {
        self.capacity = capacity
    }

    /// The compressed `original`, when it was kept under `tag`.
    func compressed(_ original: ByteBuffer, tagged tag: String) -> ByteBuffer? {
        guard let entry = kept.withLockedValue({ $0.entries[tag] }), entry.original == original else { return nil }
        return entry.compressed
    }

    func keep(_ compressed: ByteBuffer, of original: ByteBuffer, tagged tag: String) {
        let entry = Entry(original: original, compressed: compressed)
        guard entry.bytes <= capacity / 4 else { return }
        kept.withLockedValue { kept in
            if let old = kept.entries.updateValue(entry, forKey: tag) {
                kept.bytes -= old.bytes
            } else {
                kept.order.append(tag)
            }
            kept.bytes += entry.bytes
            while kept.bytes > capacity, !kept.order.isEmpty {
                let oldest = kept.order.removeFirst()
                kept.bytes -= kept.entries.removeValue(forKey: oldest)?.bytes ?? 0
            }
        }
    }
}

/// Compresses every answer Hummingbird writes (``ResponseCompression``): those of the router and
/// of the early answers alike. Of the answers made at once (``ImmediateAnswerHandler``), ranges
/// of media are never compressed and a kept answer (``CachedAnswer``) does the same with the gzip
/// form it keeps.
public struct CompressingResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == CampusRequestContext {
    public typealias Context = CampusRequestContext
    let inner: Inner
    let memo: CompressedBodies

    public init(_ inner: Inner, memo: CompressedBodies = CompressedBodies()) {
        self.inner = inner
        self.memo = memo
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        let gzip = ResponseCompression.acceptsGzip(request.headers)
        var request = request
        var head = request.head
        if gzip, ResponseCompression.unmarkConditions(&head.headerFields) {
            request = Request(head: head, body: request.body)
        }
        var response = try await inner.respond(to: request, context: context)
        do {
            // A HEAD of something that would be compressed says what its GET says: the GET is
            // made (only then: never for media, whose GET may start a stream) and its body left out.
            if request.method == .head, gzip, ResponseCompression.wouldCompress(head: response) {
                var get = request.head
                get.method = .get
                response = try await inner.respond(to: Request(head: get, body: request.body), context: context)
                return try await ResponseCompression.compress(response, gzip: gzip, memo: memo).createHeadResponse()
            }
            return try await ResponseCompression.compress(response, gzip: gzip, memo: memo)
        } catch {
            context.logger.error("an answer could not be compressed", metadata: ["error": "\(type(of: error))"])
            return Response(status: .internalServerError)
        }
    }
}
