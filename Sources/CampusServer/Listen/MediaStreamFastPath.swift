import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import Listen
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SharedHelpers
import Storage

/// Answers `GET` and `HEAD /api/v1/media/{id}/stream`: the file of a media item, addressed by its
/// id only, with ranges (206, 416), ETag and Last-Modified, or transcoded by ffmpeg to MP3 at a
/// lower bitrate (`?format=mp3&bitrate=96`), sent as ffmpeg produces it.
struct MediaStreamFastPath: FastOperation {
    let database: Database
    let links: LinkSigner
    let transcodes: TranscodeSlots
    /// Whether players may be sent to a private address (`--allow-private-fetch`).
    let allowPrivateAddresses: Bool
    let authenticator: Authenticator
    let logger: Logger
    /// Reads a request's credentials, for ``EarlyStreamAnswer``.
    let scopes: RequestScopeMiddleware
    let files = OpenMediaFiles()
    /// The paths routed here, for ``EarlyStreamAnswer``.
    let paths = KnownPaths<Int64>()

    /// A range of an item whose path the router matched here before, made before the router (at
    /// once on the event loop when all it needs is in memory).
    var early: (any EarlyAnswer)? { EarlyStreamAnswer(media: self, scopes: scopes) }

    /// The operation's `x-campus-fast-path`.
    static let name = FastOperationName.mediaStream
    let sources = MediaSources()

    /// Where items' bytes are, kept for a second: a player asks for many ranges of one item in a
    /// row, and a rescan (here, by the CLI or another instance) is seen a second later.
    final class MediaSources: Sendable {
        struct Entry {
            var file: MediaFile?
            var remote: String?
            var at: Date
        }
        private let entries = NIOLockedValueBox<[Int64: Entry]>([:])
        static let lifetime: TimeInterval = 1
        static let capacity = 10_000

        func source(_ id: Int64, database: Database) async throws -> (MediaFile?, String?) {
            let now = Date()
            if let kept = kept(id, now: now) { return kept }
            let (file, remote) = try await database.read { db in
                let store = ListenStore(db)
                if let file = try await store.mediaFile(id: id) { return (Optional(file), String?.none) }
                return (nil, try await store.remoteURL(id: id))
            }
            entries.withLockedValue {
                if $0.count >= Self.capacity { $0.removeAll(keepingCapacity: true) }
                $0[id] = Entry(file: file, remote: remote, at: now)
            }
            return (file, remote)
        }

        /// Where the item's bytes are, if that was read less than a second ago.
        func kept(_ id: Int64, now: Date = Date()) -> (MediaFile?, String?)? {
            guard let entry = entries.withLockedValue({ $0[id] }), now.timeIntervalSince(entry.at) < Self.lifetime
            else { return nil }
            return (entry.file, entry.remote)
        }
    }

    /// How much of a file is read at a time: a typical player range in one read.
    static let chunkLength = 1 << 20

    /// The longest `Range` header answered (the problem's text says it too).
    static let rangeLimit = 100

    /// The bitrates a stream may be transcoded to, in kbit/s.
    static let bitrates = 32...320

    func answer(_ request: Request, context: CampusRequestContext) async throws -> Response? {
        guard request.method == .get || request.method == .head,
            let id = context.parameters.get("mediaId", as: Int64.self), id > 0
        else {
            return nil
        }
        paths.remember(request.uri.path, id)
        let query = request.uri.queryParameters
        // A key made by Campus (in its RSS feeds) opens the item without a login.
        let holder: String
        if links.isValid(query["key"].map(String.init), for: "media:\(id)") {
            holder = "address:\(RequestScope.current?.address ?? "unknown")"
        } else {
            holder = "user:\(try await authenticator.requireUser().user.id)"
        }
        if let range = request.headers[.range], range.utf8.count > Self.rangeLimit {
            throw Problem.invalid(FieldProblem(field: "Range", detail: "A Range header has at most 100 characters."))
        }
        var bitrate: Int?
        if let format = query["format"] {
            guard format == "mp3" else { throw Problem.badRequest("format must be mp3.") }
            let value = query["bitrate"].flatMap { Int($0) } ?? 128
            guard Self.bitrates.contains(value) else {
                throw Problem.badRequest("bitrate must be between 32 and 320 (kbit/s).")
            }
            bitrate = value
        }
        let (file, remote) = try await sources.source(id, database: database)
        if let file {
            if let bitrate {
                return try await transcoded(
                    file.path, id: id, bitrate: bitrate, head: request.method == .head, holder: holder)
            }
            return try await original(file, id: id, request: request, context: context)
        }
        // An episode of an imported feed plays from where the feed says it is: the listener's
        // device fetches it (in its original quality); Campus never fetches or transcodes it.
        if let remote { return try redirect(id, to: remote) }
        throw Problem.notFound("There is no media item {id} to stream.", ["id": String(id)])
    }

    /// Sends a player to where an imported episode plays from (here and in Subsonic's `stream`),
    /// if Campus may send anyone there: the address rule of the import (``OutboundURL``), judged
    /// again with the server's own setting, since the URL may have been stored before the rule,
    /// or by `campus podcast add --allow-private-fetch`.
    func redirect(_ id: Int64, to remote: String) throws -> Response {
        do throws(OutboundURL.Refusal) {
            _ = try OutboundURL(remote, allowPrivate: allowPrivateAddresses)
        } catch {
            switch error {
            case .notWebURL:
                throw Problem.notFound("Media item {id} has no http or https URL to play from.", ["id": String(id)])
            case .privateHost(let host, _):
                throw Problem.notFound(
                    "Media item {id} plays from {host}, a loopback, private or link-local address, where Campus sends no player.",
                    ["id": String(id), "host": String(host.prefix(100))])
            }
        }
        return Response(status: .found, headers: [.location: remote, .cacheControl: "private, max-age=300"])
    }

