import ArgumentParser
import CampusServer
import Foundation

/// `campus serve`'s options for what Campus sends out: push services it may reach beyond the
/// public https ones, and who runs the server.
struct NotificationOptions: ParsableArguments {
    @Option(
        name: .customLong("push-allow"),
        help: ArgumentHelp(
            "Let Campus send Web Push messages to this origin although it is not https on a public address (repeatable; env CAMPUS_PUSH_ALLOW, comma-separated).",
            valueName: "http://host:port"))
    var pushAllow: [String] = []

    @Option(
        name: .customLong("push-contact"),
        help:
            "A mailto: or https: URL where push services can reach whoever runs this server (env CAMPUS_PUSH_CONTACT).")
    var pushContact: String?

    @Option(
        name: .customLong("smtp-url"),
        help: ArgumentHelp(
            "Send mail through this SMTP server: smtp://user:password@host:587 (STARTTLS) or smtps://…:465 (env CAMPUS_SMTP_URL); without it mail goes to the data directory's mail folder.",
            valueName: "url"))
    var smtpURL: String?

    @Option(
        name: .customLong("mail-from"),
        help: "The address Campus's mail comes from (env CAMPUS_MAIL_FROM; needed with --smtp-url).")
    var mailFrom: String?

    @Option(
        name: .customLong("smtp-ca-file"),
        help:
            "Trust the certificates in this PEM file for the SMTP server instead of the system's (env CAMPUS_SMTP_CA_FILE)."
    )
    var smtpCAFile: String?

    private var smtp: SMTPSettings? {
        guard let url = smtpURL ?? Environment.value("CAMPUS_SMTP_URL") else { return nil }
        return SMTPSettings(
            url: url, from: mailFrom ?? Environment.value("CAMPUS_MAIL_FROM") ?? "",
            caFile: smtpCAFile ?? Environment.value("CAMPUS_SMTP_CA_FILE"))
    }

    func validate() throws {
        if (smtpURL ?? Environment.value("CAMPUS_SMTP_URL")) != nil, smtp == nil {
            throw ValidationError(
                "--smtp-url must be smtp://[user:password@]host[:port] or smtps://…, with --mail-from the sender's address."
            )
        }
        for origin in allowed where ServerConfiguration.pushOrigin(origin) == nil {
            throw ValidationError("--push-allow takes an origin such as http://127.0.0.1:8099, not \"\(origin)\".")
        }
        if let contact = pushContact ?? Environment.value("CAMPUS_PUSH_CONTACT"),
            !(contact.hasPrefix("mailto:") || contact.hasPrefix("https://"))
        {
            throw ValidationError("--push-contact must be a mailto: or https: URL.")
        }
    }

    private var allowed: [String] {
        pushAllow
            + (Environment.value("CAMPUS_PUSH_ALLOW")?.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            } ?? [])
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.pushAllowed = allowed.compactMap(ServerConfiguration.pushOrigin)
        configuration.pushContact =
            pushContact ?? Environment.value("CAMPUS_PUSH_CONTACT") ?? smtp.map { "mailto:" + $0.from }
        configuration.smtp = smtp
    }
}
