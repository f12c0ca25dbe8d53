import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// A competition's chat (issue 41): who reads, writes and deletes (the matrix, on SQLite and
/// PostgreSQL, active and deactivated), what a message may hold, the rate limit, history pages,
/// and the page. Across instances and in Chromium: Tests/e2e/test_chat.py.
@Suite struct ChatTests {
    enum Who: String, CaseIterable, CustomStringConvertible {
        /// Ann wrote the message the operations act on; Ben joined too; Cora did not; Dan is a
        /// co-organizer.
        case anonymous, writer, participant, outsider, coOrganizer, owner, admin
        var description: String { rawValue }
    }

    struct Operation: Sendable, CustomStringConvertible {
        var name: String
        var method: HTTPRequest.Method
        /// After `/api/v1/competitions/{id}`; `{message}` is Ann's message.
        var path: String
        var json: String?
        var active: [Int]
        var inactive: [Int]
        var description: String { name }
    }

    static let operations: [Operation] = [
        Operation(
            name: "read", method: .get, path: "/messages", active: [401, 200, 200, 403, 200, 200, 200],
            inactive: [401, 200, 200, 403, 200, 200, 200]),
        Operation(
            name: "write", method: .post, path: "/messages", json: #"{"text": "Start moved to 10:15"}"#,
            active: [401, 201, 201, 403, 201, 201, 201], inactive: [401, 409, 409, 403, 409, 409, 409]),
        Operation(
            name: "delete", method: .delete, path: "/messages/{message}", active: [401, 204, 403, 403, 204, 204, 204],
            inactive: [401, 204, 403, 403, 204, 204, 204]),
        // Refusals of the live stream (an accepted one never ends).
        Operation(
            name: "follow", method: .get, path: "/messages/live", active: [401, 0, 0, 403, 0, 0, 0],
            inactive: [401, 0, 0, 403, 0, 0, 0]),
    ]