    /// The file as it is, with ranges and validators (the Subsonic API's stream and download too).
    func original(_ item: MediaFile, id: Int64, request: Request, context: CampusRequestContext) async throws
        -> Response
    {
        let answer = try originalAnswer(item, id: id, request: request.head)
        guard let part = answer.part, request.method == .get else {
            return Response(status: answer.status, headers: answer.headers)
        }
        // A range a player asks for (up to a chunk) is read before the answer starts, so a failed
        // read is an error rather than a cut answer; more is sent chunk by chunk as it is read.
        if part.count <= Self.chunkLength {
            let bytes = try await files.read(answer.file, offset: part.lowerBound, count: part.count)
            return Response(status: answer.status, headers: answer.headers, body: ResponseBody(byteBuffer: bytes))
        }
        let body = ResponseBody(contentLength: part.count) { [files, file = answer.file] writer in
            var offset = part.lowerBound
            while offset <= part.upperBound {
                let count = Int(min(Int64(Self.chunkLength), part.upperBound - offset + 1))
                try await writer.write(try await files.read(file, offset: offset, count: count))
                offset += Int64(count)
            }
            try await writer.finish(nil)
        }
        return Response(status: answer.status, headers: answer.headers, body: body)
    }

    /// What ``original(_:id:request:context:)`` answers, before any byte is read.
    struct OriginalAnswer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var file: OpenMediaFiles.File
        /// The bytes the answer holds (for a GET); nil for an answer without a body.
        var part: ClosedRange<Int64>?
    }

    /// The status and headers of the file as it is, and which of its bytes a GET sends.
    func originalAnswer(_ item: MediaFile, id: Int64, request: HTTPRequest) throws -> OriginalAnswer {
        // The file may have changed since the last scan: describe what is on disk now.
        guard let file = files.file(at: item.path) else {
            throw Problem(
                .gone,
                detail: "The file of media item {id} is no longer in the library; an admin should scan it again.",
                ["id": String(id)])
        }
        let size = file.identity.size
        let modified = file.identity.modified
        let etag = "\"m\(id)-\(size)-\(file.identity.modifiedMilliseconds)\""
        var headers: HTTPFields = [
            .contentType: item.contentType, .acceptRanges: "bytes", .eTag: etag, .lastModified: file.lastModified,
            .cacheControl: "private, max-age=3600",
        ]
        if let ifNoneMatch = request.headerFields[.ifNoneMatch] {
            if EntityTag.matches(ifNoneMatch, etag) {
                return OriginalAnswer(status: .notModified, headers: headers, file: file)
            }
        } else if let since = request.headerFields[.ifModifiedSince].flatMap(HTTPDate.date),
            modified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            return OriginalAnswer(status: .notModified, headers: headers, file: file)
        }
        var range = ByteRangeRequest(header: request.headerFields[.range], size: size)
        if let ifRange = request.headerFields[.ifRange], ifRange != etag, ifRange != file.lastModified {
            range = .whole
        }
        let part: ClosedRange<Int64>
        let status: HTTPResponse.Status
        switch range {
        case .unsatisfiable:
            return OriginalAnswer(
                status: .rangeNotSatisfiable,
                headers: [.contentRange: "bytes */\(size)", .acceptRanges: "bytes", .contentLength: "0"], file: file)
        case .whole:
            guard size > 0 else {
                headers[.contentLength] = "0"
                return OriginalAnswer(status: .ok, headers: headers, file: file)
            }
            (part, status) = (0...(size - 1), .ok)
        case .part(let asked):
            headers[.contentRange] = "bytes \(asked.lowerBound)-\(asked.upperBound)/\(size)"
            (part, status) = (asked, .partialContent)
        }
        headers[.contentLength] = String(part.count)
        return OriginalAnswer(status: status, headers: headers, file: file, part: part)
    }

    /// ffmpeg's MP3 of a local file, sent as it is produced. ffmpeg must have written its first
    /// bytes before the answer starts, so a file it cannot read is an error, not an empty 200.
    func transcoded(_ path: String, id: Int64, bitrate: Int, head: Bool, holder: String, startAt: Int = 0)
        async throws -> Response
    {
        guard let ffmpeg = ExternalTool.ffmpeg.path else {
            throw Problem(
                .serviceUnavailable, detail: "Transcoding needs ffmpeg, which is not installed on the server.")
        }
        let headers: HTTPFields = [
            .contentType: "audio/mpeg", .acceptRanges: "none", .cacheControl: "private, no-store",
        ]
        if head { return Response(status: .ok, headers: headers) }
        let slot = try transcodes.take(for: holder)
        let job = try TranscodeJob.start(
            ffmpeg: ffmpeg, file: path, output: TranscodeJob.mp3(bitrate: bitrate), startAt: startAt, slot: slot)
        let first: Data
        do {
            first = try await job.read()
        } catch {
            job.stop()
            throw error
        }
        if first.isEmpty {
            let status = try await job.wait()
            logger.warning(
                "A transcode failed", metadata: ["media": "\(id)", "file": "\(path)", "status": "\(status)"])
            throw Problem.invalid(
                FieldProblem(
                    field: "format",
                    detail:
                        "Media item {id} cannot be transcoded (its file is damaged or holds no audio); ask for the original, without format.",
                    ["id": String(id)]))
        }
        let body = ResponseBody { writer in
            defer { job.stop() }
            try await writer.write(ByteBuffer(bytes: first))
            while true {
                let chunk = try await job.read()
                if chunk.isEmpty { break }
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            _ = try await job.wait()
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension FastOperationName {
    static let mediaStream = FastOperationName("media-stream")
}
