import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import CampusServer

/// The generated code writes the response headers openapi.yaml declares percent-encoded, as URI
/// components; `RecordingTransport` gives each back its handler's value (issue 35: avatars and
/// library, task and station images went out with `Cache-Control: private%2C%20max-age%3D86400`,
/// which no cache understands).
@Suite struct GeneratedHeadersTests {
    @Test func declaredHeadersReachTheWireAsTheHandlerWroteThem() async throws {
        try await TestServer.run { server in
            let ann = try await server.register("ann@example.org")
            let token = try await server.login("ann@example.org")
            let put = try await server.putAvatar(token: token)
            let url = try #require(put.json["avatarUrl"] as? String, "\(put.text)")
            for method in [HTTPRequest.Method.get, .head] {
                let avatar = try await server.request(method, url, token: token)
                #expect(avatar.status == .ok)
                #expect(avatar.headers[.cacheControl] == "private, max-age=86400", "\(method)")
                let tag = try #require(avatar.headers[.eTag])
                #expect(tag.hasPrefix("\"\(ann.id)-") && tag.hasSuffix("\"") && !tag.contains("%"), "\(tag)")
                #expect(avatar.headers[.contentType] == "image/png")
            }
        }
    }

    @Test func onlyFieldsOfGeneratedAnswersAreDecoded() {
        let fields: HTTPFields = [
            .contentType: "text/plain; charset=utf-8", .cacheControl: "public%2C%20max-age%3D31536000",
            .contentDisposition: "attachment%3B%20filename%2A%3DUTF-8%27%27a%2520b.mp3", .eTag: "%221-2%22",
        ]
        let plain = RecordingTransport.plain(fields)
        #expect(plain[.cacheControl] == "public, max-age=31536000")
        // A value percent-encoded on purpose (RFC 8187) comes back as the handler wrote it.
        #expect(plain[.contentDisposition] == "attachment; filename*=UTF-8''a%20b.mp3")
        #expect(plain[.eTag] == "\"1-2\"")
        #expect(plain[.contentType] == "text/plain; charset=utf-8")
    }
}
