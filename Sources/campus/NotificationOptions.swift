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

    func validate() throws {
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
        configuration.pushContact = pushContact ?? Environment.value("CAMPUS_PUSH_CONTACT")
    }
}
