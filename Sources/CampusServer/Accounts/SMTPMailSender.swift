import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import SharedHelpers

/// Where mail goes when an SMTP server is set (`--smtp-url`): `smtp://user:pass@host:587`
/// submits with STARTTLS (required before the password crosses the network, unless the server is
/// this machine), `smtps://…:465` with TLS from the first byte.
public struct SMTPSettings: Sendable, Equatable {
    public enum Security: Sendable, Equatable {
        case startTLS
        case implicitTLS
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    /// The sender's address (`--mail-from`).
    public var from: String
    /// A PEM file of the certificates to trust instead of the system's (a server of the
    /// institution's own authority, or a test's).
    public var caFile: String?

    /// Reads `smtp://…` or `smtps://…`; nil for anything else.
    public init?(url text: String, from: String, caFile: String? = nil) {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            let host = url.host, !host.isEmpty, !from.isEmpty
        else { return nil }
        switch scheme {
        case "smtp": security = .startTLS
        case "smtps": security = .implicitTLS
        default: return nil
        }
        self.host = host
        self.port = url.port ?? (security == .implicitTLS ? 465 : 587)
        self.username = url.user?.removingPercentEncoding
        self.password = url.password?.removingPercentEncoding
        self.from = from
        self.caFile = caFile
    }

    /// The address as a log may show it: no password.
    public var redacted: String {
        "\(security == .implicitTLS ? "smtps" : "smtp")://\(username.map { "\($0)@" } ?? "")\(host):\(port)"
    }
}

/// Submits mail to an SMTP server (RFC 5321, with RFC 3207's STARTTLS and RFC 4954's AUTH PLAIN):
/// one connection per message. No Swift library for SMTP is among those this project may use, so
/// this is a small client of its own on SwiftNIO and NIOSSL: it speaks only what a submission
/// server needs, and writes the message as RFC 5322 with a UTF-8 subject (RFC 2047) and a base64
/// body, so that no line is too long and no line starts with a dot.
struct SMTPMailSender: MailSender {
    let settings: SMTPSettings
    let logger: Logger
    var deadline: Duration = .seconds(30)

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    func send(_ mail: MailMessage) async throws {
        let message = Self.format(mail, from: settings.from, now: Date())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await submit(message, to: mail.to) }
            group.addTask { [deadline] in
                try await Task.sleep(for: deadline)
                throw Failed(description: "the SMTP server did not answer within \(deadline)")
            }
            defer { group.cancelAll() }
            try await group.next()
        }
        logger.notice(
            "mail sent", metadata: ["to": "\(mail.to)", "subject": "\(mail.subject)", "smtp": "\(settings.redacted)"])
    }

    private func submit(_ message: String, to recipient: String) async throws {
        let tls = try tlsContext()
        let session = try await SMTPSession.connect(
            host: settings.host, port: settings.port, tls: settings.security == .implicitTLS ? tls : nil)
        do {
            try await session.expect(220)
            var extensions = try await session.command("EHLO campus", expect: 250)
            if settings.security == .startTLS {
                if extensions.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) {
                    _ = try await session.command("STARTTLS", expect: 220)
                    try await session.startTLS(tls, host: settings.host)
                    extensions = try await session.command("EHLO campus", expect: 250)
                } else if settings.username != nil && !isLoopback {
                    throw Failed(
                        description:
                            "\(settings.host) offers no STARTTLS: Campus does not send its password in clear text")
                }
            }
            if let username = settings.username {
                let token = Data("\0\(username)\0\(settings.password ?? "")".utf8).base64EncodedString()
                _ = try await session.command("AUTH PLAIN \(token)", expect: 235, secret: true)
            }
            _ = try await session.command("MAIL FROM:<\(Self.address(settings.from))>", expect: 250)
            _ = try await session.command("RCPT TO:<\(Self.address(recipient))>", expect: 250, 251)
            _ = try await session.command("DATA", expect: 354)
            _ = try await session.command(message + "\r\n.", expect: 250)
            _ = try? await session.command("QUIT", expect: 221)
            await session.close()
        } catch {
            await session.close()
            throw error
        }
    }

    private var isLoopback: Bool { ["127.0.0.1", "::1", "localhost"].contains(settings.host.lowercased()) }

    private func tlsContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile = settings.caFile { configuration.trustRoots = .file(caFile) }
        return try NIOSSLContext(configuration: configuration)
    }

    /// An address without what would break the envelope's line.
    static func address(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value > 0x20 && $0 != "<" && $0 != ">" }.map(Character.init))
    }

    /// The message as RFC 5322 text with CRLF line ends.
    static func format(_ mail: MailMessage, from: String, now: Date) -> String {
        func header(_ text: String) -> String {
            let clean = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
            guard !clean.unicodeScalars.allSatisfy({ $0.isASCII }) else { return clean }
            return "=?UTF-8?B?\(Data(clean.utf8).base64EncodedString())?="
        }
        let date = now.formatted(
            Date.VerbatimFormatStyle(
                format:
                    "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) +0000",
                locale: Locale(identifier: "en_US_POSIX"), timeZone: .gmt, calendar: Calendar(identifier: .gregorian)))
        let domain = from.split(separator: "@").last.map(String.init) ?? "campus"
        var lines = [
            "From: Campus <\(address(from))>", "To: <\(address(mail.to))>", "Subject: \(header(mail.subject))",
            "Date: \(date)", "Message-ID: <\(UUID().uuidString.lowercased())@\(address(domain))>", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64",
        ]
        if let unsubscribe = mail.listUnsubscribe {
            lines.append("List-Unsubscribe: <\(header(unsubscribe))>")
            lines.append("List-Unsubscribe-Post: List-Unsubscribe=One-Click")
        }
        lines.append("")
        let body = Data(mail.body.replacingOccurrences(of: "\n", with: "\r\n").utf8).base64EncodedString()
        var index = body.startIndex
        while index < body.endIndex {
            let end = body.index(index, offsetBy: 76, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[index..<end]))
            index = end
        }
        return lines.joined(separator: "\r\n")
    }
}

