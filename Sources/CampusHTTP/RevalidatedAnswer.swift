import Crypto
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOCore

extension Response {
    /// A small answer made afresh each time but tagged with its content's digest (a strong
    /// ETag, `Cache-Control: no-cache`): a browser that has it asks "has it changed?" and gets
    /// 304 without the body (the lesson types' colours, the web app manifest).
    public static func revalidated(_ body: ByteBuffer, contentType: String, for request: Request) -> Response {
        let digest = SHA256.hash(data: body.readableBytesView).prefix(12).map { String(format: "%02x", $0) }.joined()
        let tag = "\"\(digest)\""
        let headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-cache", .eTag: tag]
        if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, tag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
