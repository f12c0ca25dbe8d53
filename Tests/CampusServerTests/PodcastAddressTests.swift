import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing

@testable import CampusServer

/// Issue 35, item 9, through the server: an import leaves out the items whose enclosures are on
/// this machine or a private network in any spelling, and says why; `/stream` and Subsonic's
/// `stream` never send a player there, whenever the URL was stored; the API's import of a feed at
/// such an address is refused before connecting. `--allow-private-fetch` lets all three through.
/// The rule itself, over a table of spellings, is `OutboundAddressTests`.
@Suite(.serialized) struct PodcastAddressTests {
    /// The issue's enclosures, and more spellings of this machine and of private networks.
    static let privateEnclosures = [
        "http://2130706433/a.mp3", "http://0x7f.1/a.mp3", "http://[::7f00:1]:8000/a.mp3",
        "http://[2002:7f00:1::1]/a.mp3", "http://[::ffff:0:7f00:1]/a.mp3", "http://[2001::7f00:1]/a.mp3",
        "http://[::a00:1]/a.mp3", "http://0177.0.0.1/a.mp3", "http://127.1./a.mp3", "http://%31%32%37.0.0.1/a.mp3",
        "http://[64:ff9b::a9fe:a9fe]/a.mp3", "http://nas/a.mp3", "http://localhost./a.mp3",
    ]
    static let publicEnclosure = "https://podcasts.example.org/1.mp3"

    /// A feed file with an item for each enclosure, titled `Item 1`, `Item 2` … in their order.
    static func feed(_ enclosures: [String]) throws -> String {
        let items = enclosures.enumerated().map { index, url in
            "<item><title>Item \(index + 1)</title><guid>item-\(index + 1)</guid>"
                + "<enclosure url=\"\(url)\" length=\"1\" type=\"audio/mpeg\"/></item>"
        }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>Night Talks</title><description>Talks.</description>\(items.joined())</channel></rss>
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString).xml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func importsLeaveOutEnclosuresOnThisMachineAndSayWhy() async throws {
        let mixed = try Self.feed([Self.publicEnclosure] + Self.privateEnclosures)
        let onlyPrivate = try Self.feed(Self.privateEnclosures)
        defer {
            try? FileManager.default.removeItem(atPath: mixed)
            try? FileManager.default.removeItem(atPath: onlyPrivate)
        }
        try await TestServer.run { server in
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            let podcasts = Podcasts(
                database: database, mediaDirectory: server.dataDirectory, logger: TestDatabases.logger)
            let summary = try await podcasts.add(mixed, allowFiles: true)
            #expect(summary.added == 1)
            #expect(summary.skipped.count == Self.privateEnclosures.count)
            for (index, reason) in summary.skipped.enumerated() {
                #expect(
                    reason.text.hasPrefix("The enclosure url of item \(index + 2) points at "), "\(reason.text)")
                #expect(reason.text.hasSuffix("a loopback, private or link-local address."), "\(reason.text)")
            }
            // A feed with nothing left is refused, with its first item's reason.
            await #expect {
                try await podcasts.add(onlyPrivate, allowFiles: true)
            } throws: { error in
                (error as? Podcasts.Failed)?.description.contains("item 1 points at 2130706433,") == true
            }
            await database.close()

