import CampusHTTP
import Foundation
import HTTPTypes
import SnapshotTesting
import Testing

@testable import CampusServer

/// The HTML of a handful of pages, with the demo data and a fixed clock (Wednesday 18 November
/// 2026, 10:00 in Minsk), compared with the snapshots in `__Snapshots__/PageSnapshotTests`. A
/// change to a template or a page model shows here as a diff to read; when it is meant, delete
/// the snapshot file and run the test again to record the new one. CSRF tokens, which are
/// random, read `CSRF`.
@Suite(.serialized) struct PageSnapshotTests {
    static let wednesday = Date(timeIntervalSince1970: 1_794_985_200)

    /// The pages, each as the visitor who sees it.
    static let pages: [(name: String, path: String, visitor: String?)] = [
        ("home", "/", nil),
        ("login", "/login", nil),
        ("group-week", "/timetable/groups/151004", "student@campus.test"),
        ("teacher-list", "/timetable/teachers?q=%D0%9D%D0%B0%D1%80%D0%BA", "student@campus.test"),
        ("competition-organizer", "/compete/1", "organizer@campus.test"),
        ("compete-stats", "/compete/stats", "student@campus.test"),
        ("listen-empty", "/listen", "student@campus.test"),
        ("admin-users", "/admin/users", "admin@campus.test"),
        ("today", "/today", "student@campus.test"),
        ("not-found", "/no/such/page", nil),
    ]

    @Test func pagesLookAsTheyDid() async throws {
        try await TestServer.run(
            clock: TestClock(Self.wednesday),
            configure: {
                $0.demo = true
                $0.language = "en"
            }
        ) { server in
            var sessions: [String: String] = [:]
            for account in Demo.accounts {
                sessions[account.email] = try await server.login(account.email, password: account.password)
            }
            for page in Self.pages {
                var headers: HTTPFields = [.accept: "text/html"]
                if let visitor = page.visitor, let token = sessions[visitor] {
                    headers[.cookie] = "\(CookieName.session)=\(token)"
                }
                let response = try await server.request(.get, page.path, headers: headers)
                #expect(response.status == (page.name == "not-found" ? .notFound : .ok), "\(page.path)")
                assertSnapshot(of: Self.normalized(response.text), as: .lines, named: page.name)
            }
        }
    }

    /// The page without what differs on every request.
    static func normalized(_ html: String) -> String {
        html.replacingOccurrences(
            of: #"name="_csrf" value="[^"]*""#, with: #"name="_csrf" value="CSRF""#, options: .regularExpression
        ).replacingOccurrences(
            of: #"name="csrf-token" content="[^"]*""#, with: #"name="csrf-token" content="CSRF""#,
            options: .regularExpression
        ).replacingOccurrences(
            // A static file's link carries its digest, which changes with the file.
            of: #"(/static/[^"?]+)\?v=[0-9a-f]{12}""#, with: #"$1?v=DIGEST""#, options: .regularExpression)
    }
}
