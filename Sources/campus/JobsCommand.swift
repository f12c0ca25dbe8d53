import ArgumentParser
import CampusServer
import Foundation
import Localization
import Storage

/// The jobs that run on one instance at a time (docs/DEPLOYING.md): which instance holds each,
/// until when, and its last run.
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "The jobs that run on one instance at a time: who runs each, and its last run.",
        discussion: """
            One line per job, tab-separated: its name, the instance holding its lease (host, process, \
            a random part) or "-" once the lease expired, the lease's end, the last run's start and end, \
            and how it went ("ok" or why it failed).
            """)

    @OptionGroup var storage: StorageOptions

    func run() async throws {
        try await withAdministration(storage) { administration in
            let now = Date()
            let leases = try await administration.jobLeases()
            for lease in leases {
                let held = lease.expiresAt > now
                let fields = [
                    lease.name, held ? lease.holder : "-", held ? lease.expiresAt.ISO8601Format() : "-",
                    lease.lastStartedAt?.ISO8601Format() ?? "-", lease.lastFinishedAt?.ISO8601Format() ?? "-",
                    lease.lastOutcome ?? "-",
                ]
                print(fields.joined(separator: "\t"))
            }
            print(t.plural("{count} job", "{count} jobs", leases.count))
        }
    }
}
