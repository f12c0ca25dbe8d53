import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CampusServer

/// Links Campus keeps follow the rule of redirects after login (`LinkRules`): a feed block's
/// title, ad and banner lead to a path of this site or an http(s) address, never to another site
/// by a path a browser reads differently (`/\evil.example` is `//evil.example` to a browser).
@Suite struct StoredLinkTests {
    @Test func feedBlockLinksAreSitePathsOrWebAddresses() async throws {
        try await TestServer.run { server in
            try await server.register("admin@example.org")
            try await server.makeAdmin("admin@example.org")
            let admin = try await server.login("admin@example.org")
            func save(_ block: String) async throws -> TestResponse {
                try await server.request(.put, "/api/v1/feed/blocks", json: #"{"blocks":[\#(block)]}"#, token: admin)
            }
            for titleLink in [
                #"/\\evil.example"#, #"/\\/evil.example"#, #"\\\\evil.example"#, "//evil.example",
                #"/\t/evil.example"#, #"/\u0009/evil.example"#, "https://evil.example", "/ evil", "/é",
            ] {
                let answer = try await save(
                    #"{"type":"list_title_link","title":"T","source":"genres","titleLink":"\#(titleLink)"}"#)
                #expect(answer.status == .unprocessableContent, "\(titleLink): \(answer.text)")
                #expect(answer.text.contains("blocks[0].titleLink"), "\(titleLink): \(answer.text)")
            }
            for link in [#"/\\evil.example"#, #"https:\\\\evil.example"#, "javascript:alert(1)", "https://", "/ x"] {
                let answer = try await save(#"{"type":"ad","title":"","source":"link","link":"\#(link)"}"#)
                #expect(answer.status == .unprocessableContent, "\(link): \(answer.text)")
                #expect(answer.text.contains("blocks[0].link"), "\(link): \(answer.text)")
            }
            // What the rule allows is kept.
            let kept = try await save(
                #"{"type":"list_title_link","title":"T","source":"genres","titleLink":"/listen/genres?x=%D0%90"}"#)
            #expect(kept.status == .ok, "\(kept.text)")
            let ad = try await save(
                #"{"type":"ad","title":"","source":"link","link":" https://example.org/open-day "}"#)
            #expect(ad.status == .ok, "\(ad.text)")
            let saved = (ad.json["blocks"] as? [[String: Any]])?.first
            #expect(saved?["link"] as? String == "https://example.org/open-day")
        }
    }
}
