import Foundation
import InputRules
import Listen
import Localization

/// What `ffprobe -print_format json -show_format -show_streams` says about an audio file, and
/// the catalogue entry Campus makes of it.
public struct AudioProbe: Sendable, Equatable {
    /// Seconds.
    public var duration: Double
    /// Kilobits per second.
    public var bitrate: Int?
    /// ffprobe's container name, e.g. `mp3`, `mov,mp4,m4a,3gp,3g2,mj2`, `ogg`, `flac`.
    public var formatName: String
    /// The tags of the container and its audio stream, with lowercased names.
    public var tags: [String: String]
    /// Whether the file carries a cover picture (an attached-picture stream).
    public var hasCoverArt: Bool

    /// The longest ffprobe output read.
    public static let outputLimit = 4 << 20

    private struct Output: Decodable {
        struct Stream: Decodable {
            var codecType: String?
            var disposition: [String: Int]?
            var tags: [String: String]?
            var duration: String?
            enum CodingKeys: String, CodingKey {
                case codecType = "codec_type"
                case disposition, tags, duration
            }
        }
        struct Format: Decodable {
            var formatName: String?
            var duration: String?
            var bitRate: String?
            var tags: [String: String]?
            enum CodingKeys: String, CodingKey {
                case formatName = "format_name"
                case bitRate = "bit_rate"
                case duration, tags
            }
        }
        var streams: [Stream]?
        var format: Format?
    }

    /// Reads ffprobe's JSON; throws ``ImportError`` when it is not ffprobe output for an audio file.
    public init(json: Data, file: String) throws {
        guard json.count <= Self.outputLimit else {
            throw ImportError(file: file, field: "", detail: "ffprobe said too much about it.")
        }
        let output: Output
        do {
            output = try JSONDecoder().decode(Output.self, from: json)
        } catch {
            throw ImportError(
                file: file, field: "", detail: "ffprobe's output is not JSON: {reason}",
                ["reason": String(describing: error)])
        }
        guard let format = output.format, let streams = output.streams,
            let audio = streams.first(where: { $0.codecType == "audio" })
        else { throw ImportError(file: file, field: "", detail: "it has no audio stream.") }
        var tags: [String: String] = [:]
        for (name, value) in format.tags ?? [:] { tags[name.lowercased()] = value }
        for (name, value) in audio.tags ?? [:] where tags[name.lowercased()] == nil { tags[name.lowercased()] = value }
        self.tags = tags
        self.formatName = format.formatName ?? ""
        // A length that is no finite number of seconds (`inf`, `nan`) is unknown, as a missing one.
        let duration = (format.duration ?? audio.duration).flatMap(Double.init) ?? 0
        self.duration = duration.isFinite && duration >= 0 ? duration : 0
        self.bitrate = format.bitRate.flatMap(Int.init).map { $0 / 1000 }
        self.hasCoverArt = streams.contains { $0.disposition?["attached_pic"] == 1 }
    }

    public init(duration: Double, bitrate: Int?, formatName: String, tags: [String: String], hasCoverArt: Bool) {
        self.duration = duration
        self.bitrate = bitrate
        self.formatName = formatName
        self.tags = tags
        self.hasCoverArt = hasCoverArt
    }

    /// The first number of a tag such as `3`, `3/12` or `03`.
    static func leadingNumber(_ text: String?) -> Int? {
        guard let text else { return nil }
        let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }
        return Int(digits)
    }

    func tag(_ names: String...) -> String? {
        for name in names {
            if let value = tags[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
                return value
            }
        }
        return nil
    }
}

/// A file of the library as the catalogue keeps it.
public struct ScannedAudio: Sendable, Equatable {
    public var kind: MediaKind
    public var title: String
    /// The album, podcast, audiobook or programme.
    public var parentTitle: String
    /// The parent's author (album artist), and the item's own.
    public var parentAuthor: String?
    public var author: String?
    public var genre: String?
    public var year: Int?
    /// The day of the date tag, when it names one (episodes are listed by it).
    public var publishedAt: Date?
    public var disc: Int
    public var number: Int
    public var duration: Double
    public var bitrate: Int?
    public var isExplicit: Bool
    public var description: String
    public var contentType: String
    public var hasCoverArt: Bool

