import InputRules

/// Icecast's in-stream metadata (ICY, as SHOUTcast began it): a listener that asks with
/// `Icy-MetaData: 1` gets `icy-metaint: N`, and after every N bytes of audio one length byte (the
/// number of 16-byte blocks) followed by that many blocks holding `StreamTitle='…';`, padded with
/// zeros. A block of length 0 (the byte 0 alone) says the title has not changed.
public enum IcyMetadata {
    /// Bytes of audio between two metadata blocks: Icecast's default.
    public static let interval = 16_000
    /// The longest metadata: 255 blocks of 16 bytes.
    public static let maximumLength = 255 * 16

    /// The metadata block saying `title` (its length byte first): the title cut at a whole
    /// character to fit, padded with zeros to a multiple of 16 bytes.
    ///
    /// The title can never end its field early or add fields of its own (a `StreamUrl` a player
    /// opens): players (ffmpeg, VLC, Icecast's own relays) read a value up to the first `';`
    /// and know no escape (a backslash is kept as a character), and Icecast writes the title as
    /// the source sent it. So every `'` of the title is written as `’` (U+2019, the typographic
    /// apostrophe, which reads the same), and control characters and noncharacters are left out.
    public static func block(title: String) -> [UInt8] {
        let prefix = Array("StreamTitle='".utf8)
        let suffix = Array("';".utf8)
        var text: [UInt8] = []
        for scalar in title.unicodeScalars where !TextRules.isControl(scalar) && !TextRules.isNoncharacter(scalar) {
            let written: Unicode.Scalar = scalar == "'" ? "\u{2019}" : scalar
            let bytes = Array(String(written).utf8)
            guard prefix.count + text.count + bytes.count + suffix.count <= maximumLength else { break }
            text += bytes
        }
        var body = prefix + text + suffix
        let blocks = (body.count + 15) / 16
        body += [UInt8](repeating: 0, count: blocks * 16 - body.count)
        return [UInt8(blocks)] + body
    }

    /// Puts metadata blocks into a listener's stream: one after every ``interval`` bytes, saying
    /// the title when it changed since the last block, an empty block otherwise. Keeps its place
    /// from one chunk of audio to the next.
    public struct Interleaver: Sendable {
        public let interval: Int
        private var untilBlock: Int
        private var lastTitle: String?

        public init(interval: Int = IcyMetadata.interval) {
            self.interval = max(1, interval)
            self.untilBlock = self.interval
        }

        /// `audio` with the blocks it needs, `title` being the title now.
        public mutating func interleave(_ audio: [UInt8], title: String) -> [UInt8] {
            var output: [UInt8] = []
            output.reserveCapacity(audio.count + 16)
            var index = 0
            while index < audio.count {
                let take = min(untilBlock, audio.count - index)
                output += audio[index..<index + take]
                index += take
                untilBlock -= take
                if untilBlock == 0 {
                    if title != lastTitle {
                        output += IcyMetadata.block(title: title)
                        lastTitle = title
                    } else {
                        output.append(0)
                    }
                    untilBlock = interval
                }
            }
            return output
        }
    }
}
