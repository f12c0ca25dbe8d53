import Formats
import Foundation
import Listen
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SharedHelpers
import Storage

/// Broadcasts kept as episodes of their station's programme. The episode exists from the
/// broadcast's first second (named by its start until it ends), and the source's own bytes go to
/// its file as they come, so a crash keeps what was recorded: the next start finds the unfinished
/// recording and completes its episode from the file (``repairUnfinished()``).
struct RadioRecordings: Sendable {
    let database: Database
    /// `recordings/` in the data directory.
    let directory: String
    let timeZone: TimeZone
    let logger: Logger
    let now: @Sendable () -> Date

    /// Starts recording a broadcast of `station`; nil when the station does not record, has no
    /// programme, or sends a format Campus does not keep.
    func begin(_ station: Station, contentType: String) async -> BroadcastRecorder? {
        guard station.recordsBroadcasts, let programmeID = station.programmeID,
            let fileExtension = BroadcastRecording.fileExtension(contentType: contentType)
        else { return nil }
        let started = now()
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(station.mount).path
        let stamp = String(format: "%.0f", started.timeIntervalSince1970 * 1000)
        let path = folder + "/\(stamp)-\(UUID().uuidString.prefix(8).lowercased()).\(fileExtension)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let file = FileHandle(forWritingAtPath: path)
            else { throw CocoaError(.fileWriteUnknown) }
            let title = BroadcastRecording.title(startedAt: started, timeZone: timeZone, titles: [])
            let draft = MediaDraft(
                kind: .programmeEpisode, parentID: programmeID, title: title, authorID: nil, genreID: nil, disc: 0,
                number: 0, duration: 0, isExplicit: false, description: station.name, publishedAt: started,
                path: path, url: nil, guid: nil, size: 0, modified: Int64(started.timeIntervalSince1970 * 1000),
                contentType: contentType, bitrate: nil)
            let mediaID = try await database.write { db in
                let id = try await ListenStore(db).saveMedia(draft, now: started)
                try await RadioStore(db).startRecording(mediaID: id, stationID: station.id, now: started)
                return id
            }
            logger.notice("recording a broadcast", metadata: ["mount": "\(station.mount)", "file": "\(path)"])
            return BroadcastRecorder(mediaID: mediaID, draft: draft, file: file)
        } catch {
            logger.error(
                "cannot record a broadcast",
                metadata: ["mount": "\(station.mount)", "error": "\(ErrorLog.text(error))"])
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    /// The broadcast ended: the file is complete, and its episode gets its name (the start and the
    /// titles said), length and size.
    func finish(_ recorder: BroadcastRecorder, titles: [String]) async {
        await recorder.close()
        var draft = recorder.draft
        draft.title = BroadcastRecording.title(
            startedAt: draft.publishedAt ?? now(), timeZone: timeZone, titles: titles)
        await complete(mediaID: recorder.mediaID, draft)
    }

    /// Completes the recordings a stopped server left unfinished (except those a live instance is
    /// still making: their station's source is announced and fresh).
    func repairUnfinished(onTheAir: @Sendable (String) async -> Bool) async {
        do {
            let unfinished = try await database.read { db in try await RadioStore(db).unfinishedRecordings() }
            for (mediaID, mount) in unfinished {
                if let mount, await onTheAir(mount) { continue }
                guard let item = try await database.read({ db in try await ListenStore(db).media(id: mediaID) }),
                    let file = try await database.read({ db in try await ListenStore(db).mediaFile(id: mediaID) })
                else { continue }
                let draft = MediaDraft(
                    kind: .programmeEpisode, parentID: item.parentID, title: item.title, authorID: nil, genreID: nil,
                    disc: 0, number: 0, duration: 0, isExplicit: false, description: item.description,
                    publishedAt: item.publishedAt, path: file.path, url: nil, guid: nil, size: 0, modified: 0,
                    contentType: file.contentType, bitrate: nil)
                await complete(mediaID: mediaID, draft)
                logger.notice("completed an interrupted recording", metadata: ["file": "\(file.path)"])
            }
        } catch {
            logger.error("cannot complete interrupted recordings", metadata: ["error": "\(ErrorLog.text(error))"])
        }
    }

    /// Measures the file and writes what it found; a recording with no audio is removed.
    private func complete(mediaID: Int64, _ draft: MediaDraft) async {
        guard let path = draft.path else { return }
        var draft = draft
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        draft.size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        draft.modified = Int64(((attributes?[.modificationDate] as? Date) ?? now()).timeIntervalSince1970 * 1000)
        let probe = try? await ExternalTool.ffprobe.run([
            "-v", "error", "-protocol_whitelist", "file", "-print_format", "json", "-show_format", "-show_streams",
            ExternalTool.fileInput(path),
        ])
        let audio = probe.flatMap { try? AudioProbe(json: $0, file: path) }
        let finished = now()
        do {
            if let audio, audio.duration > 0 {
                draft.duration = audio.duration
                draft.bitrate = audio.bitrate
                let complete = draft
                try await database.write { db in
                    _ = try await ListenStore(db).saveMedia(complete, now: finished)
                    try await RadioStore(db).finishRecording(mediaID: mediaID, now: finished)
                }
            } else {
                try await database.write { db in try await ListenStore(db).deleteMedia(ids: [mediaID]) }
                try? FileManager.default.removeItem(atPath: path)
            }
        } catch {
            logger.error(
                "cannot complete a recording", metadata: ["file": "\(path)", "error": "\(ErrorLog.text(error))"])
        }
    }
}

/// One broadcast's recording: the source's bytes, written to the file in the order they came.
/// Writes leave the event loop for a queue of their own, 32 KiB at a time (two seconds at
/// 128 kbit/s: what a crash can lose beyond what the disk holds).
final class BroadcastRecorder: Sendable {
    let mediaID: Int64
    /// The episode as it was created.
    let draft: MediaDraft
    private let file: FileHandle
    private let queue = DispatchQueue(label: "campus.radio.recording")
    private let pending = NIOLockedValueBox((buffer: ByteBuffer(), closed: false))
    static let flushBytes = 32 << 10

    init(mediaID: Int64, draft: MediaDraft, file: FileHandle) {
        self.mediaID = mediaID
        self.draft = draft
        self.file = file
    }

    func write(_ bytes: ByteBuffer) {
        let full = pending.withLockedValue { pending -> ByteBuffer? in
            guard !pending.closed else { return nil }
            var bytes = bytes
            pending.buffer.writeBuffer(&bytes)
            guard pending.buffer.readableBytes >= Self.flushBytes else { return nil }
            defer { pending.buffer = ByteBuffer() }
            return pending.buffer
        }
        if let full { queue.async { [file] in try? file.write(contentsOf: Data(full.readableBytesView)) } }
    }

    /// Writes what is left and closes the file, once every write before it is done.
    func close() async {
        let rest = pending.withLockedValue { pending -> ByteBuffer? in
            guard !pending.closed else { return nil }
            pending.closed = true
            return pending.buffer
        }
        guard let rest else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { [file] in
                try? file.write(contentsOf: Data(rest.readableBytesView))
                try? file.synchronize()
                try? file.close()
                done.resume()
            }
        }
    }
}