    /// The catalogue entry for `relativePath` (inside the scanned folder) with the probe's tags.
    /// The kind comes from the folders or the genre; the parent is the album tag, or else the
    /// folder the file is in; the title is the title tag, or else the file name.
    public init(relativePath: String, probe: AudioProbe) {
        let components = relativePath.split(separator: "/").map(String.init)
        let folders = Array(components.dropLast())
        let fileName = components.last ?? relativePath
        let stem = (fileName as NSString).deletingPathExtension
        let genre = probe.tag("genre")
        kind = MediaKind.detect(folders: folders, genre: genre)
        self.genre = genre
        title = probe.tag("title") ?? stem
        parentTitle = probe.tag("album") ?? folders.last ?? "Unknown album"
        author = probe.tag("artist", "album_artist", "composer")
        parentAuthor = probe.tag("album_artist", "album artist", "albumartist") ?? author
        let date = probe.tag("date", "year", "originaldate")
        year = AudioProbe.leadingNumber(date)
        publishedAt = date.flatMap {
            try? Date(String($0.prefix(10)), strategy: Date.ISO8601FormatStyle().year().month().day())
        }
        disc = AudioProbe.leadingNumber(probe.tag("disc", "discnumber")) ?? 1
        number = AudioProbe.leadingNumber(probe.tag("track", "tracknumber")) ?? 0
        duration = probe.duration
        bitrate = probe.bitrate
        let advisory = probe.tag("itunesadvisory", "itunes_advisory", "explicit")?.lowercased()
        isExplicit = advisory == "1" || advisory == "yes" || advisory == "true" || advisory == "explicit"
        description = probe.tag("comment", "description", "synopsis") ?? ""
        contentType = ScannedAudio.contentType(formatName: probe.formatName, fileName: fileName)
        hasCoverArt = probe.hasCoverArt
    }

    /// Every tag against ``CatalogueLimits``: the first that breaks them is named (`the title tag
    /// has 600 characters; at most 500.`). The file is then not read into the catalogue.
    public func checkLimits() throws(CatalogueLimitProblem) {
        try CatalogueLimits.check(title, Phrase("The title tag"), limit: CatalogueLimits.title)
        try CatalogueLimits.check(parentTitle, Phrase("The album tag"), limit: CatalogueLimits.title)
        try CatalogueLimits.check(parentAuthor, Phrase("The album_artist tag"), limit: CatalogueLimits.name)
        try CatalogueLimits.check(author, Phrase("The artist tag"), limit: CatalogueLimits.name)
        try CatalogueLimits.check(genre, Phrase("The genre tag"), limit: CatalogueLimits.name)
        try CatalogueLimits.check(
            description, Phrase("The comment tag"), limit: CatalogueLimits.description, multiline: true)
        try CatalogueLimits.check(publishedAt, Phrase("The date tag"))
        if let year, !DateRules.years.contains(year) {
            throw CatalogueLimitProblem(
                Phrase(
                    "The date tag names the year {year}, outside {firstDay} to {lastDay}.",
                    DateRules.rangeValues.merging(["year": String(year)]) { _, new in new }))
        }
    }

    /// The file types the library reads, by extension.
    public static let extensions: [String: String] = [
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "m4b": "audio/mp4", "aac": "audio/aac", "ogg": "audio/ogg",
        "oga": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "wav": "audio/wav", "webm": "audio/webm",
    ]

    static func contentType(formatName: String, fileName: String) -> String {
        let ext = (fileName as NSString).pathExtension.lowercased()
        if let type = extensions[ext] { return type }
        switch formatName.split(separator: ",").first.map(String.init) ?? "" {
        case "mp3": return "audio/mpeg"
        case "mov": return "audio/mp4"
        case "ogg": return "audio/ogg"
        case "flac": return "audio/flac"
        case "wav": return "audio/wav"
        default: return "application/octet-stream"
        }
    }
}
