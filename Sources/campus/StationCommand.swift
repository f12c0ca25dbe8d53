import ArgumentParser
import CampusServer
import Foundation
import Localization
import Storage

struct StationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "station", abstract: "Radio stations: each broadcasts live at its mount.",
        discussion: """
            A source (ffmpeg, butt, Mixxx, liquidsoap) broadcasts to /radio/MOUNT as to Icecast, as user \
            "source" with the station's source password; listeners hear it at the same address.
            """,
        subcommands: [Add.self, List.self, Edit.self, Remove.self])

    /// The fields `add` and `edit` share.
    struct Fields: ParsableArguments {
        @Option(help: "What the station plays, in a few sentences.") var description: String?
        @Option var genre: String?
        @Option(help: "The radio region it is for.") var region: String?
        @Option(name: .customLong("listener-limit"), help: "The most listeners at once (default 1000).")
        var listenerLimit: Int?
        @Option(
            name: .customLong("source-password"), help: "The password sources broadcast with (8 to 200 characters).")
        var sourcePassword: String?
        @Option(
            help: """
                The id of the radio programme its fallback plays from while no source broadcasts,                 and its recordings go to (0: none).
                """)
        var programme: Int64?
        @Option(
            help: "Record each broadcast as a new episode of the programme: yes or no.",
            transform: { text in
                switch text.lowercased() {
                case "yes", "true", "on": return true
                case "no", "false", "off": return false
                default: throw ValidationError("--record takes yes or no.")
                }
            })
        var record: Bool?

        func fields(name: String?, mount: String?) -> Administration.StationFields {
            .init(
                name: name, mount: mount, description: description, genre: genre, region: region,
                listenerLimit: listenerLimit, sourcePassword: sourcePassword, programmeID: programme,
                recordsBroadcasts: record)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a station.")

        @OptionGroup var storage: StorageOptions
        @Argument(help: "The station's name.") var name: String
        @Option(help: "Its mount: lower-case letters, digits, dots, hyphens and underscores.") var mount: String
        @OptionGroup var fields: Fields

        func run() async throws {
            try await withAdministration(storage) { administration in
                let station = try await administration.addStation(fields.fields(name: name, mount: mount))
                print(t("Added the station {name} at /radio/{mount}.", ["name": station.name, "mount": station.mount]))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the stations.")

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            try await withAdministration(storage) { administration in
                let stations = try await administration.stationList()
                for station in stations {
                    print(
                        "\(station.id)\t/radio/\(station.mount)\t\(station.name)\t\(station.genre)\t\(station.region)\t"
                            + String(station.listenerLimit))
                }
                print(t.plural("{count} station", "{count} stations", stations.count))
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a station; what is not given stays.")

        @OptionGroup var storage: StorageOptions
        @Argument(help: "The station's mount.") var mount: String
        @Option var name: String?
        @Option(name: .customLong("new-mount"), help: "A new mount.") var newMount: String?
        @OptionGroup var fields: Fields

        func run() async throws {
            try await withAdministration(storage) { administration in
                let station = try await administration.editStation(
                    mount: mount, fields.fields(name: name, mount: newMount))
                print(
                    t("Changed the station {name} at /radio/{mount}.", ["name": station.name, "mount": station.mount]))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a station.")

        @OptionGroup var storage: StorageOptions
        @Argument(help: "The station's mount.") var mount: String

        func run() async throws {
            try await withAdministration(storage) { administration in
                try await administration.removeStation(mount: mount)
                print(t("Removed the station at /radio/{mount}.", ["mount": mount]))
            }
        }
    }
}

/// Runs `body` with the administration of the database `storage` names; what goes wrong is said
/// in words (and the command fails).
func withAdministration(_ storage: StorageOptions, _ body: @Sendable (Administration) async throws -> Void)
    async throws
{
    try await withDatabase(storage) { database, logger in
        let administration = Administration(
            database: database, configuration: ServerConfiguration(database: database.location), logger: logger)
        do {
            try await body(administration)
        } catch {
            throw Failure(error, t)
        }
    }
}
