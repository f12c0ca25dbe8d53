import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

/// Who may do what in the notification centre (issue 39), as a matrix: each operation by its
/// owner, by another user and by nobody signed in. What is another's is never found.
@Suite struct NotificationAuthorizationTests {
    static let subscription = """
        {"endpoint":"https://push.example.net/send/abc","expirationTime":null,
         "keys":{"p256dh":"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
                 "auth":"BTBZMqHH6r4Tts7J_aSIgg"}}
        """

    @Test(arguments: TestDatabases.kinds)
    func everyOperationIsItsOwnersAlone(_ kind: Database.Kind) async throws {
        try await TestServer.run(kind) { server in
            try await server.register("ann@example.org")
            try await server.register("ben@example.org")
            let ann = try await server.login("ann@example.org")
            let ben = try await server.login("ben@example.org")
            let created = try await server.request(
                .post, "/api/v1/me/push-subscriptions", json: Self.subscription, token: ann)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["id"] as? Int)

            struct Case {
                var method: HTTPRequest.Method
                var path: String
                var body: String?
                var owner: HTTPResponse.Status
                var other: HTTPResponse.Status
            }
            let settings = #"{"topics":[],"lessonMinutes":10,"examDays":2,"emailDigest":true}"#
            let cases = [
                Case(method: .get, path: "/api/v1/me/notifications", owner: .ok, other: .ok),
                Case(method: .post, path: "/api/v1/me/notifications/read", body: "{}", owner: .ok, other: .ok),
                Case(method: .get, path: "/api/v1/me/notification-settings", owner: .ok, other: .ok),
                Case(method: .put, path: "/api/v1/me/notification-settings", body: settings, owner: .ok, other: .ok),
                Case(method: .get, path: "/api/v1/me/push-subscriptions", owner: .ok, other: .ok),
                Case(method: .delete, path: "/api/v1/me/push-subscriptions/\(id)", owner: .noContent, other: .notFound),
            ]
            for test in cases {
                let anonymous = try await server.request(test.method, test.path, json: test.body)
                #expect(anonymous.status == .unauthorized, "\(test.method) \(test.path) by nobody")
                let other = try await server.request(test.method, test.path, json: test.body, token: ben)
                #expect(other.status == test.other, "\(test.method) \(test.path) by another: \(other.text)")
            }
            // What Ben saw and changed was his own: Ann's subscription and settings are as they were.
            let list = try await server.request(.get, "/api/v1/me/push-subscriptions", token: ben)
            #expect((list.json["items"] as? [Any])?.isEmpty == true)
            let annSettings = try await server.request(.get, "/api/v1/me/notification-settings", token: ann)
            #expect(annSettings.json["lessonMinutes"] as? Int == 15)
            let benSettings = try await server.request(.get, "/api/v1/me/notification-settings", token: ben)
            #expect(benSettings.json["lessonMinutes"] as? Int == 10)
            for test in cases {
                let owner = try await server.request(test.method, test.path, json: test.body, token: ann)
                #expect(owner.status == test.owner, "\(test.method) \(test.path) by its owner: \(owner.text)")
            }
            // The key is public.
            let key = try await server.request(.get, "/api/v1/push/key")
            #expect(key.status == .ok && (key.json["publicKey"] as? String)?.count == 87)
        }
    }
}
