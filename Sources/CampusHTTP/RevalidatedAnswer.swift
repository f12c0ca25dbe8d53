import Crypto
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOCore
import SharedHelpers

extension Response {
    /// A small answer made afresh each time but tagged with its content's digest (a strong
    /// ETag, `Cache-Control: no-cache`): a browser that has it asks "has it changed?" and gets
    /// 304 without the body (the lesson types' colours, the web app manifest).
    public static func revalidated(_ body: ByteBuffer, contentType: String, for request: Request) -> Response {
        let tag = ContentTag.of(body)
        let headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-cache", .eTag: tag]
        if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, tag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}

/// A strong ETag made of a body's digest (the first 12 bytes of its SHA-256, in hexadecimal):
/// the same bytes, the same tag.
public enum ContentTag {
    public static func of(_ body: ByteBuffer) -> String {
        let digest = body.withUnsafeReadableBytes { SHA256.hash(data: $0) }
        return "\"\(digest.prefix(12).hexadecimal)\""
    }
}
