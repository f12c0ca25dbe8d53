import Foundation
import HTTPTypes
import InputRules
import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// How many ffmpeg transcodes run: at most `total` at once, and `perHolder` for one listener
/// (a signed-in user, or the address of a podcast app using a keyed link). A transcode over the
/// limit is refused at once with `Retry-After`, rather than queued behind streams that last as
/// long as a song.
final class TranscodeSlots: Sendable {
    let total: Int
    let perHolder: Int
    private let held = NIOLockedValueBox<[String: Int]>([:])

    init(total: Int, perHolder: Int) {
        self.total = max(1, total)
        self.perHolder = max(1, perHolder)
    }

    /// Takes a slot for `holder`, or throws 429 (this listener has enough) or 503 (the server has).
    func take(for holder: String) throws -> Slot {
        try held.withLockedValue { held in
            if held[holder, default: 0] >= perHolder {
                throw Refusal(
                    .tooMany(retryAfterSeconds: 10),
                    detail: "You are already playing {count} transcoded streams; stop one, or play the original file.",
                    ["count": String(perHolder)])
            }
            if held.values.reduce(0, +) >= total {
                throw Refusal(
                    .unavailable(retryAfterSeconds: 10),
                    detail:
                        "The server is transcoding as many streams as it can; try again shortly, or play the original.")
            }
            held[holder, default: 0] += 1
        }
        return Slot(slots: self, holder: holder)
    }

    fileprivate func give(back holder: String) {
        held.withLockedValue { held in
            let left = held[holder, default: 1] - 1
            held[holder] = left > 0 ? left : nil
        }
    }

    var inUse: Int { held.withLockedValue { $0.values.reduce(0, +) } }

    /// A taken slot; given back once, when released or when it is dropped.
    final class Slot: Sendable {
        private let slots: TranscodeSlots
        private let holder: String
        private let released = NIOLockedValueBox(false)

        fileprivate init(slots: TranscodeSlots, holder: String) {
            self.slots = slots
            self.holder = holder
        }

        func release() {
            let first = released.withLockedValue { released in
                defer { released = true }
                return !released
            }
            if first { slots.give(back: holder) }
        }

        deinit { release() }
    }
}

/// One ffmpeg process turning a local file into MP3 on its standard output. It holds a slot
/// while it runs; stopping it (or dropping it) ends ffmpeg and gives the slot back.
final class TranscodeJob: Sendable {
    private let process: Process
    private let output: FileHandle
    private let slot: TranscodeSlots.Slot
    private let stopped = NIOLockedValueBox(false)

    struct Failed: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "ffmpeg ended with status \(status) before writing anything" }
    }

    private init(process: Process, output: FileHandle, slot: TranscodeSlots.Slot) {
        self.process = process
        self.output = output
        self.slot = slot
    }

    /// Starts ffmpeg on a local file; it may open that file and nothing else. `output` says how
    /// it encodes (``mp3(bitrate:)``); `realTime` reads the file at its own pace (a broadcast);
    /// `startAt` skips that many seconds of it.
    static func start(
        ffmpeg: String, file: String, output: [String], realTime: Bool = false, startAt: Int = 0,
        slot: TranscodeSlots.Slot
    ) throws -> TranscodeJob {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments =
            ["-hide_banner", "-loglevel", "error", "-nostdin", "-protocol_whitelist", "file,pipe"]
            + (realTime ? ["-re"] : []) + (startAt > 0 ? ["-ss", String(startAt)] : []) + [
                "-i", ExternalTool.fileInput(file), "-map", "0:a:0", "-vn",
            ] + output
            + ["pipe:1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return TranscodeJob(process: process, output: pipe.fileHandleForReading, slot: slot)
    }

    /// ffmpeg's output options for MP3 at `bitrate` kbit/s.
    static func mp3(bitrate: Int) -> [String] { ["-c:a", "libmp3lame", "-b:a", "\(bitrate)k", "-f", "mp3"] }

    /// The next bytes ffmpeg wrote; empty when it has finished.
    func read() async throws -> Data {
        let output = self.output
        return try await NIOThreadPool.singleton.runIfActive { output.readData(ofLength: 64 * 1024) }
    }

    /// Waits for ffmpeg to end, and returns its exit status.
    func wait() async throws -> Int32 {
        let process = self.process
        try await NIOThreadPool.singleton.runIfActive { process.waitUntilExit() }
        stop()
        return process.terminationStatus
    }

    /// Ends ffmpeg without closing its output, so that a read under way sees the end.
    func interrupt() {
        if process.isRunning { process.terminate() }
    }

    /// Ends ffmpeg if it still runs, and gives the slot back.
    func stop() {
        let first = stopped.withLockedValue { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        if process.isRunning { process.terminate() }
        try? output.close()
        slot.release()
        // Reap the process so that it does not stay a zombie.
        let process = self.process
        NIOThreadPool.singleton.submit { _ in process.waitUntilExit() }
    }

    deinit { stop() }
}
