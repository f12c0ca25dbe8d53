import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import Listen
import Logging
import NIOCore
import ServiceLifecycle
import Storage

/// Live radio as Icecast speaks it, so that existing source clients and players work: a source
/// broadcasts to `/radio/{mount}` (`PUT`, or the old `SOURCE` method, as user `source` with the
/// station's password), listeners play the same address (with ICY metadata when they ask for it),
/// and the source says what is playing with `/admin/metadata?mode=updinfo`.
struct RadioRoutes: Sendable {
    let liveRadio: LiveRadio
    let logger: Logger
    let radio: RadioHub
    let stations: StationService
    let authenticator: Authenticator
    /// Where listeners reach the server (the stats' `listenurl`).
    var baseURL = ""
    /// When this server started (the stats' `server_start`).
    var started = Date()
    var hub: RadioHub { radio }

    /// Where stations broadcast.
    static let prefix = "/radio/"
    static let mount = "/radio/{mount}"
    static let metadata = "/admin/metadata"
    static let hlsPlaylist = "/radio/{mount}/live.m3u8"
    static let hlsSegment = "/radio/{mount}/{segment}"

    func register(on router: Router<CampusRequestContext>, routes: RouteTable) {
        router.put(RouterPath(Self.mount)) { request, context in try await broadcast(request, context) }
        router.get(RouterPath(Self.mount)) { request, context in try await listen(request, context) }
        router.get(RouterPath(Self.metadata)) { request, _ in try await updateMetadata(request) }
        router.get(RouterPath(Self.hlsPlaylist)) { _, context in try await hlsPlaylist(context) }
        router.get(RouterPath(Self.hlsSegment)) { _, context in try await hlsSegment(context) }
        routes.add(.get, Self.hlsPlaylist, RouteProperties(kind: .api))
        routes.add(.get, Self.hlsSegment, RouteProperties(kind: .api))
        routes.add(.put, Self.mount, RouteProperties(kind: .api))
        routes.add(.get, Self.mount, RouteProperties(kind: .api))
        routes.add(.get, Self.metadata, RouteProperties(kind: .api))
        registerAdministration(on: router, routes: routes)
    }

    // MARK: Sources

    /// A source connects: its station's password, a mount without another source, then its
    /// audio goes to the station's listeners for as long as it sends. Only a source's connection
    /// broadcasts (a `PUT` that came after another request on its connection is refused first:
    /// nothing is announced, recorded or taken from the fallback); every refusal closes it.
    func broadcast(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let mount = context.parameters.get("mount") ?? ""
        let refusal = Problem(
            .badRequest, detail: "Broadcast with an Icecast source client: PUT or SOURCE, then the audio.",
            headers: [.connection: "close"])
        do {
            guard await LiveSourceHandler.isSource(on: context.channel) else { throw refusal }
            let login = try await login(request, mount: mount)
            let type = Self.contentType(request.headers[.contentType])
            let feed = try await liveRadio.connect(login.station, contentType: type, show: login.show)
            guard await LiveSourceHandler.accept(on: context.channel, feed) else {
                feed.ended()  // The source left between the two: as any source that leaves.
                throw refusal
            }
            logger.notice("source connected", metadata: ["mount": "\(mount)", "type": "\(type)"])
            return Response(status: .ok, headers: [.contentLength: "0"])
        } catch {
            // Every refusal, the station service's included, closes the source's connection.
            guard var closing = Problem(describing: error) else { throw error }
            closing.headers[.connection] = "close"
            throw closing
        }
    }

    /// The type a source says it sends (what listeners get as their `Content-Type`): printable
    /// ASCII of at most 100 characters, else MP3, as Icecast takes a source without one.
    static func contentType(_ said: String?) -> String {
        guard let said, !said.isEmpty, said.utf8.count <= 100, said.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { return "audio/mpeg" }
        return said
    }

    /// The station at `mount` if the request's Basic credentials are its source's (``login(_:mount:)``).
    func authenticate(_ request: Request, mount: String) async throws -> Station {
        try await login(request, mount: mount).station
    }

