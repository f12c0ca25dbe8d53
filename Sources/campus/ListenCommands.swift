import ArgumentParser
import CampusServer
import Foundation
import Localization
import Storage

struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "The media library.", subcommands: [Scan.self])

    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a folder of audio files into the catalogue (needs ffprobe from Debian's ffmpeg).",
            discussion: """
                Tags, duration and cover art come from ffprobe. Files in folders named Podcasts, Audiobooks or \
                Radio/Lectures (or with such a genre) become episodes and chapters; everything else is music. \
                Scanning again updates changed files, removes the ones that are gone and keeps the ids of the rest.
                """)

        @OptionGroup var storage: StorageOptions
        @Argument(help: "The folder to scan.") var folder: String

        func run() async throws {
            let summary = try await withDatabase(storage) { database, logger in
                do {
                    return try await LibraryScanner(
                        database: database, mediaDirectory: storage.resolvedMediaDirectory, logger: logger,
                        actor: .commandLine
                    ).scan(folder)
                } catch {
                    throw Failure(error, t)
                }
            }
            let values = [
                "folder": folder, "added": String(summary.added), "updated": String(summary.updated),
                "unchanged": String(summary.unchanged), "removed": String(summary.removed),
                "failed": String(summary.failed.count),
            ]
            print(
                summary.failed.isEmpty
                    ? t(
                        "Scanned {folder}: {added} added, {updated} updated, {unchanged} unchanged, {removed} removed.",
                        values)
                    : t(
                        "Scanned {folder}: {added} added, {updated} updated, {unchanged} unchanged, {removed} removed, {failed} not readable.",
                        values))
            for failure in summary.failed.prefix(20) {
                print(t("  not readable: {file}", ["file": failure.said { t($0) }]))
            }
        }
    }
}

struct PodcastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcast", abstract: "Podcasts from RSS feeds.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a podcast from its RSS 2.0 feed (a URL or a file); importing again updates it.")

        @OptionGroup var storage: StorageOptions
        @Argument(help: "The feed's URL (http or https) or file.") var feed: String
        @Flag(
            name: .customLong("allow-private-fetch"),
            help: "Allow loopback, private and link-local addresses for the feed, its cover and its enclosures.")
        var allowPrivateFetch = false

        func run() async throws {
            let summary = try await withDatabase(storage) { database, logger in
                do {
                    var podcasts = Podcasts(
                        database: database, mediaDirectory: storage.resolvedMediaDirectory, logger: logger,
                        allowPrivateAddresses: allowPrivateFetch
                    )
                    podcasts.actor = .commandLine
                    return try await podcasts.tellingFans(
                        institutionLanguage: Environment.value("CAMPUS_LANGUAGE") ?? "en",
                        timeZone: institutionTimeZone()
                    )
                    .add(feed, allowFiles: true)
                } catch {
                    throw Failure(error, t)
                }
            }
            let values = [
                "title": summary.title, "id": String(summary.podcastID), "added": String(summary.added),
                "updated": String(summary.updated), "skipped": String(summary.skipped.count),
            ]
            print(
                summary.skipped.isEmpty
                    ? t("Imported “{title}” (podcast {id}): new episodes: {added}, updated: {updated}.", values)
                    : t(
                        "Imported “{title}” (podcast {id}): new episodes: {added}, updated: {updated}, left out: {skipped}.",
                        values))
            for reason in summary.skipped.prefix(20) {
                print(t("  left out: {reason}", ["reason": t(reason)]))
            }
        }
    }
}
