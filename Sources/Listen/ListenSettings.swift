import Foundation
import InputRules

/// A listener's settings (seed 001's settings screen).
public struct ListenSettings: Sendable, Equatable, Codable {
    public enum SoundQuality: String, Sendable, Codable, CaseIterable {
        /// The file as it is.
        case original
        case high
        case normal
        case low

        /// The MP3 bitrate a stream is transcoded to, in kbit/s; nil plays the original file.
        public var bitrate: Int? {
            switch self {
            case .original: nil
            case .high: 192
            case .normal: 128
            case .low: 64
            }
        }
    }

    public var soundQuality: SoundQuality
    /// When the queue ends, play similar items (same authors and genres) rather than stop.
    public var endlessQueue: Bool
    public var skipExplicit: Bool
    public var radioRegion: String

    public init(
        soundQuality: SoundQuality = .original, endlessQueue: Bool = false, skipExplicit: Bool = false,
        radioRegion: String = ""
    ) {
        self.soundQuality = soundQuality
        self.endlessQueue = endlessQueue
        self.skipExplicit = skipExplicit
        self.radioRegion = radioRegion
    }
}
