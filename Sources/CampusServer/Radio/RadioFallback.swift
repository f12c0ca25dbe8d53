import Foundation
import Listen
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// What a station plays while its source is gone, as an Icecast fallback mount does: its
/// programme's episodes one after another, in a loop, each transcoded by ffmpeg at its own pace
/// to the broadcast's format, so that listeners go on hearing the station without reconnecting.
/// It holds a transcode slot while it plays; a source that connects again takes over.
final class RadioFallback: Sendable {
    /// An episode it plays: what the station says is playing, and the file.
    struct Episode: Sendable, Equatable {
        var title: String
        var path: String
    }

    private let task: NIOLockedValueBox<Task<Void, Never>?> = .init(nil)

    /// ffmpeg's output options that make audio a listener of `contentType` decodes; nil for a
    /// type Campus cannot make.
    static func output(for contentType: String) -> [String]? {
        switch BroadcastRecording.fileExtension(contentType: contentType) {
        case "mp3": TranscodeJob.mp3(bitrate: 128) + ["-ar", "44100", "-ac", "2"]
        case "ogg": ["-c:a", "libvorbis", "-b:a", "128k", "-ar", "44100", "-ac", "2", "-f", "ogg"]
        case "aac": ["-c:a", "aac", "-b:a", "128k", "-ar", "44100", "-ac", "2", "-f", "adts"]
        default: nil
        }
    }

    /// Starts playing `episodes` into the broadcast's feed `token`; nil when there is nothing to
    /// play, no ffmpeg, no format for the broadcast, or no transcode slot free.
    /// `said` is told each episode's title as it starts.
    static func start(
        _ episodes: [Episode], into broadcast: Broadcast, token: Int, slots: TranscodeSlots,
        said: @escaping @Sendable (String) -> Void, logger: Logger
    ) -> RadioFallback? {
        guard !episodes.isEmpty, let ffmpeg = ExternalTool.ffmpeg.path,
            let output = output(for: broadcast.contentType)
        else { return nil }
        let mount = broadcast.station.mount
        let fallback = RadioFallback()
        let task = Task {
            var failedInARow = 0
            while !Task.isCancelled, broadcast.feedToken == token, failedInARow < episodes.count {
                for episode in episodes {
                    guard !Task.isCancelled, broadcast.feedToken == token else { return }
                    guard let slot = try? slots.take(for: "radio/\(mount)") else {
                        logger.warning("No transcode slot for a radio fallback", metadata: ["mount": "\(mount)"])
                        try? await Task.sleep(for: .seconds(5))
                        continue
                    }
                    said(episode.title)
                    let played = await play(episode, ffmpeg: ffmpeg, output: output, slot: slot, broadcast, token)
                    failedInARow = played ? 0 : failedInARow + 1
                    if failedInARow >= episodes.count { break }
                }
            }
            if failedInARow > 0 {
                logger.warning("A radio fallback has nothing it can play", metadata: ["mount": "\(mount)"])
            }
        }
        fallback.task.withLockedValue { $0 = task }
        return fallback
    }

    /// Plays one episode to its end (or until stopped); false when ffmpeg wrote nothing.
    private static func play(
        _ episode: Episode, ffmpeg: String, output: [String], slot: TranscodeSlots.Slot, _ broadcast: Broadcast,
        _ token: Int
    ) async -> Bool {
        guard
            let job = try? TranscodeJob.start(
                ffmpeg: ffmpeg, file: episode.path, output: output, realTime: true, slot: slot)
        else { return false }
        defer { job.stop() }
        var wrote = false
        return await withTaskCancellationHandler {
            while broadcast.feedToken == token, let chunk = try? await job.read(), !chunk.isEmpty {
                wrote = true
                broadcast.deliver(ByteBuffer(bytes: chunk), token: token)
            }
            return wrote
        } onCancel: {
            job.interrupt()
        }
    }

    /// Stops playing (a source connected, or the station is gone).
    func stop() {
        task.withLockedValue { $0 }?.cancel()
    }
}
