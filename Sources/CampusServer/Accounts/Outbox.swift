import Foundation
import Logging
import SQLKit
import ServiceLifecycle
import Storage

/// A plain-text mail to one reader; `listUnsubscribe` is the one-click address (RFC 8058) of a
/// notification's mail, which mail clients post to.
public struct MailMessage: Sendable, Equatable {
    public var to: String
    public var subject: String
    public var body: String
    public var listUnsubscribe: String?

    public init(to: String, subject: String, body: String, listUnsubscribe: String? = nil) {
        self.to = to
        self.subject = subject
        self.body = body
        self.listUnsubscribe = listUnsubscribe
    }
}

/// Something that delivers mail: ``FileMailSender`` without a mail server, ``SMTPMailSender``
/// with one.
public protocol MailSender: Sendable {
    func send(_ message: MailMessage) async throws
}

extension MailSender {
    func send(to recipient: String, subject: String, body: String) async throws {
        try await send(MailMessage(to: recipient, subject: subject, body: body))
    }
}

/// "Delivers" mail without a mail server: each message is a file of its own in the `mail` folder
/// of the data directory (readable by its owner only), where an operator finds it. The log says
/// that a message was written, to whom, its subject and its file, never its body: a reset link
/// in the log would be a way into the account for whoever reads the log.
struct FileMailSender: MailSender {
    let folder: URL
    let logger: Logger

    init(dataDirectory: String, logger: Logger) {
        self.folder = URL(fileURLWithPath: dataDirectory).appendingPathComponent("mail")
        self.logger = logger
    }

    func send(_ mail: MailMessage) async throws {
        let (recipient, subject, body) = (mail.to, mail.subject, mail.body)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let now = Date()
        let name = "\(Int64(now.timeIntervalSince1970 * 1000))-\(UUID().uuidString.prefix(8).lowercased()).eml"
        let file = folder.appendingPathComponent(name)
        let message = """
            Date: \(now.formatted(Date.ISO8601FormatStyle()))
            To: \(recipient)
            Subject: \(subject)\(mail.listUnsubscribe.map { "\nList-Unsubscribe: <\($0)>\nList-Unsubscribe-Post: List-Unsubscribe=One-Click" } ?? "")
            Content-Type: text/plain; charset=utf-8

            \(body)

            """
        guard
            FileManager.default.createFile(
                atPath: file.path, contents: Data(message.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        logger.notice(
            "mail written", metadata: ["to": "\(recipient)", "subject": "\(subject)", "file": "\(file.path)"])
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
                logger.warning("mail delivery failed", metadata: ["error": "\(ErrorLog.text(error))"])
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
                let text = ErrorLog.text(error)
                try await database.write { db in try await AccountStore(db).markMailFailed(id: message.id, error: text)
                }
                logger.warning("mail not delivered", metadata: ["id": "\(message.id)", "error": "\(text)"])
            }
        }
        return delivered
    }
}
