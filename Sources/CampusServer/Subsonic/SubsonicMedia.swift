import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import Listen
import NIOCore

/// Media: stream (the file with ranges, or MP3 through ffmpeg at `maxBitRate`, from
/// `timeOffset`), download (always the file) and cover art in the nearest kept size. The bytes
/// come from the same place as the native API's stream (`MediaStreamFastPath`).
struct SubsonicMedia: Sendable {
    let catalogue: CatalogueService
    let library: LibraryService
    let streamer: MediaStreamFastPath

    var handlers: KeyValuePairs<String, SubsonicRoutes.Handler> {
        [
            "stream": { call in try await stream(call, download: false) },
            "download": { call in try await stream(call, download: true) },
            "getCoverArt": { call in try await coverArt(call) },
        ]
    }

    /// The bitrate a transcode gets when the player names a format but no bitrate.
    static let defaultBitrate = 192

    func stream(_ call: SubsonicCall, download: Bool) async throws -> SubsonicReply {
        let user = try call.user
        guard case .song(let id) = try call.id() else { throw SubsonicError(.notFound, "There is no such song.") }
        let (file, remote) = try await streamer.sources.source(id, database: streamer.database)
        guard let file else {
            if let remote { return .response(try streamer.redirect(id, to: remote)) }
            throw SubsonicError(.notFound, "There is no such song.")
        }
        let format = call.value("format") ?? ""
        let maxBitRate = try call.int("maxBitRate") ?? 0
        let offset = try call.int("timeOffset", default: 0, in: 0...SubsonicCall.longestPosition)
        var bitrate: Int?
        if !download, format != "raw" {
            if offset > 0 || (!format.isEmpty && format != SubsonicEntry.suffix(file.contentType)) {
                bitrate = maxBitRate > 0 ? maxBitRate : Self.defaultBitrate
            } else if maxBitRate > 0 {
                let item = try await catalogue.media(id, for: user).item
                if (item.bitrate ?? Int.max) > maxBitRate { bitrate = maxBitRate }
            }
        }
        guard let bitrate else {
            var response = try await streamer.original(file, id: id, request: call.request, context: call.context)
            if download {
                let name = SubsonicEntry.path(
                    try await catalogue.media(id, for: user).item, suffix: SubsonicEntry.suffix(file.contentType))
                response.headers[.contentDisposition] = ContentDisposition.attachment(
                    filename: (name as NSString).lastPathComponent)
            }
            return .response(response)
        }
        return .response(
            try await streamer.transcoded(
                file.path, id: id, bitrate: min(max(bitrate, MediaStreamFastPath.bitrates.lowerBound), 320),
                head: call.request.method == .head, holder: "user:\(user.id)", startAt: offset))
    }

    func coverArt(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let parentID: Int64
        switch try call.id() {
        case .album(let id): parentID = id
        case .song(let id): parentID = try await catalogue.media(id, for: user).item.parentID
        default: throw SubsonicError(.notFound, "There is no such cover art.")
        }
        let wanted = try call.int("size") ?? 0
        let size =
            wanted <= 0
            ? ImageSize.original
            : ImageSize.allCases.first { ($0.pixels ?? Int.max) >= wanted } ?? .original
        let path: String
        do {
            path = try await library.coverPath(parentID, size: size)
        } catch {
            throw SubsonicError(.notFound, "There is no such cover art.")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return .response(
            Response(
                status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=86400"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))))
    }
}
