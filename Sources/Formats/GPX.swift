import Compete
import Foundation
import InputRules
import Localization

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A GPX 1.0 or 1.1 file, read for its tracks: every `trk`'s `trkseg`s and their `trkpt`s.
public struct GPXFile: Sendable, Equatable {
    public var creator: String?
    /// The name of the first track, if it has one.
    public var name: String?
    /// Every track segment of every track, in order; empty segments stay (and count for nothing).
    public var segments: [[TrackPoint]]

    public var pointCount: Int { segments.reduce(0) { $0 + $1.count } }

    public var statistics: TrackStatistics { TrackStatistics(segments: segments) }
}

/// Why a GPX file cannot be used, in words for the person who uploaded it.
public struct GPXError: PhrasedError, Sendable, Equatable {
    /// The words, and what they were made from (a translation looks them up).
    public var phrase: Phrase

    /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
    /// are `values`, as for a ``FieldProblem``.
    public init(detail message: String, _ values: [String: String] = [:]) {
        self.phrase = Phrase(message, values)
    }

    public init(_ phrase: Phrase) { self.phrase = phrase }
}

/// Reads GPX with FoundationXML's parser (libxml2), without any entity expansion: a file that
/// declares a DOCTYPE, in whatever encoding, is refused before parsing (``XMLInput``).
public enum GPX {
    /// The largest file read, in bytes.
    public static let maximumBytes = 10 << 20
    /// The most track points read.
    public static let maximumPoints = 200_000

    public static func read(_ data: Data, maximumPoints: Int = GPX.maximumPoints) throws(GPXError) -> GPXFile {
        let reader = Reader(maximumPoints: maximumPoints)
        try parse(data, with: reader)
        guard reader.sawRoot else {
            throw GPXError(detail: "The file is XML but not GPX: its root element is not <gpx>.")
        }
        let file = GPXFile(creator: reader.creator, name: reader.trackName, segments: reader.segments)
        try requireTrack(file.segments)
        return file
    }

    /// Parses a track file in XML (GPX, TCX) with `reader` as the parser's delegate, within the
    /// size limit, after ``XMLInput`` made it safe, with no entities resolved: the reader's own
    /// refusal, or the parser's words when the XML is not well-formed.
    static func parse(_ data: Data, with reader: some TrackXMLReader) throws(GPXError) {
        try checkSize(data)
        guard !data.isEmpty else { throw GPXError(detail: "The file is empty.") }
        let prepared: Data
        do {
            prepared = try XMLInput.prepared(data)
        } catch {
            throw GPXError(error.phrase)
        }
        let parser = XMLParser(data: prepared)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else {
            // The reason is the XML parser's own words.
            let reason = XMLInput.reason(parser, firstError: reader.firstError)
            throw GPXError(
                detail: "The file is not well-formed XML (line {line}): {reason}",
                ["line": String(parser.lineNumber), "reason": reason])
        }
    }

    /// Refuses a track file over ``maximumBytes``, whatever its format.
    static func checkSize(_ data: Data) throws(GPXError) {
        guard data.count <= maximumBytes else {
            throw GPXError(detail: "The file is larger than {maximum} MiB.", ["maximum": String(maximumBytes >> 20)])
        }
    }

    /// Refuses segments that hold no track: a result needs one with two points.
    static func requireTrack(_ segments: [[TrackPoint]]) throws(GPXError) {
        let pointCount = segments.reduce(0) { $0 + $1.count }
        guard segments.contains(where: { $0.count >= 2 }) else {
            let count = ["count": String(pointCount)]
            switch pointCount {
            case 0:
                throw GPXError(
                    detail: "The file has no track points (<trkpt>); routes and waypoints are not results.")
            case 1:
                throw GPXError(
                    detail: "The file has only {count} track point and no segment with two; a result needs a track.",
                    count)
            default:
                throw GPXError(
                    detail: "The file has only {count} track points and no segment with two; a result needs a track.",
                    count)
            }
        }
    }

    /// Reads `2020-12-18T07:24:29Z`, with or without fractional seconds, with an offset or
    /// (as some devices write it) with no zone at all, which GPX means as UTC.
    public static func time(_ text: String) -> Date? {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count >= 19, text.count <= 40 else { return nil }
        let tail = text.dropFirst(19)
        if !tail.contains("Z") && !tail.contains("+") && !tail.contains("-") { text += "Z" }
        if text.contains(".") {
            return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    private final class Reader: NSObject, TrackXMLReader {
        let maximumPoints: Int
        var failure: GPXError?
        var sawRoot = false
        var creator: String?
        var trackName: String?
        var segments: [[TrackPoint]] = []
        var points = 0

        private var path: [String] = []
        private var point: TrackPoint?
        private var text = ""

        init(maximumPoints: Int) { self.maximumPoints = maximumPoints }

        /// The parser's first error; parsing stops at the next event (``XMLInput/stopped(_:after:)``).
        var firstError: (any Error)?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if firstError == nil { firstError = parseError }
        }

        private func fail(_ parser: XMLParser, _ error: GPXError) {
            if failure == nil { failure = error }
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            if path.isEmpty {
                guard elementName == "gpx" else {
                    fail(
                        parser,
                        GPXError(
                            detail: "The file is XML but not GPX: its root element is <{element}>, not <gpx>.",
                            ["element": elementName]))
                    return
                }
                sawRoot = true
                creator = attributes["creator"]
            }
            path.append(elementName)
            text = ""
            switch elementName {
            case "trkseg" where path.count == 3 && path[1] == "trk":
                segments.append([])
            case "trkpt" where path.count == 4 && path[2] == "trkseg":
                guard let lat = attributes["lat"].flatMap(Double.init), (-90...90).contains(lat),
                    let lon = attributes["lon"].flatMap(Double.init), (-180...180).contains(lon)
                else {
                    fail(
                        parser,
                        GPXError(
                            detail:
                                "The track point on line {line} has no valid lat and lon (degrees, −90…90 and −180…180).",
                            ["line": String(parser.lineNumber)]))
                    return
                }
                points += 1
                if points > maximumPoints {
                    fail(
                        parser,
                        GPXError(
                            detail: "The file has more than {maximum} track points.",
                            ["maximum": String(maximumPoints)]))
                    return
                }
                point = TrackPoint(latitude: lat, longitude: lon)
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            if text.utf8.count < 200 { text += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            defer {
                if !path.isEmpty { path.removeLast() }
                text = ""
            }
            switch elementName {
            case "ele" where point != nil && path.count == 5:
                point?.elevation = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
            case "time" where point != nil && path.count == 5:
                let time = GPX.time(text)
                if let time, !DateRules.isSupported(time) {
                    fail(
                        parser,
                        GPXError(
                            detail: "The track point on line {line} has a time outside {firstDay} to {lastDay}.",
                            DateRules.rangeValues.merging(["line": String(parser.lineNumber)]) { _, new in new }))
                    return
                }
                point?.time = time
            case "name" where path.count == 3 && path[1] == "trk" && trackName == nil:
                let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !name.isEmpty { trackName = name }
            case "trkpt":
                if let point, !segments.isEmpty { segments[segments.count - 1].append(point) }
                point = nil
            default:
                break
            }
        }
    }
}

/// A parser delegate reading a track file: what it refused, and the parser's first error.
protocol TrackXMLReader: XMLParserDelegate {
    var failure: GPXError? { get }
    var firstError: (any Error)? { get }
}