            // The podcast holds the one item a player may be sent to.
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            let podcast = try await server.request(.get, "/api/v1/podcasts/\(summary.podcastID)", token: ann)
            let items = podcast.json["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["title"] as? String } == ["Item 1"])
        }
    }

    /// Episodes stored with such enclosures (by `campus podcast add --allow-private-fetch`, or by
    /// an import before the rule) are never a redirect of a server that does not allow private
    /// addresses, on the native API or Subsonic's; a server that allows them sends players there.
    @Test func streamsSendPlayersOnlyWhereTheRuleAllows() async throws {
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        defer { Task { await cleanup() } }
        let feed = try Self.feed([Self.publicEnclosure] + Self.privateEnclosures)
        defer { try? FileManager.default.removeItem(atPath: feed) }
        let enclosures = [Self.publicEnclosure] + Self.privateEnclosures

        // Item titles `Item N` and their ids, and Ann's Subsonic key.
        let (ids, key): ([Int: Int64], String) = try await TestServer.run(location: location) { server in
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            let summary = try await Podcasts(
                database: database, mediaDirectory: server.dataDirectory, logger: TestDatabases.logger,
                allowPrivateAddresses: true
            ).add(feed, allowFiles: true)
            await database.close()
            #expect(summary.added == enclosures.count && summary.skipped.isEmpty)
            try await server.register("ann@example.org")
            let ann = try await server.login("ann@example.org")
            let apiKey = try await ListenServerSuites.SubsonicTests.credentials(server, ann).key
            let podcast = try await server.request(.get, "/api/v1/podcasts/\(summary.podcastID)", token: ann)
            var found: [Int: Int64] = [:]
            for item in podcast.json["items"] as? [[String: Any]] ?? [] {
                guard let title = item["title"] as? String, let number = Int(title.dropFirst("Item ".count)),
                    let id = (item["id"] as? NSNumber)?.int64Value
                else { continue }
                found[number] = id
            }
            #expect(found.count == enclosures.count)

            for (index, enclosure) in enclosures.enumerated() {
                let id = found[index + 1] ?? 0
                let stream = try await server.request(.get, "/api/v1/media/\(id)/stream", token: ann)
                let subsonic = try await server.request(.get, "/rest/stream?id=tr-\(id)&apiKey=\(apiKey)&f=json")
                if enclosure == Self.publicEnclosure {
                    #expect(stream.status == .found && stream.headers[.location] == enclosure)
                    #expect(subsonic.status == .found && subsonic.headers[.location] == enclosure)
                } else {
                    #expect(stream.status == .notFound, "\(enclosure): \(stream.status)")
                    #expect(stream.headers[.location] == nil, "\(enclosure)")
                    #expect(stream.text.contains("a loopback, private or link-local address"), "\(stream.text)")
                    #expect(subsonic.headers[.location] == nil, "\(enclosure)")
                    #expect(
                        ListenServerSuites.SubsonicTests.errorCode(subsonic) == 70, "\(enclosure): \(subsonic.text)")
                }
            }
            return (found, apiKey)
        }

        // With --allow-private-fetch, the admin's choice for the institution's own network.
        try await TestServer.run(location: location, configure: { $0.outbound.allowPrivateAddresses = true }) {
            server in
            let ann = try await server.login("ann@example.org")
            for (index, enclosure) in enclosures.enumerated() {
                let id = ids[index + 1] ?? 0
                let stream = try await server.request(.get, "/api/v1/media/\(id)/stream", token: ann)
                #expect(stream.status == .found && stream.headers[.location] == enclosure, "\(enclosure)")
                let subsonic = try await server.request(.get, "/rest/stream?id=tr-\(id)&apiKey=\(key)&f=json")
                #expect(subsonic.status == .found && subsonic.headers[.location] == enclosure, "\(enclosure)")
            }
        }
    }

    /// The API's import fetches no feed at such an address: it is refused before any connection
    /// (a connection to port 9 would have said "cannot be read").
    @Test func feedsAtThisMachineInAnySpellingAreNotFetched() async throws {
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        defer { Task { await cleanup() } }
        let urls = [
            "http://[::ffff:0:7f00:1]:9/feed.xml", "http://[2001::7f00:1]:9/feed.xml", "http://[::a00:1]:9/feed.xml",
            "http://2130706433:9/feed.xml", "http://0x7f.1:9/feed.xml", "http://[::7f00:1]:9/feed.xml",
            "http://[2002:7f00:1::1]:9/feed.xml", "http://nas:9/feed.xml",
        ]
        try await TestServer.run(location: location) { server in
            try await server.register("root@example.org")
            try await server.makeAdmin("root@example.org")
            let admin = try await server.login("root@example.org")
            for url in urls {
                let imported = try await server.request(
                    .post, "/api/v1/podcasts", json: #"{"url": "\#(url)"}"#, token: admin)
                #expect(imported.status == .unprocessableContent, "\(url): \(imported.text)")
                #expect(imported.text.contains("private"), "\(url): \(imported.text)")
                #expect(!imported.text.contains("cannot be read"), "\(url): \(imported.text)")
            }
        }
        // Allowed, the fetch goes to the address (nothing listens on port 9 there).
        try await TestServer.run(location: location, configure: { $0.outbound.allowPrivateAddresses = true }) {
            server in
            let admin = try await server.login("root@example.org")
            let imported = try await server.request(
                .post, "/api/v1/podcasts", json: #"{"url": "http://0x7f.1:9/feed.xml"}"#, token: admin)
            #expect(imported.status == .unprocessableContent, "\(imported.text)")
            #expect(!imported.text.contains("a loopback, private or link-local address"), "\(imported.text)")
        }
    }
}
