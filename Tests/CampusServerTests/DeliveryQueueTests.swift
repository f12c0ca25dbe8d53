import Accounts
import CampusTestSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import Storage
import Testing

@testable import CampusServer

/// The delivery queue (issue 39) with a mailbox that tests read: a digest is one mail, a failure
/// is tried again later and given up after the last attempt, an expired message never goes out.
@Suite struct DeliveryQueueTests {
    final class FlakyMail: MailSender {
        let failing = NIOLockedValueBox(true)
        let sent = NIOLockedValueBox<[MailMessage]>([])

        func send(_ message: MailMessage) async throws {
            if failing.withLockedValue({ $0 }) { throw CocoaError(.fileWriteUnknown) }
            sent.withLockedValue { $0.append(message) }
        }
    }

    func queue(_ database: Database, mail: any MailSender, clock: TestClock) -> DeliveryQueue {
        let now: @Sendable () -> Date = { clock.now }
        return DeliveryQueue(
            database: database,
            changes: ChangeNotices(database: database, languages: .english, timeZone: .gmt, now: now),
            push: PushSender(
                key: VAPIDKey(privateKey: .init()), subject: "mailto:it@example.org", policy: PushEndpointPolicy()),
            mail: mail,
            unsubscribeLinks: UnsubscribeLinks(links: LinkSigner(secret: "secret"), baseURL: "https://campus.example"),
            baseURL: "https://campus.example", languages: .english,
            instance: "test", logger: Logger(label: "test"), now: now)
    }

    func user(_ database: Database, now: Date) async throws -> Account {
        try await database.write { db in
            try await AccountStore(db).createUser(
                NewUser(email: "ann@example.org", passwordHash: "x", firstName: "Ann", lastName: "Lee", role: .user),
                now: now)
        }
    }

    func notice(_ userID: Int64, _ cause: String, due: Date, expires: Date? = nil) -> NewNotification {
        NewNotification(
            userID: userID, topic: .scheduleChanged, cause: cause, title: "Title \(cause)", body: "Body \(cause)",
            link: "/timetable/groups/1", choice: NotificationChoice(inbox: true, push: false, email: true), dueAt: due,
            expiresAt: expires)
    }

    @Test(arguments: TestDatabases.kinds)
    func aDigestIsOneMailAndAFailureIsTriedAgainLater(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind) { database in
            let clock = TestClock()
            let ann = try await user(database, now: clock.now)
            try await database.write { [clock] db in
                let store = NotificationStore(db)
                for cause in ["a", "b", "c"] {
                    try await store.write(notice(ann.id, cause, due: clock.now), now: clock.now)
                }
                try await store.write(
                    notice(ann.id, "late", due: clock.now, expires: clock.now.addingTimeInterval(-1)), now: clock.now)
            }
            let mail = FlakyMail()
            let queue = queue(database, mail: mail, clock: clock)
            #expect(try await queue.deliverDue() == 3)
            #expect(mail.sent.withLockedValue { $0 }.isEmpty)
            // Not again until its pause is over.
            #expect(try await queue.deliverDue() == 0)
            clock.advance(by: 31)
            mail.failing.withLockedValue { $0 = false }
            #expect(try await queue.deliverDue() == 3)
            let sent = mail.sent.withLockedValue { $0 }
            #expect(sent.count == 1, "three due at once are one mail")
            let digest = try #require(sent.first)
            #expect(digest.to == "ann@example.org")
            #expect(digest.subject == "3 notifications from Campus")
            for cause in ["a", "b", "c"] { #expect(digest.body.contains("Title \(cause)\nBody \(cause)")) }
            #expect(!digest.body.contains("Title late"), "an expired message never goes out")
            #expect(digest.body.contains("https://campus.example/timetable/groups/1"))
            let unsubscribe = try #require(digest.listUnsubscribe)
            #expect(unsubscribe.hasPrefix("https://campus.example/api/v1/notifications/unsubscribe?"))
            #expect(digest.body.contains("https://campus.example/notifications/unsubscribe?"))
            #expect(try await database.read { db in try await NotificationStore(db).waiting() } == 0)
        }
    }

    @Test func aDeliveryThatNeverGoesOutIsGivenUpAfterItsLastAttempt() async throws {
        try await TestDatabases.withDatabase(.sqlite) { database in
            let clock = TestClock()
            let ann = try await user(database, now: clock.now)
            try await database.write { [clock] db in
                try await NotificationStore(db).write(notice(ann.id, "x", due: clock.now), now: clock.now)
            }
            let queue = queue(database, mail: FlakyMail(), clock: clock)
            var attempts = 0
            for _ in 0..<20 {
                attempts += try await queue.deliverDue()
                clock.advance(by: 7 * 3600)
            }
            #expect(attempts == DeliveryQueue.attempts)
            #expect(try await database.read { db in try await NotificationStore(db).waiting() } == 0)
        }
    }
}
