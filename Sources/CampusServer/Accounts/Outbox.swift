import Foundation
import Logging
import SQLKit
import ServiceLifecycle
import Storage

/// Something that delivers mail. Campus ships ``LogMailSender``; an SMTP sender fits the same shape.
public protocol MailSender: Sendable {
    func send(to recipient: String, subject: String, body: String) async throws
}

/// "Delivers" mail by writing it to the log, where an operator without a mail server finds it.
struct LogMailSender: MailSender {
    let logger: Logger

    func send(to recipient: String, subject: String, body: String) async throws {
        // One log line per message: the body's line breaks are written as \n.
        logger.notice(
            "mail", metadata: ["to": "\(recipient)", "subject": "\(subject)", "body": "\(body.debugDescription)"])
    }
}

/// Mail is written to the `outbox` table in the same transaction as the change it reports, then
/// delivered; a message survives a crash and is retried until it goes out (at most 10 attempts).
struct Outbox: Sendable {
    let database: Database
    let sender: any MailSender
    let logger: Logger
    let now: @Sendable () -> Date

    func enqueue(in db: any SQLDatabase, to recipient: String, subject: String, body: String) async throws {
        try await AccountStore(db).enqueueMail(recipient: recipient, subject: subject, body: body, now: now())
    }

    /// Starts delivering in the background, so that the request need not wait for it.
    func deliverSoon() {
        Task {
            do {
                try await deliverPending()
            } catch {
                logger.warning("mail delivery failed", metadata: ["error": "\(String(reflecting: error))"])
            }
        }
    }

    /// Delivers pending messages; returns how many went out.
    @discardableResult
    func deliverPending() async throws -> Int {
        let pending = try await database.read { db in try await AccountStore(db).pendingMail(limit: 50) }
        var delivered = 0
        for message in pending {
            let now = now()
            let claimed = try await database.write { db in
                try await AccountStore(db).claimMail(
                    id: message.id, now: now, staleBefore: now.addingTimeInterval(-300))
            }
            guard claimed else { continue }
            do {
                try await sender.send(to: message.recipient, subject: message.subject, body: message.body)
                try await database.write { db in try await AccountStore(db).markMailSent(id: message.id, now: now) }
                delivered += 1
            } catch {
                let text = String(describing: error)
                try await database.write { db in try await AccountStore(db).markMailFailed(id: message.id, error: text)
                }
                logger.warning("mail not delivered", metadata: ["id": "\(message.id)", "error": "\(text)"])
            }
        }
        return delivered
    }
}
