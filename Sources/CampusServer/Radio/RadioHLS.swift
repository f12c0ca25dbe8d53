import Foundation
import Listen
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// HLS beside a station's Icecast stream (issue 42): `/radio/{mount}/live.m3u8`, AAC segments
/// that ffmpeg cuts from the broadcast's own audio (this instance's broadcast: the source, the
/// fallback or a relay), a rolling playlist of the last ``playlistSize`` segments without an end,
/// so that a player that joins late starts at the live edge and one that loses its network
/// resumes where the live edge is. Phones' browsers play it in the background.
///
/// Made on demand, as the fallback is: the first request for a station's playlist starts its
/// segmenter (one ffmpeg, fed as any listener is), and ``idle`` after the last request it stops
/// and its segments are removed.
final class RadioHLS: Sendable {
    let directory: URL
    let logger: Logger
    private let segmenters = NIOLockedValueBox<[String: Segmenter]>([:])

    /// Seconds of audio a segment holds, and segments the playlist lists.
    static let segmentSeconds = 4
    static let playlistSize = 6
    /// A segmenter nobody asked for in this long stops.
    static let idle: TimeInterval = 30
    static let playlistName = "live.m3u8"

    init(directory: URL, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// One station's segmenter: ffmpeg reading the broadcast's audio on its standard input.
    final class Segmenter: Sendable {
        let folder: URL
        let process: Process
        let feeding: Task<Void, Never>
        let lastAsked = NIOLockedValueBox(Date())
        let broadcast: Broadcast

        init(folder: URL, process: Process, feeding: Task<Void, Never>, broadcast: Broadcast) {
            self.folder = folder
            self.process = process
            self.feeding = feeding
            self.broadcast = broadcast
        }

        func stop() {
            feeding.cancel()
            if process.isRunning { process.terminate() }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The station's playlist, its segmenter started if it was not running (waiting up to
    /// `wait` for its first segments); nil when there is none yet.
    func playlist(of broadcast: Broadcast, wait: Duration = .seconds(12)) async -> String? {
        guard let segmenter = segmenter(for: broadcast) else { return nil }
        segmenter.lastAsked.withLockedValue { $0 = Date() }
        let file = segmenter.folder.appendingPathComponent(Self.playlistName)
        let deadline = ContinuousClock.now + wait
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOf: file, encoding: .utf8), text.contains("#EXTINF") { return text }
            guard segmenter.process.isRunning else { break }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }

    /// A segment's bytes, while the station's segmenter keeps it; nil for another name.
    func segment(mount: String, name: String) -> [UInt8]? {
        guard Self.isSegmentName(name), let segmenter = segmenters.withLockedValue({ $0[mount] }) else { return nil }
        segmenter.lastAsked.withLockedValue { $0 = Date() }
        return (try? Data(contentsOf: segmenter.folder.appendingPathComponent(name))).map { [UInt8]($0) }
    }

    /// `live-123.ts`, as the segmenter names its segments.
    static func isSegmentName(_ name: String) -> Bool {
        guard name.hasPrefix("live-"), name.hasSuffix(".ts") else { return false }
        let number = name.dropFirst(5).dropLast(3)
        return (1...10).contains(number.count) && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
    }

    /// The running segmenter of the broadcast, or a new one (one that fed an earlier broadcast of
    /// the station stops first).
    private func segmenter(for broadcast: Broadcast) -> Segmenter? {
        let mount = broadcast.station.mount
        return segmenters.withLockedValue { segmenters -> Segmenter? in
            if let running = segmenters[mount] {
                if running.broadcast === broadcast, running.process.isRunning { return running }
                running.stop()
                segmenters[mount] = nil
            }
            guard let started = start(broadcast) else { return nil }
            segmenters[mount] = started
            return started
        }
    }

    private func start(_ broadcast: Broadcast) -> Segmenter? {
        let mount = broadcast.station.mount
        guard let ffmpeg = ExternalTool.ffmpeg.path,
            let (id, burst, stream) = broadcast.listen(limit: .max, client: .init(userAgent: "Campus HLS"))
        else { return nil }
        let folder = directory.appendingPathComponent(mount + "-" + UUID().uuidString.prefix(8).lowercased())
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            broadcast.drop(id)
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-hide_banner", "-loglevel", "error", "-i", "pipe:0", "-vn", "-c:a", "aac", "-b:a", "128k", "-ar", "44100",
            "-ac", "2", "-f", "hls", "-hls_time", String(Self.segmentSeconds), "-hls_list_size",
            String(Self.playlistSize), "-hls_flags", "delete_segments+omit_endlist", "-hls_segment_type", "mpegts",
            "-hls_segment_filename", folder.appendingPathComponent("live-%d.ts").path,
            folder.appendingPathComponent(Self.playlistName).path,
        ]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            broadcast.drop(id)
            try? FileManager.default.removeItem(at: folder)
            logger.warning("cannot start the HLS segmenter", metadata: ["mount": "\(mount)", "error": "\(error)"])
            return nil
        }
        let writer = input.fileHandleForWriting
        let feeding = Task.detached {
            defer {
                broadcast.drop(id)
                try? writer.close()
            }
            do {
                for chunk in burst { try writer.write(contentsOf: Data(chunk.readableBytesView)) }
                for await chunk in stream {
                    guard !Task.isCancelled else { break }
                    try writer.write(contentsOf: Data(chunk.readableBytesView))
                    broadcast.written(chunk.readableBytes, by: id)
                }
            } catch {
                // ffmpeg stopped: the next request starts another.
            }
        }
        logger.info("HLS segmenter started", metadata: ["mount": "\(mount)"])
        return Segmenter(folder: folder, process: process, feeding: feeding, broadcast: broadcast)
    }

    /// Stops the segmenters nobody asked for within ``idle``, those of broadcasts that ended, and
    /// (with `all`) every one.
    func sweep(all: Bool = false) {
        let now = Date()
        let stopped = segmenters.withLockedValue { segmenters -> [Segmenter] in
            let over = segmenters.filter { _, segmenter in
                all || segmenter.broadcast.hasEnded || !segmenter.process.isRunning
                    || now.timeIntervalSince(segmenter.lastAsked.withLockedValue { $0 }) > Self.idle
            }
            for mount in over.keys { segmenters[mount] = nil }
            return Array(over.values)
        }
        for segmenter in stopped { segmenter.stop() }
    }
}