    /// Who a source logs in as: the station's own password (as user `source`, or any name but a
    /// DJ's), or a DJ's own (`dj-ID`, issue 42), accepted only in one of their shows' time (403
    /// outside it), which it returns. 429 for an address that tried too many wrong passwords
    /// (`StationService.authenticateSource`).
    func login(_ request: Request, mount: String) async throws -> (station: Station, show: RadioShow?) {
        let challenge: HTTPFields = [.wwwAuthenticate: "Basic realm=\"Campus radio\""]
        guard let (user, password) = Self.basicCredentials(request.headers[.authorization]) else {
            throw Problem(
                .unauthorized, detail: "A source logs in as source with its station's password (HTTP Basic).",
                headers: challenge)
        }
        let address = RequestScope.current?.address ?? "unknown"
        if let dj = RadioShow.djAccount(user: user) {
            guard
                let (station, show) = try await stations.authenticateDJ(
                    mount: mount, userID: dj, password: password, from: address)
            else {
                logger.notice("wrong DJ password", metadata: ["mount": "\(mount)", "address": "\(address)"])
                throw Problem(.unauthorized, detail: "The source password is wrong.", headers: challenge)
            }
            return (station, show)
        }
        guard let station = try await stations.authenticateSource(mount: mount, password: password, from: address)
        else {
            logger.notice("wrong source password", metadata: ["mount": "\(mount)", "address": "\(address)"])
            throw Problem(.unauthorized, detail: "The source password is wrong.", headers: challenge)
        }
        return (station, nil)
    }