/// One SMTP connection: lines in, commands out.
final class SMTPSession {
    private let channel: any Channel
    private var lines: AsyncStream<String>.Iterator

    private init(channel: any Channel, lines: AsyncStream<String>) {
        self.channel = channel
        self.lines = lines.makeAsyncIterator()
    }

    static func connect(host: String, port: Int, tls: NIOSSLContext?) async throws -> SMTPSession {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: host))
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPLineReader(continuation))
                }
            }
            .connect(host: host, port: port).get()
        return SMTPSession(channel: channel, lines: stream)
    }

    /// Reads a reply (its lines, without their codes); throws unless its code is one of `codes`.
    @discardableResult
    func expect(_ codes: Int...) async throws -> [String] { try await reply(codes) }

    private func reply(_ codes: [Int]) async throws -> [String] {
        var texts: [String] = []
        while let line = await lines.next() {
            guard line.count >= 3, let code = Int(line.prefix(3)) else {
                throw SMTPMailSender.Failed(description: "the SMTP server answered “\(line.prefix(200))”")
            }
            texts.append(String(line.dropFirst(4)))
            if line.count == 3 || line[line.index(line.startIndex, offsetBy: 3)] == " " {
                guard codes.contains(code) else {
                    throw SMTPMailSender.Failed(description: "the SMTP server answered \(line.prefix(200))")
                }
                return texts
            }
        }
        throw SMTPMailSender.Failed(description: "the SMTP server closed the connection")
    }

    /// Sends a command and reads its reply. A secret command's words never reach an error.
    func command(_ text: String, expect codes: Int..., secret: Bool = false) async throws -> [String] {
        try await channel.writeAndFlush(ByteBuffer(string: text + "\r\n"))
        do {
            return try await reply(codes)
        } catch let failed as SMTPMailSender.Failed {
            let said = secret ? String(text.prefix(10)) + "…" : String(text.prefix(40))
            throw SMTPMailSender.Failed(description: "\(said): \(failed.description)")
        }
    }

    func startTLS(_ context: NIOSSLContext, host: String) async throws {
        try await channel.eventLoop.submit { [channel] in
            try channel.pipeline.syncOperations.addHandler(
                try NIOSSLClientHandler(context: context, serverHostname: host), position: .first)
        }.get()
    }

    func close() async {
        try? await channel.close()
    }
}

/// Splits what the server sends into lines.
private final class SMTPLineReader: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    private let continuation: AsyncStream<String>.Continuation
    private var pending = Data()
    /// A line longer than this is no SMTP reply.
    static let longest = 4096

    init(_ continuation: AsyncStream<String>.Continuation) { self.continuation = continuation }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if let bytes = buffer.readBytes(length: buffer.readableBytes) { pending.append(contentsOf: bytes) }
        while let end = pending.firstIndex(of: 0x0A) {
            var line = pending[pending.startIndex..<end]
            if line.last == 0x0D { line = line.dropLast() }
            continuation.yield(String(decoding: line, as: UTF8.self))
            pending = Data(pending[pending.index(after: end)...])
        }
        if pending.count > Self.longest { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish()
        context.close(promise: nil)
    }
}