    @Test(arguments: TestDatabases.kinds) func everyOperationForEveryRole(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            _ = try await server.register("cora@example.org", firstName: "Cora", lastName: "Outside")
            let dan = try await server.register("dan@example.org", firstName: "Dan", lastName: "Helper")
            let tokens: [Who: String] = [
                .writer: cast.ann, .participant: cast.ben, .outsider: try await server.login("cora@example.org"),
                .coOrganizer: try await server.login("dan@example.org"), .owner: cast.owner, .admin: cast.admin,
            ]
            for active in [true, false] {
                for operation in Self.operations {
                    for (index, who) in Who.allCases.enumerated() {
                        let expected = (active ? operation.active : operation.inactive)[index]
                        guard expected != 0 else { continue }
                        let id = try await server.createCompetition(cast.owner)
                        let base = "/api/v1/competitions/\(id)"
                        for token in [cast.ann, cast.ben] {
                            _ = try await server.request(.post, "\(base)/participants/me", token: token)
                        }
                        _ = try await server.request(.put, "\(base)/organizers/\(dan.id)", token: cast.owner)
                        let written = try await server.request(
                            .post, "\(base)/messages", json: #"{"text": "Hello"}"#, token: cast.ann)
                        #expect(written.status == .created, "\(written.text)")
                        let message = (written.json["id"] as? NSNumber)?.int64Value ?? 0
                        if !active {
                            _ = try await server.request(.post, "\(base)/deactivate", token: cast.owner)
                        }
                        let path = operation.path.replacingOccurrences(of: "{message}", with: String(message))
                        let answer = try await server.request(
                            operation.method, base + path, json: operation.json, token: tokens[who])
                        #expect(
                            Int(answer.status.code) == expected,
                            "\(operation) as \(who), active \(active), on \(kind): \(answer.status) \(answer.text)")
                    }
                }
            }
        }
    }

    static func write(_ server: TestServer, _ id: Int64, _ text: String, _ token: String) async throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: ["text": text])
        return try await server.request(
            .post, "/api/v1/competitions/\(id)/messages", json: String(decoding: body, as: UTF8.self), token: token)
    }

    @Test(arguments: TestDatabases.kinds) func whatAMessageHoldsAndHowOften(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner)
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)

            // Any script and direction, kept as written (composed), without the spaces around.
            let texts = [
                "Старт перенесли на 10:15 — у главного входа", "Стартът е в 10:15 ч.", "السباق يبدأ الساعة العاشرة",
                "שלום לכולם", "马拉松 10:15 开始 🏃‍♀️",
            ]
            for text in texts {
                let answer = try await Self.write(server, id, "  \(text)\n", cast.ann)
                #expect(answer.status == .created && answer.json["text"] as? String == text, "\(answer.text)")
            }
            let decomposed = try await Self.write(server, id, "Cafe\u{301}", cast.owner)
            #expect(decomposed.json["text"] as? String == "Caf\u{E9}")

            // Too long, empty and control characters are 422; 2,000 characters are fine.
            for bad in [String(repeating: "я", count: 2001), "   ", "ring\u{7}bell"] {
                let answer = try await Self.write(server, id, bad, cast.owner)
                #expect(answer.status == .unprocessableContent, "\(answer.text)")
                #expect(answer.headers[.contentType]?.hasPrefix("application/problem+json") == true)
            }
            #expect(
                try await Self.write(server, id, String(repeating: "я", count: 2000), cast.owner).status == .created)

            // Ten a minute: Ann wrote five; five more, then 429 with Retry-After. Others still write.
            for number in 0..<5 {
                #expect(try await Self.write(server, id, "Lap \(number)", cast.ann).status == .created)
            }
            let limited = try await Self.write(server, id, "One too many", cast.ann)
            #expect(limited.status == .tooManyRequests, "\(limited.text)")
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1, "\(limited.headers)")
            #expect(try await Self.write(server, id, "Fine", cast.owner).status == .created)
            server.clock.advance(by: 61)
            #expect(try await Self.write(server, id, "Again", cast.ann).status == .created)

            // History: newest first, page by page; a deleted message keeps its place, without text.
            let first = try await server.request(.get, "/api/v1/competitions/\(id)/messages?limit=5", token: cast.ann)
            let items = first.json["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["text"] as? String } == ["Again", "Fine", "Lap 4", "Lap 3", "Lap 2"])
            let oldest = try #require((items.last?["id"] as? NSNumber)?.int64Value)
            let next = try await server.request(
                .get, "/api/v1/competitions/\(id)/messages?limit=2&before=\(oldest)", token: cast.ann)
            #expect((next.json["items"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Lap 1", "Lap 0"])
            let fine = try #require((items[1]["id"] as? NSNumber)?.int64Value)
            for _ in 0..<2 {
                let deleted = try await server.request(
                    .delete, "/api/v1/competitions/\(id)/messages/\(fine)", token: cast.owner)
                #expect(deleted.status == .noContent)
            }
            let after = try await server.request(.get, "/api/v1/competitions/\(id)/messages?limit=2", token: cast.ann)
            let gone = (after.json["items"] as? [[String: Any]])?.last
            #expect(gone?["deleted"] as? Bool == true && gone?["text"] as? String == "", "\(after.text)")
            #expect(
                try await server.request(.delete, "/api/v1/competitions/\(id)/messages/999999", token: cast.owner)
                    .status == .notFound)
            // A message of another competition is not this chat's.
            let other = try await server.createCompetition(cast.owner, name: "Other")
            #expect(
                try await server.request(.delete, "/api/v1/competitions/\(other)/messages/\(oldest)", token: cast.owner)
                    .status == .notFound)
        }
    }

    @Test func thePageWritesDeletesAndLinksTheLiveStream() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner, name: "Lake loop")
            _ = try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann)
            var ann = WebVisit(server, token: cast.ann)
            #expect(try await ann.get("/compete/\(id)").text.contains(#"href="/compete/\#(id)/chat""#))
            #expect(try await ann.get("/compete/\(id)/chat").text.contains(#"id="no-messages""#))
            let sent = try await ann.post("/compete/\(id)/chat", [("text", "<b>Hi</b> from the start line")])
            #expect(sent.status == .seeOther, "\(sent.text)")
            let page = try await ann.get("/compete/\(id)/chat").text
            #expect(page.contains(#"<p class="message-text" dir="auto">&lt;b&gt;Hi&lt;/b&gt; from the start line</p>"#))
            #expect(page.contains(#"data-live="/api/v1/competitions/\#(id)/messages/live""#))
            let empty = try await ann.post("/compete/\(id)/chat", [("text", " ")])
            #expect(empty.status == .seeOther)

            // Ben, who has not joined, sees no chat; the owner deletes Ann's message.
            var ben = WebVisit(server, token: cast.ben)
            #expect(!(try await ben.get("/compete/\(id)").text.contains("/chat\"")))
            #expect(try await ben.get("/compete/\(id)/chat").status == .forbidden)
            var owner = WebVisit(server, token: cast.owner)
            let ownersPage = try await owner.get("/compete/\(id)/chat").text
            let action = try #require(ownersPage.range(of: #"action="/compete/\#(id)/chat/"#))
            let path = String(ownersPage[ownersPage.index(action.lowerBound, offsetBy: 8)...].prefix { $0 != "\"" })
            let deleted = try await owner.post(path, [])
            #expect(deleted.status == .seeOther, "\(deleted.text)")
            #expect(try await ann.get("/compete/\(id)/chat").text.contains("The message was deleted."))
        }
    }
}