    /// The user name and password of `Authorization: Basic …`.
    static func basicCredentials(_ header: String?) -> (user: String, password: String)? {
        guard let header, header.count <= 1000, header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// `/admin/metadata?mount=/radio/campus&mode=updinfo&song=Artist - Title`, as Icecast takes
    /// it from sources, with the station's source password. The query is decoded once (`+` is a
    /// space); the song is UTF-8, or ISO-8859-1 when it is not UTF-8 or `charset` says so (what
    /// Icecast assumes of MP3 sources). What the source says is kept as one line without control
    /// characters (``Station/nowPlaying(said:)``): a title is never refused, as Icecast refuses none.
    func updateMetadata(_ request: Request) async throws -> Response {
        let fields = URLEncodedForm.byteFields(in: request.uri.query ?? "")
        func field(_ name: String) -> [UInt8]? { fields.first { $0.name == name }?.value }
        let mount = Self.mount(said: field("mount"))
        guard field("mode") == Array("updinfo".utf8) else {
            throw Problem.badRequest("Only mode=updinfo is supported.")
        }
        let station = try await authenticate(request, mount: mount)
        let charset = field("charset").map { String(decoding: $0, as: UTF8.self) }
        let title = Self.text(field("song") ?? [], charset: charset)
        guard try await liveRadio.setTitle(mount: station.mount, title) else {
            throw Problem.notFound("{mount} is not on the air.", ["mount": station.mount])
        }
        // The station's history keeps what its live sources said (AutoDJ writes its own tracks).
        if await liveRadio.status(of: station.mount).live {
            await liveRadio.autoDJ.record(
                Station.nowPlaying(said: title), mediaID: nil, playlistID: nil, source: "live", on: station)
        }
        let body =
            #"<?xml version="1.0"?>\#n<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\#n"#
        return Response(
            status: .ok, headers: [.contentType: "text/xml"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The station's mount an Icecast request names (`/radio/campus`, `/campus` or `campus`).
    static func mount(said: [UInt8]?) -> String {
        var mount = String(decoding: said ?? [], as: UTF8.self)
        for prefix in [Self.prefix, "/"] where mount.hasPrefix(prefix) { mount = String(mount.dropFirst(prefix.count)) }
        return mount
    }

    /// Bytes a source sent as text: UTF-8, or ISO-8859-1 (each byte its code point) when they are
    /// not UTF-8 or `charset` names ISO-8859-1.
    static func text(_ bytes: [UInt8], charset: String?) -> String {
        let latin1: Set<String> = ["iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1"]
        if !latin1.contains(charset?.lowercased() ?? ""), let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    // MARK: Listeners

    /// The signed-in listener (the web app's session, or a bearer token), whose history keeps
    /// what they listened to; nil for anyone else (players, apps without an account).
    func listener() async -> Account? {
        try? await authenticator.requireUser().user
    }

    /// The live audio: a burst of the last seconds, then what the source sends; with
    /// `Icy-MetaData: 1`, the now-playing title every ``IcyMetadata/interval`` bytes.
    func listen(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let mount = context.parameters.get("mount") ?? ""
        let station = try await stations.station(mount: mount)
        guard let broadcast = await liveRadio.broadcast(for: station) else {
            throw Problem.notFound("{name} is off the air.", ["name": station.name])
        }
        let client = Broadcast.Client(
            address: RequestScope.current?.address ?? "",
            userAgent: String((request.headers[.userAgent] ?? "").prefix(200)))
        let withMetadata = request.headers[.icyMetadata] == "1"
        // A player that asks for titles in the audio gets its own bytes (a stream its task reads);
        // any other is written to on its connection's event loop, one shared chunk for all.
        let listening: Listening? =
            withMetadata
            ? broadcast.listen(limit: station.listenerLimit, client: client).map { .stream($0.id, $0.burst, $0.stream) }
            : broadcast.reserve(limit: station.listenerLimit, client: client).map { .connection($0) }
        guard let listening else {
            throw Problem(
                .serviceUnavailable, detail: "{name} has as many listeners as it takes; try again later.",
                ["name": station.name], headers: [.retryAfter: "30"])
        }
        if case .connection(let id) = listening {
            context.channel.closeFuture.whenComplete { _ in broadcast.drop(id) }
        }
        var headers: HTTPFields = [
            .contentType: broadcast.contentType, .cacheControl: "no-cache, no-store", .icyName: station.name,
            .icyGenre: station.genre, .icyDescription: station.description,
        ]
        if withMetadata { headers[.icyMetaint] = String(IcyMetadata.interval) }
        var event: Int64?
        let user = await listener()
        if let user { event = await liveRadio.startListening(station, by: user) }
        let key = LiveRadio.listenerKey(user: user, address: client.address, userAgent: client.userAgent)
        let start = liveRadio.now()
        let radio = liveRadio
        let channel = context.channel
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { [event] writer in
                let started = ContinuousClock.now
                defer {
                    let elapsed = ContinuousClock.now - started
                    if let event { radio.listened(event, seconds: elapsed.components.seconds) }
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    // Another instance's relay is not a listener: its listeners count there.
                    if client.userAgent != RadioRelay.userAgent {
                        radio.listenerLeft(station, listener: key, start: start, seconds: seconds)
                    }
                }
                switch listening {
                case .connection(let id):
                    // The head is out: the audio is written on the connection from here.
                    let connection = ConnectionListener(channel: channel)
                    if broadcast.connect(id, to: connection) {
                        await withGracefulShutdownHandler {
                            await connection.untilEnded()
                        } onGracefulShutdown: {
                            broadcast.drop(id)
                        }
                    }
                case .stream(let id, let burst, let stream):
                    var interleaver = IcyMetadata.Interleaver()
                    func send(_ chunk: ByteBuffer) async throws {
                        let bytes = interleaver.interleave(Array(chunk.readableBytesView), title: broadcast.title)
                        try await writer.write(ByteBuffer(bytes: bytes))
                    }
                    for chunk in burst { try await send(chunk) }
                    // One handler for the whole stream (a graceful-shutdown race per chunk costs
                    // every listener a task group each time): at shutdown the listener's stream ends.
                    try await withGracefulShutdownHandler {
                        for await chunk in stream {
                            try await send(chunk)
                            broadcast.written(chunk.readableBytes, by: id)
                        }
                    } onGracefulShutdown: {
                        broadcast.drop(id)
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// How a listener's audio reaches it: its own stream, or its connection.
    enum Listening {
        case stream(Int, [ByteBuffer], AsyncStream<ByteBuffer>)
        case connection(Int)
    }

    // MARK: HLS

    /// `/radio/{mount}/live.m3u8`: the station's rolling HLS playlist (issue 42), never cached.
    func hlsPlaylist(_ context: CampusRequestContext) async throws -> Response {
        let station = try await stations.station(mount: context.parameters.get("mount") ?? "")
        guard let broadcast = await liveRadio.broadcast(for: station) else {
            throw Problem.notFound("{name} is off the air.", ["name": station.name])
        }
        guard let playlist = await liveRadio.hls.playlist(of: broadcast) else {
            throw Problem(
                .serviceUnavailable, detail: "{name}'s HLS is starting; try again in a moment.", ["name": station.name],
                headers: [.retryAfter: "2"])
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/vnd.apple.mpegurl", .cacheControl: "no-cache, max-age=0"],
            body: .init(byteBuffer: ByteBuffer(string: playlist)))
    }

    /// `/radio/{mount}/live-N.ts`: a segment the playlist lists; it never changes, so it is cached.
    func hlsSegment(_ context: CampusRequestContext) async throws -> Response {
        let mount = context.parameters.get("mount") ?? ""
        let name = context.parameters.get("segment") ?? ""
        guard let bytes = liveRadio.hls.segment(mount: mount, name: name) else {
            throw Problem.notFound("There is no segment {name}.", ["name": String(name.prefix(40))])
        }
        return Response(
            status: .ok, headers: [.contentType: "video/mp2t", .cacheControl: "public, max-age=60, immutable"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
