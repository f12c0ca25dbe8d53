import CampusHTTP
import Formats
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import Listen
import NIOCore

/// Icecast 2.4's admin and status answers (issue 42), so that the monitors and DJ software people
/// already use read Campus as they read Icecast: `/admin/listclients` and `/admin/stats` (XML)
/// with a station's source credentials (or, for every station's stats, a signed-in admin), and
/// the public `/status-json.xsl`. `/admin/metadata` is in RadioRoutes.swift. The numbers are this
/// instance's listeners, as each Icecast relay counts its own.
extension RadioRoutes {
    static let listClients = "/admin/listclients"
    static let stats = "/admin/stats"
    static let statusJSON = "/status-json.xsl"

    func registerAdministration(on router: Router<CampusRequestContext>, routes: RouteTable) {
        router.get(RouterPath(Self.listClients)) { request, _ in try await listClients(request) }
        router.get(RouterPath(Self.stats)) { request, _ in try await stats(request) }
        router.get(RouterPath(Self.statusJSON)) { _, _ in try await statusJSON() }
        for path in [Self.listClients, Self.stats, Self.statusJSON] {
            routes.add(.get, path, RouteProperties(kind: .api))
        }
    }

    /// A station's broadcast here, as the stats show it.
    struct SourceStats: Sendable {
        var station: Station
        var broadcast: Broadcast?
        var status: LiveRadio.Status
    }

    /// The stations on the air (or the one of `mount`), with their broadcasts here.
    func sources(only mount: String?) async throws -> [SourceStats] {
        var found: [SourceStats] = []
        let all = if let mount { [try await stations.station(mount: mount)] } else { try await stations.stations() }
        for station in all {
            let status = await liveRadio.status(of: station.mount)
            guard status.onAir || mount != nil else { continue }
            found.append(
                SourceStats(station: station, broadcast: radio.broadcast(mount: station.mount), status: status))
        }
        return found
    }

    /// `/admin/listclients?mount=/radio/campus`: the station's listeners here, with the address,
    /// player and seconds connected of each.
    func listClients(_ request: Request) async throws -> Response {
        let fields = URLEncodedForm.byteFields(in: request.uri.query ?? "")
        let station = try await authenticate(
            request, mount: Self.mount(said: fields.first { $0.name == "mount" }?.value))
        let broadcast = radio.broadcast(mount: station.mount)
        let clients = broadcast?.clients ?? []
        let now = Date()
        var xml = XMLWriter(indented: true)
        xml.open("icestats")
        xml.open("source", ["mount": Self.prefix + station.mount])
        xml.element("Listeners", String(clients.count))
        for (id, client) in clients {
            xml.open("listener", ["id": String(id)])
            xml.element("IP", client.address)
            xml.element("UserAgent", client.userAgent)
            xml.element("Connected", String(Int(now.timeIntervalSince(client.since))))
            xml.element("ID", String(id))
            xml.close("listener")
        }
        xml.close("source")
        xml.close("icestats")
        return Self.xml(xml.text)
    }

    /// `/admin/stats`: the server and its sources, as Icecast's XML. With `mount`, that station's
    /// source credentials show it alone; without, a signed-in admin sees every station on the air.
    func stats(_ request: Request) async throws -> Response {
        let fields = URLEncodedForm.byteFields(in: request.uri.query ?? "")
        var only: String?
        if let said = fields.first(where: { $0.name == "mount" })?.value {
            only = try await authenticate(request, mount: Self.mount(said: said)).mount
        } else {
            guard let user = await listener() else {
                throw Problem(
                    .unauthorized,
                    detail: "Every station's stats are for admins; a station's source reads its own with mount.",
                    headers: [.wwwAuthenticate: "Basic realm=\"Campus radio\""])
            }
            guard user.role == .admin else { throw Problem.forbidden("Every station's stats are for admins.") }
        }
        let sources = try await sources(only: only)
        let listeners = sources.reduce(0) { $0 + $1.status.listeners }
        var xml = XMLWriter(indented: true)
        xml.open("icestats")
        xml.element("admin", "")
        xml.element("host", URL(string: baseURL)?.host ?? "")
        xml.element("listeners", String(listeners))
        xml.element("server_id", CampusApp.serverName)
        xml.element("server_start_iso8601", Self.iso8601(started))
        xml.element("sources", String(sources.filter(\.status.onAir).count))
        for source in sources {
            xml.open("source", ["mount": Self.prefix + source.station.mount])
            for (name, value) in sourceFields(source) { xml.element(name, value) }
            xml.close("source")
        }
        xml.close("icestats")
        return Self.xml(xml.text)
    }

    /// `/status-json.xsl`: what Icecast 2.4 answers there, for anyone: `source` is one object for
    /// one station on the air, a list for several, and absent for none (as Icecast has it).
    func statusJSON() async throws -> Response {
        let sources = try await sources(only: nil).map { source in
            IcecastStatus.Source(
                audioInfo: "bitrate=128", bitrate: 128, genre: source.station.genre,
                listenerPeak: source.broadcast?.peakListeners ?? 0, listeners: source.status.listeners,
                listenurl: baseURL + Self.prefix + source.station.mount,
                serverDescription: source.station.description, serverName: source.station.name,
                serverType: source.broadcast?.contentType ?? "audio/mpeg", serverUrl: baseURL,
                streamStartIso8601: source.status.since.map(Self.iso8601) ?? "", title: source.status.title)
        }
        let status = IcecastStatus(
            icestats: .init(
                admin: "", host: URL(string: baseURL)?.host ?? "", location: "", serverId: CampusApp.serverName,
                serverStartIso8601: Self.iso8601(started), source: sources.isEmpty ? nil : .init(sources: sources)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(status))))
    }

    /// A source's fields, by Icecast's names (numbers as digits).
    func sourceFields(_ source: SourceStats) -> [(String, String)] {
        let station = source.station
        let broadcast = source.broadcast
        return [
            ("audio_info", "bitrate=128"), ("genre", station.genre),
            ("listener_peak", String(broadcast?.peakListeners ?? 0)), ("listeners", String(source.status.listeners)),
            ("listenurl", baseURL + Self.prefix + station.mount), ("server_description", station.description),
            ("server_name", station.name), ("server_type", broadcast?.contentType ?? "audio/mpeg"),
            ("server_url", baseURL), ("stream_start_iso8601", source.status.since.map(Self.iso8601) ?? ""),
            ("title", source.status.title), ("total_bytes_read", String(broadcast?.bytesRead ?? 0)),
        ]
    }

    static func iso8601(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    static func xml(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/xml; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// `/status-json.xsl`'s document: Icecast's field names, in snake case when encoded.
struct IcecastStatus: Encodable {
    struct Stats: Encodable {
        var admin: String
        var host: String
        var location: String
        var serverId: String
        var serverStartIso8601: String
        var source: Sources?
    }

    /// One source as an object, several as a list.
    struct Sources: Encodable {
        var sources: [Source]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if sources.count == 1 { try container.encode(sources[0]) } else { try container.encode(sources) }
        }
    }

    struct Source: Encodable {
        var audioInfo: String
        var bitrate: Int
        var genre: String
        var listenerPeak: Int
        var listeners: Int
        var listenurl: String
        var serverDescription: String
        var serverName: String
        var serverType: String
        var serverUrl: String
        var streamStartIso8601: String
        var title: String
    }

    var icestats: Stats
}
