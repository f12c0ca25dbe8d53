import CampusTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import CampusServer

/// A listener has at most 50 reports waiting: the 51st is a conflict with the queue (409), not a
/// fault of the report's fields (422).
@Suite struct ReportLimitTests {
    @Test func theFiftyFirstWaitingReportIsAConflict() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            let feedback = #"{"reason":"feedback","note":"Dark mode, please."}"#
            for number in 1...50 {
                let filed = try await server.request(.post, "/api/v1/reports", json: feedback, token: ann)
                #expect(filed.status == .created, "report \(number): \(filed.text)")
            }
            let refused = try await server.request(.post, "/api/v1/reports", json: feedback, token: ann)
            #expect(refused.status == .conflict, "\(refused.text)")
            #expect(refused.json["errors"] == nil)
            #expect((refused.json["detail"] as? String)?.contains("50 reports waiting") == true)
            // In the reader's language, like every problem.
            let russian = try await server.request(
                .post, "/api/v1/reports", json: feedback, token: ann, headers: [.acceptLanguage: "ru"])
            #expect(russian.status == .conflict)
            #expect(russian.json["detail"] as? String != refused.json["detail"] as? String)
        }
    }
}
