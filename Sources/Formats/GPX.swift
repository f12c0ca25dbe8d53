import Compete
import Foundation
import InputRules

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
public struct GPXError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Reads GPX with FoundationXML's parser (libxml2), without any entity expansion: a file that
/// declares a DOCTYPE, in whatever encoding, is refused before parsing (``XMLInput``).
public enum GPX {
    /// The largest file read, in bytes.
    public static let maximumBytes = 10 << 20
    /// The most track points read.
    public static let maximumPoints = 200_000

    public static func read(_ data: Data, maximumPoints: Int = GPX.maximumPoints) throws(GPXError) -> GPXFile {
        guard data.count <= maximumBytes else {
            throw GPXError("The file is larger than \(maximumBytes >> 20) MiB.")
        }
        guard !data.isEmpty else { throw GPXError("The file is empty.") }
        let prepared: Data
        do {
            prepared = try XMLInput.prepared(data)
        } catch {
            throw GPXError(error.reason)
        }
        let reader = Reader(maximumPoints: maximumPoints)
        let parser = XMLParser(data: prepared)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else {
            let message = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw GPXError("The file is not well-formed XML (line \(parser.lineNumber)): \(message)")
        }
        guard reader.sawRoot else { throw GPXError("The file is XML but not GPX: its root element is not <gpx>.") }
        let file = GPXFile(creator: reader.creator, name: reader.trackName, segments: reader.segments)
        guard file.segments.contains(where: { $0.count >= 2 }) else {
            throw GPXError(
                file.pointCount == 0
                    ? "The file has no track points (<trkpt>); routes and waypoints are not results."
                    : "The file has only \(file.pointCount) track point\(file.pointCount == 1 ? "" : "s") "
                        + "and no segment with two; a result needs a track.")
        }
        return file
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

    private final class Reader: NSObject, XMLParserDelegate {
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

        private func fail(_ parser: XMLParser, _ reason: String) {
            if failure == nil { failure = GPXError(reason) }
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if path.isEmpty {
                guard elementName == "gpx" else {
                    fail(parser, "The file is XML but not GPX: its root element is <\(elementName)>, not <gpx>.")
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
                        "The track point on line \(parser.lineNumber) has no valid lat and lon "
                            + "(degrees, −90…90 and −180…180).")
                    return
                }
                points += 1
                if points > maximumPoints {
                    fail(parser, "The file has more than \(maximumPoints) track points.")
                    return
                }
                point = TrackPoint(latitude: lat, longitude: lon)
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if text.utf8.count < 200 { text += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
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
                        "The track point on line \(parser.lineNumber) has a time outside \(DateRules.rangeText).")
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
