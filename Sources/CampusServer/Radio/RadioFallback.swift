import Foundation
import Listen
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// What a station plays while its source is gone, as an Icecast fallback mount does: its AutoDJ's
/// picks, or its programme's episodes one after another in a loop, each transcoded by ffmpeg at its own pace
/// to the broadcast's format, so that listeners go on hearing the station without reconnecting.
/// A source that connects again takes over.
///
/// It plays only while someone listens (a listener here, or another instance's relay): with
/// nobody for ``idleGrace`` it stops ffmpeg and rests, the station still on the air, and the
/// next listener starts it again (on demand, as Icecast's on-demand relays). While it plays it
/// holds a slot of the fallbacks' own (`Services.fallbackSlots`), never one of the listeners'
/// transcodes.
final class RadioFallback: Sendable {
    /// An episode it plays: what the station says is playing, and the file.
    struct Episode: Sendable, Equatable {
        var title: String
        var path: String
        /// The catalogue's item and the AutoDJ playlist it comes from, when it has them.
        var mediaID: Int64?
        var playlistID: Int64?
        /// The listener's request it plays, if it does.
        var requestID: Int64?
    }

    /// Where a fallback's episodes come from: a programme's in a loop, or a station's AutoDJ.
    struct Programme: Sendable {
        /// The episode to play next; nil when there is nothing to play.
        var next: @Sendable () async -> Episode?
        /// An episode starts playing (a listener hears it).
        var started: @Sendable (Episode) async -> Void = { _ in }
        /// Episodes that may fail in a row before the fallback gives up.
        var attempts: Int
        /// The station's AutoDJ (else a programme's episodes in a loop).
        var isAutoDJ = false

        /// `episodes` one after another, in a loop; nil when there are none.
        static func looping(_ episodes: [Episode]) -> Programme? {
            guard !episodes.isEmpty else { return nil }
            let position = NIOLockedValueBox(0)
            return Programme(
                next: {
                    position.withLockedValue { position in
                        defer { position = (position + 1) % episodes.count }
                        return episodes[position]
                    }
                }, attempts: episodes.count)
        }
    }

    /// How one episode's playing ended.
    enum Outcome: Sendable, Equatable {
        /// To its end (or until the fallback stopped).
        case played
        /// ffmpeg wrote nothing.
        case failed
        /// Nobody listened for ``idleGrace``: ffmpeg stopped, the fallback rests.
        case unheard
    }

    private let task: NIOLockedValueBox<Task<Void, Never>?> = .init(nil)
    /// Whether it plays the station's AutoDJ.
    let isAutoDJ: Bool

    private init(isAutoDJ: Bool) { self.isAutoDJ = isAutoDJ }

    /// How long a fallback plays on after its last listener left (a player that reconnects finds
    /// it playing); then ffmpeg stops until somebody listens.
    static let idleGrace = Duration.seconds(5)
    /// How often a resting fallback looks for a listener.
    static let restInterval = Duration.milliseconds(250)

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

    /// Starts the fallback of the broadcast's feed `token` with `episodes` in a loop.
    static func start(
        _ episodes: [Episode], into broadcast: Broadcast, token: Int, slots: TranscodeSlots,
        said: @escaping @Sendable (String) -> Void, logger: Logger, idleGrace: Duration = RadioFallback.idleGrace
    ) -> RadioFallback? {
        guard let programme = Programme.looping(episodes) else { return nil }
        return start(
            programme, into: broadcast, token: token, slots: slots, said: said, logger: logger, idleGrace: idleGrace)
    }

    /// Starts the fallback of the broadcast's feed `token`: it plays the programme's episodes
    /// whenever somebody listens; nil when there is no ffmpeg or no format for the broadcast.
    /// `said` is told each episode's title as it comes next (also while nobody listens: it is
    /// what a listener would hear); the programme is told when one starts playing.
    static func start(
        _ programme: Programme, into broadcast: Broadcast, token: Int, slots: TranscodeSlots,
        said: @escaping @Sendable (String) -> Void, logger: Logger, idleGrace: Duration = RadioFallback.idleGrace
    ) -> RadioFallback? {
        guard let ffmpeg = ExternalTool.ffmpeg.path, let output = output(for: broadcast.contentType) else { return nil }
        let mount = broadcast.station.mount
        let fallback = RadioFallback(isAutoDJ: programme.isAutoDJ)
        let task = Task {
            var failedInARow = 0
            var lastSaid: String?
            var next = await programme.next()
            while let episode = next, !Task.isCancelled, broadcast.feedToken == token,
                failedInARow < programme.attempts
            {
                if episode.title != lastSaid {
                    said(episode.title)
                    lastSaid = episode.title
                }
                guard await waitForListener(broadcast, token) else { return }
                guard let slot = try? slots.take(for: "radio/\(mount)") else {
                    logger.warning("No transcode slot for a radio fallback", metadata: ["mount": "\(mount)"])
                    try? await Task.sleep(for: .seconds(5))
                    continue
                }
                await programme.started(episode)
                let outcome = await play(
                    episode, ffmpeg: ffmpeg, output: output, slot: slot, broadcast, token, idleGrace: idleGrace)
                switch outcome {
                case .played, .failed:
                    failedInARow = outcome == .played ? 0 : failedInARow + 1
                    if !Task.isCancelled, broadcast.feedToken == token { next = await programme.next() }
                case .unheard:
                    // The episode starts again for the next listener, without the last seconds
                    // of before as its burst.
                    broadcast.forgetRecent(token: token)
                    logger.info("radio fallback resting", metadata: ["mount": "\(mount)"])
                }
            }
            if failedInARow > 0 {
                logger.warning("A radio fallback has nothing it can play", metadata: ["mount": "\(mount)"])
            }
        }
        fallback.task.withLockedValue { $0 = task }
        return fallback
    }

    /// Waits until the broadcast has a listener; false when the fallback is to stop instead.
    private static func waitForListener(_ broadcast: Broadcast, _ token: Int) async -> Bool {
        while broadcast.listenerCount == 0 {
            guard !Task.isCancelled, broadcast.feedToken == token, !broadcast.hasEnded else { return false }
            try? await Task.sleep(for: restInterval)
        }
        return !Task.isCancelled && broadcast.feedToken == token
    }

    /// Plays one episode to its end, until stopped, or until nobody listened for `idleGrace`.
    private static func play(
        _ episode: Episode, ffmpeg: String, output: [String], slot: TranscodeSlots.Slot, _ broadcast: Broadcast,
        _ token: Int, idleGrace: Duration
    ) async -> Outcome {
        guard
            let job = try? TranscodeJob.start(
                ffmpeg: ffmpeg, file: episode.path, output: output, realTime: true, slot: slot)
        else { return .failed }
        defer { job.stop() }
        return await withTaskCancellationHandler { () async -> Outcome in
            var wrote = false
            var unheardSince: ContinuousClock.Instant?
            while broadcast.feedToken == token, let chunk = try? await job.read(), !chunk.isEmpty {
                wrote = true
                broadcast.deliver(ByteBuffer(bytes: chunk), token: token)
                if broadcast.listenerCount > 0 {
                    unheardSince = nil
                } else if let since = unheardSince {
                    if ContinuousClock.now - since >= idleGrace { return .unheard }
                } else {
                    unheardSince = ContinuousClock.now
                }
            }
            return wrote ? .played : .failed
        } onCancel: {
            job.interrupt()
        }
    }

    /// Stops playing (a source connected, or the station is gone).
    func stop() {
        task.withLockedValue { $0 }?.cancel()
    }
}
