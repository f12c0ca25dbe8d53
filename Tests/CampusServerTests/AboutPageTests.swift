import Foundation
import HTTPTypes
import Testing

@testable import CampusServer

/// The about page names what Campus is made of: every library Package.swift builds into it.
@Suite struct AboutPageTests {
    @Test func everyLibraryOfThePackageIsNamed() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Package.swift")
        let text = try String(contentsOf: package, encoding: .utf8)
        let buildOnly = ["swift-openapi-generator", "swift-snapshot-testing"]
        let urls = text.matches(of: #/url: "([^"]+?)(\.git)?"/#).map { String($0.output.1).lowercased() }
            .filter { url in !buildOnly.contains { url.hasSuffix("/" + $0) } }
        #expect(urls.count > 15)
        let named = Set(AboutPage.parts.map { $0.url.lowercased() })
        for url in urls { #expect(named.contains(url), "\(url) is not on the about page") }
    }

    @Test func theAboutPageSaysTheVersionAndTheLicences() async throws {
        try await TestServer.run { server in
            let page = try await server.request(.get, "/about", headers: [.accept: "text/html"])
            #expect(page.status == .ok)
            #expect(page.text.contains("Campus 1.0.0"))
            #expect(
                page.text.contains(#"<a href="https://github.com/hummingbird-project/hummingbird">Hummingbird</a>"#))
            #expect(page.text.contains("LGPL 2.1 or later"))
        }
    }
}
